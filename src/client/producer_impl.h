// ProducerImpl: the engine behind apogee::Producer and apogee::TransactionProducer (Java's
// DefaultMQProducerImpl): the send loop with its timeout budget, retries on another broker
// set and fault avoidance; selector / queue / batch / async / oneway sends; the
// transactional send and the answer to CHECK_TRANSACTION_STATE.
//
// Thread-safety: every method may be called from any thread after Start().
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "apogee/producer.h"
#include "apogee/transaction_producer.h"
#include "client/client_instance.h"
#include "client/mq_fault_strategy.h"
#include "client/producer_inner.h"
#include "client/send_message_builder.h"

namespace apogee::client {

class ProducerImpl final : public ProducerInner, public std::enable_shared_from_this<ProducerImpl> {
 public:
  explicit ProducerImpl(ProducerConfig config);
  ~ProducerImpl() override;

  Status Start();
  void Shutdown();
  const ProducerConfig& config() const { return config_; }
  MQFaultStrategy& fault_strategy() { return fault_strategy_; }

  Result<SendResult> Send(const Message& msg);
  Result<SendResult> SendToQueue(const Message& msg, const MessageQueue& mq);
  Result<SendResult> SendSelect(const Message& msg, const MessageQueueSelector& selector);
  Result<SendResult> SendBatch(const std::vector<Message>& msgs, const MessageQueue* mq);
  void SendAsync(const Message& msg, const MessageQueue* mq, const MessageQueueSelector* selector,
                 SendCallback callback);
  Status SendOneway(const Message& msg, const MessageQueue* mq);
  Result<std::vector<MessageQueue>> FetchPublishMessageQueues(const std::string& topic);

  void set_transaction_listener(std::shared_ptr<TransactionListener> listener) {
    transaction_listener_ = std::move(listener);
  }
  const std::shared_ptr<TransactionListener>& transaction_listener() const {
    return transaction_listener_;
  }
  Result<TransactionSendResult> SendMessageInTransaction(const Message& msg, void* arg);

  // ProducerInner.
  std::string GroupName() const override { return config_.group_name; }
  bool IsUnitMode() const override { return config_.unit_mode; }
  void CheckTransactionState(const std::string& broker_addr, const message::MessageExt& msg,
                             const protocol::CheckTransactionStateRequestHeader& header) override;

 private:
  struct AsyncSend;

  Status CheckRunning() const;
  // Sync send with retries over `prepared` (Java's sendDefaultImpl).
  Result<SendResult> SendDefault(const PreparedMessage& prepared);
  // One attempt at `mq` (Java's sendKernelImpl), sync.
  Result<SendResult> SendKernel(const PreparedMessage& prepared, const MessageQueue& mq,
                                std::chrono::milliseconds timeout);
  // After a send failed on a dead or fenced broker: re-reads the topic's route now.
  void RefreshRouteAfterBrokerFailure(const Status& error, const std::string& topic);
  Result<std::string> BrokerAddress(const MessageQueue& mq);
  void AsyncAttempt(std::unique_ptr<AsyncSend> state);
  // A failed attempt at state->mq: another one when retriable and attempts are left, else
  // the callback.
  void AsyncAttemptFailed(std::unique_ptr<AsyncSend> state, const Status& error);
  // Finished async sends are kept for the next ones, their strings (the body above all)
  // with their capacity: a send is made on the caller's thread and ends on the IO thread,
  // and glibc serves memory freed on another thread through its arena lock
  // (docs/benchmarks.md, "The client's async send made and ended on two threads").
  std::unique_ptr<AsyncSend> TakeAsyncSend();
  void KeepAsyncSend(std::unique_ptr<AsyncSend> state);
  Status EndTransaction(const SendResult& result, LocalTransactionState state,
                        const std::string& remark);

  const ProducerConfig config_;
  std::shared_ptr<ClientInstance> instance_;
  MQFaultStrategy fault_strategy_;
  std::shared_ptr<TransactionListener> transaction_listener_;
  std::mutex lifecycle_mu_;
  std::atomic<bool> running_{false};
  std::mutex async_pool_mu_;
  std::vector<std::unique_ptr<AsyncSend>> async_pool_;  // guarded by async_pool_mu_
};

}  // namespace apogee::client

namespace apogee {

// Producer's pimpl: the engine, shared with async sends still in flight.
class Producer::Impl {
 public:
  explicit Impl(ProducerConfig config)
      : core(std::make_shared<client::ProducerImpl>(std::move(config))) {}
  std::shared_ptr<client::ProducerImpl> core;
};

}  // namespace apogee
