// TransactionCheckService: the thread that settles forgotten transactions (Java's
// TransactionalMessageCheckService): every transactionCheckInterval it runs one
// TransactionalMessageService::Check round with transactionTimeOut, transactionCheckMax
// and fileReservedTime, on a master only (a slave's half queue is a replica).
//
// DefaultTransactionCheckListener (Java's DefaultTransactionalMessageCheckListener) is what
// the round does with a message: it sends CHECK_TRANSACTION_STATE one-way to a live channel
// of the message's producer group (PGROUP), body = the message with its real topic and
// queue; a message checked too often goes to TRANS_CHECK_MAX_TIME_TOPIC (created on demand,
// 1 queue) with a log line.
//
// Thread-safety: the listener is called from the service thread only; Start/Shutdown from
// the controller's hooks.
#pragma once

#include <atomic>
#include <cstdint>

#include "base/service_thread.h"
#include "base/status.h"
#include "broker/transactional_message_service.h"

namespace apogee::broker {

class BrokerConfig;
class ProducerManager;
class TopicConfigManager;

class DefaultTransactionCheckListener : public TransactionCheckListener {
 public:
  // All pointers must outlive the listener.
  DefaultTransactionCheckListener(TransactionalMessageService* service, ProducerManager* producers,
                                  TopicConfigManager* topics);

  void ResolveHalfMessage(const message::MessageExt& half) override;
  Status ResolveDiscardMessage(const message::MessageExt& half) override;

  // The CHECK_TRANSACTION_STATE body for a half message: the record with the real topic and
  // queue (Java's MessageDecoder.encode, always the V1 layout). InvalidArgument when the
  // half message has no REAL_TOPIC / REAL_QID.
  static Result<std::string> EncodeCheckBody(const message::MessageExt& half);

  int64_t checks_sent() const { return checks_sent_.load(); }
  int64_t checks_without_producer() const { return checks_without_producer_.load(); }

 private:
  TransactionalMessageService* service_;
  ProducerManager* producers_;
  TopicConfigManager* topics_;
  std::atomic<int64_t> checks_sent_{0};
  std::atomic<int64_t> checks_without_producer_{0};
};

class TransactionCheckService : public ServiceThread {
 public:
  // All pointers must outlive the service.
  TransactionCheckService(const BrokerConfig* config, TransactionalMessageService* service,
                          TransactionCheckListener* listener);
  ~TransactionCheckService() override;

  // One round now, on the caller's thread, with the current settings; what Run does each
  // interval. Does nothing on a slave.
  TransactionCheckRoundStats CheckOnce();

 protected:
  void Run() override;

 private:
  const BrokerConfig* config_;
  TransactionalMessageService* service_;
  TransactionCheckListener* listener_;
};

}  // namespace apogee::broker
