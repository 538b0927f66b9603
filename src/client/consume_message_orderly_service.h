// ConsumeMessageOrderlyService (Java's): one consume task per queue at a time, messages in
// offset order. In CLUSTERING a queue is consumed only while this client holds its broker
// lock (renewed by LockAll every 20 s, seen as lost after 30 s without renewal); a task
// runs for at most 60 s before yielding the thread. SUSPEND_CURRENT_QUEUE_A_MOMENT puts the
// batch back and retries it after suspendCurrentQueueTimeMillis; past maxReconsumeTimes the
// batch is sent back (to end in the DLQ) and the queue moves on.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "apogee/consume_listener.h"
#include "client/consume_message_service.h"
#include "client/consume_scheduler.h"
#include "remoting/executor.h"

namespace apogee::client {

// Java's rocketmq.client.rebalance.lockInterval.
inline constexpr int64_t kRebalanceLockIntervalMs = 20'000;
// Java's rocketmq.client.maxTimeConsumeContinuously.
inline constexpr int64_t kMaxTimeConsumeContinuouslyMs = 60'000;

class ConsumeMessageOrderlyService final : public ConsumeMessageService {
 public:
  ConsumeMessageOrderlyService(ConsumeServiceHost* host, MessageListenerOrderly listener,
                               int32_t threads, int32_t batch_max_size, int64_t suspend_time_ms,
                               int64_t lock_interval_ms = kRebalanceLockIntervalMs);
  ~ConsumeMessageOrderlyService() override;

  void Start() override;
  void Shutdown() override;
  void SubmitConsumeRequest(std::vector<MessageExt> msgs, std::shared_ptr<ProcessQueue> pq,
                            const protocol::MessageQueue& mq, bool dispatch_to_consume) override;
  ConsumeDirectlyResult ConsumeMessageDirectly(const MessageExt& msg,
                                               const std::string& broker_name) override;
  int32_t CorePoolSize() const override { return threads_; }
  bool IsOrderly() const override { return true; }

  // The body of a consume task (public for tests).
  void ConsumeQueue(const std::shared_ptr<ProcessQueue>& pq, const protocol::MessageQueue& mq);

 private:
  void Submit(std::shared_ptr<ProcessQueue> pq, const protocol::MessageQueue& mq);
  void SubmitLater(std::shared_ptr<ProcessQueue> pq, const protocol::MessageQueue& mq,
                   int64_t delay_ms);
  void TryLockLaterAndReconsume(std::shared_ptr<ProcessQueue> pq, const protocol::MessageQueue& mq,
                                int64_t delay_ms);
  void LockAllPeriodically();
  // Messages past maxReconsumeTimes are sent back; true when the batch must be retried.
  bool CheckReconsumeTimes(std::vector<MessageExt>& msgs, const protocol::MessageQueue& mq);
  std::mutex& QueueMutex(const protocol::MessageQueue& mq);

  ConsumeServiceHost* const host_;
  const MessageListenerOrderly listener_;
  const int32_t threads_;
  const int32_t batch_max_size_;
  const int64_t suspend_time_ms_;
  const int64_t lock_interval_ms_;
  std::unique_ptr<remoting::ThreadPoolExecutor> pool_;
  DelayedTaskRunner scheduler_{"ConsumeMessageOrderlyScheduled"};
  std::mutex queue_mutexes_mu_;
  std::map<protocol::MessageQueue, std::unique_ptr<std::mutex>>
      queue_mutexes_;  // guarded by the above
};

}  // namespace apogee::client
