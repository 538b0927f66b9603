// TransactionCheckService: the job that settles forgotten transactions (Java's
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
// The rounds run on the broker Scheduler's blocking lane: a round reads and rewrites half
// messages (store puts that may wait for a flush) and can take long with a large backlog.
//
// Thread-safety: the listener is called from the scheduler's thread only; Start/Shutdown
// from the controller's hooks.
#pragma once

#include <atomic>
#include <cstdint>

#include "base/scheduler.h"
#include "base/status.h"
#include "broker/transaction/transactional_message_service.h"

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

class TransactionCheckService {
 public:
  // All pointers must outlive the service.
  TransactionCheckService(const BrokerConfig* config, TransactionalMessageService* service,
                          TransactionCheckListener* listener);
  ~TransactionCheckService();  // Shutdown()
  TransactionCheckService(const TransactionCheckService&) = delete;
  TransactionCheckService& operator=(const TransactionCheckService&) = delete;

  // Runs CheckOnce every transactionCheckInterval (read again after each round, so a
  // runtime update applies) on `scheduler`, which must outlive Shutdown().
  void Start(Scheduler* scheduler);
  // Cancels the rounds, waiting for one that is running. Idempotent.
  void Shutdown();

  // One round now, on the caller's thread, with the current settings; what the job does
  // each interval. Does nothing on a slave.
  TransactionCheckRoundStats CheckOnce();

 private:
  const BrokerConfig* config_;
  TransactionalMessageService* service_;
  TransactionCheckListener* listener_;
  ScheduledJob job_;  // "TransactionalMessageCheck"
};

}  // namespace apogee::broker
