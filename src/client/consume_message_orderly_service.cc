#include "client/consume_message_orderly_service.h"

#include <algorithm>

#include "base/clock.h"
#include "base/logging.h"
#include "message/message_format.h"

namespace apogee::client {
namespace {
constexpr size_t kPoolQueueCapacity = 1 << 20;
// Java's delays: re-lock attempts, yielding after the continuous-consume limit.
constexpr int64_t kRelockDelayMs = 10;
constexpr int64_t kNotLockedDelayMs = 100;
constexpr int64_t kLockFailedDelayMs = 3000;
constexpr int64_t kYieldDelayMs = 10;

ConsumeOrderlyStatus CallListener(const MessageListenerOrderly& listener,
                                  const std::vector<MessageExt>& msgs,
                                  ConsumeOrderlyContext& context, std::string* error) {
  try {
    return listener(msgs, context);
  } catch (const std::exception& e) {
    *error = e.what();
  } catch (...) {
    *error = "unknown exception";
  }
  return ConsumeOrderlyStatus::kSuspendCurrentQueueAMoment;
}

}  // namespace

ConsumeMessageOrderlyService::ConsumeMessageOrderlyService(ConsumeServiceHost* host,
                                                           MessageListenerOrderly listener,
                                                           int32_t threads, int32_t batch_max_size,
                                                           int64_t suspend_time_ms,
                                                           int64_t lock_interval_ms)
    : host_(host),
      listener_(std::move(listener)),
      threads_(std::max(threads, 1)),
      batch_max_size_(std::max(batch_max_size, 1)),
      suspend_time_ms_(suspend_time_ms),
      lock_interval_ms_(lock_interval_ms) {}

ConsumeMessageOrderlyService::~ConsumeMessageOrderlyService() { Shutdown(); }

void ConsumeMessageOrderlyService::Start() {
  if (!pool_) {
    pool_ = std::make_unique<remoting::ThreadPoolExecutor>("ConsumeMessageThread", threads_,
                                                           kPoolQueueCapacity);
  }
  scheduler_.Start();
  if (!host_->IsBroadcasting()) {
    // Java: first re-lock after 1 s, then every lockInterval.
    scheduler_.ExecuteLater(1000, [this] { LockAllPeriodically(); });
  }
}

void ConsumeMessageOrderlyService::LockAllPeriodically() {
  host_->GetRebalance().LockAll();
  scheduler_.ExecuteLater(lock_interval_ms_, [this] { LockAllPeriodically(); });
}

void ConsumeMessageOrderlyService::Shutdown() {
  scheduler_.Shutdown();
  if (pool_) pool_->Shutdown();
}

std::mutex& ConsumeMessageOrderlyService::QueueMutex(const protocol::MessageQueue& mq) {
  std::lock_guard lock(queue_mutexes_mu_);
  auto& slot = queue_mutexes_[mq];
  if (!slot) slot = std::make_unique<std::mutex>();
  return *slot;
}

void ConsumeMessageOrderlyService::SubmitConsumeRequest(std::vector<MessageExt>,
                                                        std::shared_ptr<ProcessQueue> pq,
                                                        const protocol::MessageQueue& mq,
                                                        bool dispatch_to_consume) {
  // The messages are already in the ProcessQueue; a task takes them from there in order.
  if (dispatch_to_consume) Submit(std::move(pq), mq);
}

void ConsumeMessageOrderlyService::Submit(std::shared_ptr<ProcessQueue> pq,
                                          const protocol::MessageQueue& mq) {
  bool queued = pool_ && pool_->TryExecute([this, pq, mq] { ConsumeQueue(pq, mq); });
  if (!queued) SubmitLater(std::move(pq), mq, kLockFailedDelayMs);
}

void ConsumeMessageOrderlyService::SubmitLater(std::shared_ptr<ProcessQueue> pq,
                                               const protocol::MessageQueue& mq, int64_t delay_ms) {
  scheduler_.ExecuteLater(delay_ms, [this, pq, mq] {
    if (!pq->dropped()) Submit(pq, mq);
  });
}

void ConsumeMessageOrderlyService::TryLockLaterAndReconsume(std::shared_ptr<ProcessQueue> pq,
                                                            const protocol::MessageQueue& mq,
                                                            int64_t delay_ms) {
  scheduler_.ExecuteLater(delay_ms, [this, pq, mq] {
    if (pq->dropped()) return;
    const bool locked = host_->GetRebalance().Lock(mq);
    SubmitLater(pq, mq, locked ? kRelockDelayMs : kLockFailedDelayMs);
  });
}

void ConsumeMessageOrderlyService::ConsumeQueue(const std::shared_ptr<ProcessQueue>& pq,
                                                const protocol::MessageQueue& mq) {
  if (pq->dropped()) return;
  std::lock_guard queue_lock(QueueMutex(mq));
  const bool broadcasting = host_->IsBroadcasting();
  if (!broadcasting && (!pq->locked() || pq->IsLockExpired(NowMillis()))) {
    TryLockLaterAndReconsume(pq, mq, kNotLockedDelayMs);
    return;
  }
  const std::string& group = host_->ConsumerGroup();
  const int64_t begin = NowMillis();
  while (true) {
    if (pq->dropped()) return;
    if (!broadcasting && (!pq->locked() || pq->IsLockExpired(NowMillis()))) {
      TryLockLaterAndReconsume(pq, mq, kRelockDelayMs);
      return;
    }
    if (NowMillis() - begin > kMaxTimeConsumeContinuouslyMs) {
      SubmitLater(pq, mq, kYieldDelayMs);
      return;
    }
    std::vector<MessageExt> msgs = pq->TakeMessages(batch_max_size_);
    if (msgs.empty()) return;  // the queue is idle; the next PutMessages starts a new task
    const std::string start = std::to_string(NowMillis());
    for (MessageExt& msg : msgs) {
      ResetRetryTopic(group, msg);
      msg.PutProperty(message::kPropertyConsumeStartTimestamp, start);
    }
    ConsumeOrderlyContext context;
    context.message_queue = apogee::MessageQueue(mq.topic, mq.broker_name, mq.queue_id);
    ConsumeOrderlyStatus status;
    std::string error;
    {
      std::lock_guard consume_lock(pq->consume_mutex());
      if (pq->dropped()) return;
      status = CallListener(listener_, msgs, context, &error);
    }
    if (!error.empty()) {
      GetLogger("client")->warn("orderly listener of {} threw on {}: {}; suspending the queue",
                                group, protocol::ToString(mq), error);
    }
    pq->set_last_consume_timestamp(NowMillis());

    int64_t commit_offset = -1;
    bool keep_going = true;
    if (status == ConsumeOrderlyStatus::kSuccess) {
      commit_offset = pq->Commit();
    } else if (CheckReconsumeTimes(msgs, mq)) {
      pq->MakeMessagesToConsumeAgain(msgs);
      const int64_t delay = context.suspend_current_queue_time_millis >= 0
                                ? context.suspend_current_queue_time_millis
                                : suspend_time_ms_;
      SubmitLater(pq, mq, delay);
      keep_going = false;
    } else {
      commit_offset = pq->Commit();
    }
    if (commit_offset >= 0 && !pq->dropped()) {
      host_->GetOffsetStore().UpdateOffset(mq, commit_offset, false);
    }
    if (!keep_going) return;
  }
}

bool ConsumeMessageOrderlyService::CheckReconsumeTimes(std::vector<MessageExt>& msgs,
                                                       const protocol::MessageQueue& mq) {
  bool suspend = false;
  const int32_t max = host_->MaxReconsumeTimes(/*orderly=*/true);
  for (MessageExt& msg : msgs) {
    if (msg.reconsume_times() >= max) {
      msg.PutProperty(message::kPropertyReconsumeTime, std::to_string(msg.reconsume_times()));
      // Past the limit the message goes back to the broker (and on to the DLQ); only if
      // that fails does the queue stay blocked on it.
      if (!host_->SendMessageBack(msg, /*delay_level=*/-1, mq.broker_name)) {
        suspend = true;
        msg.set_reconsume_times(msg.reconsume_times() + 1);
      }
    } else {
      suspend = true;
      msg.set_reconsume_times(msg.reconsume_times() + 1);
    }
  }
  return suspend;
}

ConsumeDirectlyResult ConsumeMessageOrderlyService::ConsumeMessageDirectly(
    const MessageExt& msg, const std::string& broker_name) {
  ConsumeDirectlyResult result;
  result.order = true;
  result.auto_commit = true;
  std::vector<MessageExt> msgs{msg};
  ResetRetryTopic(host_->ConsumerGroup(), msgs[0]);
  ConsumeOrderlyContext context;
  context.message_queue = apogee::MessageQueue(msg.topic(), broker_name, msg.queue_id());
  const int64_t begin = NowMillis();
  std::string error;
  ConsumeOrderlyStatus status = CallListener(listener_, msgs, context, &error);
  result.spent_time_millis = NowMillis() - begin;
  if (!error.empty()) {
    result.consume_result = "CR_THROW_EXCEPTION";
    result.remark = error;
  } else if (status == ConsumeOrderlyStatus::kSuccess) {
    result.consume_result = "CR_SUCCESS";
  } else {
    result.consume_result = "CR_LATER";
  }
  return result;
}

}  // namespace apogee::client
