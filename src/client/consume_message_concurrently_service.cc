#include "client/consume_message_concurrently_service.h"

#include <algorithm>

#include "base/clock.h"
#include "base/logging.h"
#include "message/message_format.h"

namespace apogee::client {
namespace {
// Java's ConsumeMessageConcurrentlyService: failed send-backs are retried locally after 5 s.
constexpr int64_t kConsumeLaterDelayMs = 5000;
constexpr size_t kPoolQueueCapacity = 1 << 20;

// A listener that throws counts as RECONSUME_LATER (Java treats an exception that way).
ConsumeConcurrentlyStatus CallListener(const MessageListenerConcurrently& listener,
                                       const std::vector<MessageExt>& msgs,
                                       ConsumeConcurrentlyContext& context, std::string* error) {
  try {
    return listener(msgs, context);
  } catch (const std::exception& e) {
    *error = e.what();
  } catch (...) {
    *error = "unknown exception";
  }
  return ConsumeConcurrentlyStatus::kReconsumeLater;
}

}  // namespace

ConsumeMessageConcurrentlyService::ConsumeMessageConcurrentlyService(
    ConsumeServiceHost* host, MessageListenerConcurrently listener, int32_t threads,
    int32_t batch_max_size)
    : host_(host),
      listener_(std::move(listener)),
      threads_(std::max(threads, 1)),
      batch_max_size_(std::max(batch_max_size, 1)) {}

ConsumeMessageConcurrentlyService::~ConsumeMessageConcurrentlyService() { Shutdown(); }

void ConsumeMessageConcurrentlyService::Start() {
  if (!pool_) {
    pool_ = std::make_unique<remoting::ThreadPoolExecutor>("ConsumeMessageThread", threads_,
                                                           kPoolQueueCapacity);
  }
  scheduler_.Start();
}

void ConsumeMessageConcurrentlyService::Shutdown() {
  scheduler_.Shutdown();
  if (pool_) pool_->Shutdown();
}

void ConsumeMessageConcurrentlyService::SubmitConsumeRequest(std::vector<MessageExt> msgs,
                                                             std::shared_ptr<ProcessQueue> pq,
                                                             const protocol::MessageQueue& mq,
                                                             bool) {
  for (size_t start = 0; start < msgs.size(); start += batch_max_size_) {
    const size_t end = std::min(msgs.size(), start + static_cast<size_t>(batch_max_size_));
    Submit(std::vector<MessageExt>(msgs.begin() + start, msgs.begin() + end), pq, mq);
  }
}

void ConsumeMessageConcurrentlyService::Submit(std::vector<MessageExt> msgs,
                                               std::shared_ptr<ProcessQueue> pq,
                                               const protocol::MessageQueue& mq) {
  auto shared_msgs = std::make_shared<std::vector<MessageExt>>(std::move(msgs));
  bool queued = pool_ && pool_->TryExecute([this, shared_msgs, pq, mq] {
    ConsumeBatch(std::move(*shared_msgs), pq, mq);
  });
  if (!queued) SubmitLater(std::move(*shared_msgs), std::move(pq), mq, kConsumeLaterDelayMs);
}

void ConsumeMessageConcurrentlyService::SubmitLater(std::vector<MessageExt> msgs,
                                                    std::shared_ptr<ProcessQueue> pq,
                                                    const protocol::MessageQueue& mq,
                                                    int64_t delay_ms) {
  auto shared_msgs = std::make_shared<std::vector<MessageExt>>(std::move(msgs));
  scheduler_.ExecuteLater(delay_ms,
                          [this, shared_msgs, pq, mq] { Submit(std::move(*shared_msgs), pq, mq); });
}

void ConsumeMessageConcurrentlyService::ConsumeBatch(std::vector<MessageExt> msgs,
                                                     const std::shared_ptr<ProcessQueue>& pq,
                                                     const protocol::MessageQueue& mq) {
  if (pq->dropped()) return;
  const std::string& group = host_->ConsumerGroup();
  const std::string start = std::to_string(NowMillis());
  for (MessageExt& msg : msgs) {
    ResetRetryTopic(group, msg);
    msg.PutProperty(message::kPropertyConsumeStartTimestamp, start);
  }
  ConsumeConcurrentlyContext context;
  context.message_queue = apogee::MessageQueue(mq.topic, mq.broker_name, mq.queue_id);
  std::string error;
  ConsumeConcurrentlyStatus status = CallListener(listener_, msgs, context, &error);
  if (!error.empty()) {
    GetLogger("client")->warn("consume listener of {} threw on {}: {}; reconsume later", group,
                              protocol::ToString(mq), error);
  }
  pq->set_last_consume_timestamp(NowMillis());
  if (pq->dropped()) {
    GetLogger("client")->warn("{} was dropped while consuming; its offset is not committed",
                              protocol::ToString(mq));
    return;
  }

  const int32_t size = static_cast<int32_t>(msgs.size());
  int32_t ack_index = context.ack_index;
  if (status == ConsumeConcurrentlyStatus::kConsumeSuccess) {
    if (ack_index >= size) ack_index = size - 1;
  } else {
    ack_index = -1;
  }

  std::vector<MessageExt> consumed;
  std::vector<MessageExt> retry_locally;
  for (int32_t i = 0; i < size; ++i) {
    if (i <= ack_index) {
      consumed.push_back(msgs[i]);
      continue;
    }
    if (host_->IsBroadcasting()) {
      GetLogger("client")->warn("BROADCASTING: consume of {} failed, dropped", msgs[i].msg_id());
      consumed.push_back(msgs[i]);
      continue;
    }
    if (host_->SendMessageBack(msgs[i], context.delay_level_when_next_consume, mq.broker_name)) {
      consumed.push_back(msgs[i]);
    } else {
      MessageExt again = msgs[i];
      again.set_reconsume_times(again.reconsume_times() + 1);
      retry_locally.push_back(std::move(again));
    }
  }
  // Only the messages that are finished leave the ProcessQueue; the others keep holding the
  // queue's offset back until they are consumed locally.
  const int64_t offset = pq->RemoveMessages(consumed);
  if (!retry_locally.empty()) SubmitLater(std::move(retry_locally), pq, mq, kConsumeLaterDelayMs);
  if (offset >= 0 && !pq->dropped()) host_->GetOffsetStore().UpdateOffset(mq, offset, true);
}

ConsumeDirectlyResult ConsumeMessageConcurrentlyService::ConsumeMessageDirectly(
    const MessageExt& msg, const std::string& broker_name) {
  ConsumeDirectlyResult result;
  result.order = false;
  result.auto_commit = true;
  std::vector<MessageExt> msgs{msg};
  ResetRetryTopic(host_->ConsumerGroup(), msgs[0]);
  ConsumeConcurrentlyContext context;
  context.message_queue = apogee::MessageQueue(msg.topic(), broker_name, msg.queue_id());
  const int64_t begin = NowMillis();
  std::string error;
  ConsumeConcurrentlyStatus status = CallListener(listener_, msgs, context, &error);
  result.spent_time_millis = NowMillis() - begin;
  if (!error.empty()) {
    result.consume_result = "CR_THROW_EXCEPTION";
    result.remark = error;
  } else if (status == ConsumeConcurrentlyStatus::kConsumeSuccess) {
    result.consume_result = "CR_SUCCESS";
  } else {
    result.consume_result = "CR_LATER";
  }
  return result;
}

}  // namespace apogee::client
