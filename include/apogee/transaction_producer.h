// TransactionProducer: RocketMQ's transactional messages (Java's TransactionMQProducer).
//
// SendMessageInTransaction sends a half message (invisible to consumers), runs the local
// transaction, then tells the broker COMMIT_MESSAGE (deliver) or ROLLBACK_MESSAGE (drop)
// with END_TRANSACTION. When the answer is UNKNOW (or lost), the broker later asks
// (CHECK_TRANSACTION_STATE) and the listener's CheckLocalTransaction answers.
//
// Thread-safety: as Producer. Listener methods run on the caller's thread
// (ExecuteLocalTransaction) and on the client's callback threads (CheckLocalTransaction).
#pragma once

#include <memory>
#include <string_view>

#include "apogee/message.h"
#include "apogee/producer.h"
#include "apogee/send_result.h"
#include "apogee/status.h"

namespace apogee {

enum class LocalTransactionState { kCommitMessage, kRollbackMessage, kUnknow };

// "COMMIT_MESSAGE", "ROLLBACK_MESSAGE", "UNKNOW" as Java spells them.
std::string_view LocalTransactionStateName(LocalTransactionState state);

class TransactionListener {
 public:
  virtual ~TransactionListener() = default;
  // Runs the local transaction for the half message `msg` (its transaction_id() is set).
  virtual LocalTransactionState ExecuteLocalTransaction(const Message& msg, void* arg) = 0;
  // The broker asks for the state of a half message left undecided.
  virtual LocalTransactionState CheckLocalTransaction(const MessageExt& msg) = 0;
};

struct TransactionSendResult : SendResult {
  LocalTransactionState local_transaction_state = LocalTransactionState::kUnknow;
};

class TransactionProducer {
 public:
  TransactionProducer(ProducerConfig config, std::shared_ptr<TransactionListener> listener);
  ~TransactionProducer();  // Shutdown()
  TransactionProducer(const TransactionProducer&) = delete;
  TransactionProducer& operator=(const TransactionProducer&) = delete;

  // InvalidArgument without a listener; otherwise as Producer::Start.
  Status Start();
  void Shutdown();

  // A delay level on `msg` is ignored (half messages cannot be delayed, as Java).
  // The result carries the local state reported to the broker; a half message the broker
  // did not store with SEND_OK is rolled back and the local transaction is not run.
  Result<TransactionSendResult> SendMessageInTransaction(const Message& msg, void* arg);

  // The underlying producer, for plain sends in the same group.
  Producer& producer() { return producer_; }

 private:
  Producer producer_;
};

}  // namespace apogee
