// Implements include/apogee/transaction_producer.h over client::ProducerImpl.
#include "apogee/transaction_producer.h"

#include "client/producer_impl.h"

namespace apogee {

std::string_view LocalTransactionStateName(LocalTransactionState state) {
  switch (state) {
    case LocalTransactionState::kCommitMessage:
      return "COMMIT_MESSAGE";
    case LocalTransactionState::kRollbackMessage:
      return "ROLLBACK_MESSAGE";
    case LocalTransactionState::kUnknow:
      return "UNKNOW";
  }
  return "UNKNOW";
}

TransactionProducer::TransactionProducer(ProducerConfig config,
                                         std::shared_ptr<TransactionListener> listener)
    : producer_(std::move(config)) {
  producer_.impl_->core->set_transaction_listener(std::move(listener));
}

TransactionProducer::~TransactionProducer() { Shutdown(); }

Status TransactionProducer::Start() {
  if (!producer_.impl_->core->transaction_listener()) {
    return Status::InvalidArgument("TransactionListener is null");
  }
  return producer_.Start();
}

void TransactionProducer::Shutdown() { producer_.Shutdown(); }

Result<TransactionSendResult> TransactionProducer::SendMessageInTransaction(const Message& msg,
                                                                           void* arg) {
  return producer_.impl_->core->SendMessageInTransaction(msg, arg);
}

}  // namespace apogee
