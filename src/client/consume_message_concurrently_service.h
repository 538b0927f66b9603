// ConsumeMessageConcurrentlyService (Java's): batches of consumeMessageBatchMaxSize run on
// a pool of consumeThreadMin threads in any order. A batch answered RECONSUME_LATER (or
// messages past ackIndex) go back to the broker with CONSUMER_SEND_MSG_BACK — in
// CLUSTERING; BROADCASTING drops them, as Java — and the messages whose send-back failed
// are consumed again locally after 5 s. The queue's offset then advances to the smallest
// offset still waiting in its ProcessQueue.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "apogee/consume_listener.h"
#include "client/consume_message_service.h"
#include "client/consume_scheduler.h"
#include "remoting/executor.h"

namespace apogee::client {

class ConsumeMessageConcurrentlyService final : public ConsumeMessageService {
 public:
  ConsumeMessageConcurrentlyService(ConsumeServiceHost* host, MessageListenerConcurrently listener,
                                    int32_t threads, int32_t batch_max_size);
  ~ConsumeMessageConcurrentlyService() override;

  void Start() override;
  void Shutdown() override;
  void SubmitConsumeRequest(std::vector<MessageExt> msgs, std::shared_ptr<ProcessQueue> pq,
                            const protocol::MessageQueue& mq, bool dispatch_to_consume) override;
  ConsumeDirectlyResult ConsumeMessageDirectly(const MessageExt& msg,
                                               const std::string& broker_name) override;
  int32_t CorePoolSize() const override { return threads_; }
  bool IsOrderly() const override { return false; }

  // Runs one batch now on the calling thread (the body of a consume task; public for tests).
  void ConsumeBatch(std::vector<MessageExt> msgs, const std::shared_ptr<ProcessQueue>& pq,
                    const protocol::MessageQueue& mq);

 private:
  void Submit(std::vector<MessageExt> msgs, std::shared_ptr<ProcessQueue> pq,
              const protocol::MessageQueue& mq);
  void SubmitLater(std::vector<MessageExt> msgs, std::shared_ptr<ProcessQueue> pq,
                   const protocol::MessageQueue& mq, int64_t delay_ms);

  ConsumeServiceHost* const host_;
  const MessageListenerConcurrently listener_;
  const int32_t threads_;
  const int32_t batch_max_size_;
  std::unique_ptr<remoting::ThreadPoolExecutor> pool_;
  DelayedTaskRunner scheduler_{"ConsumeMessageScheduled"};
};

}  // namespace apogee::client
