// BrokerServices: every long-lived service of one broker (Java's BrokerController fields),
// built once by BrokerController in dependency order and handed to the request families
// (processors/*_processors.h), which only build processors from them.
//
// Build order (each part uses only what an earlier one made): client management (consumer
// and producer tables, housekeeping) -> consumer offsets -> long polling (pull executor,
// store) -> delay and timer services (store, delayOffset.json, timerOffset.json) ->
// transactions (store, offsets, producers). Build also publishes the managers other code
// reads through BrokerContext (consumer_offset_manager, consumer_manager, producer_manager).
//
// Start runs after the store started and before the servers accept connections:
// housekeeping scan -> offsets loaded and their periodic flush -> hold service -> delay
// and timer delivery (master only) -> transaction check. Shutdown runs after the servers
// and the executors stopped and before the store closes, in the reverse order: the
// transaction check stops, delayOffset.json and timerOffset.json are written, the hold
// service stops (before the store, as in Java), consumerOffset.json is written (only when
// Start had loaded it), the housekeeping scan stops. A part left null (unit tests build only some) is skipped.
//
// Thread-safety: built, started and shut down on the controller's thread; the services
// are thread-safe themselves.
#pragma once

#include <memory>

#include "base/status.h"
#include "message/host_address.h"

namespace apogee {
class Scheduler;
}  // namespace apogee

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;
class MessageArrivalObservers;
class ConsumerManager;
class ProducerManager;
class ClientHousekeeping;
class ConsumerOffsetManager;
class PullRequestHoldService;
class DelayOffsetTable;
class ScheduleMessageService;
class TimerMessageService;
class TransactionalMessageService;
class DefaultTransactionCheckListener;
class TransactionCheckService;

struct BrokerServices {
  BrokerServices();
  ~BrokerServices();
  BrokerServices(const BrokerServices&) = delete;
  BrokerServices& operator=(const BrokerServices&) = delete;

  // Every part, in the order above. `context` must carry config, store, scheduler, the
  // topic and group managers, broker_addr and executors.pull. Fails only on a bad
  // messageDelayLevel (which the store refuses first).
  Status Build(BrokerContext& context, env::Env* env);
  // The parts, for unit tests that wire only some; Build calls them in this order.
  void BuildClients(BrokerContext& context);
  void BuildOffsets(BrokerContext& context, env::Env* env);
  void BuildLongPolling(const BrokerContext& context);
  Status BuildSchedule(const BrokerContext& context, env::Env* env);
  void BuildTransactions(const BrokerContext& context);

  // The listeners of new messages, in notification order: the hold service (answers
  // parked pulls), then the delay and timer services (their topics only).
  void AddArrivalObservers(MessageArrivalObservers* observers) const;

  // `slave`: delay and timer delivery is the master's job (a slave's delay offsets come
  // from its master). A failure stops start-up with its Status.
  Status Start(Scheduler* scheduler, bool slave);
  // Idempotent; failures to write a file are logged with its name.
  void Shutdown();

  // client/
  std::shared_ptr<ConsumerManager> consumers;
  std::shared_ptr<ProducerManager> producers;
  // Listens to both servers' channels (the ProcessorTable adds it to both).
  std::shared_ptr<ClientHousekeeping> client_housekeeping;
  std::shared_ptr<ConsumerOffsetManager> consumer_offsets;
  int64_t consumer_offset_flush_interval_ms = 0;
  // longpolling/: the one long-polling service (pulls are main-port only).
  std::shared_ptr<PullRequestHoldService> pull_hold;
  // schedule/
  std::unique_ptr<DelayOffsetTable> delay_offsets;
  std::shared_ptr<ScheduleMessageService> schedule;
  std::shared_ptr<TimerMessageService> timer;
  // transaction/: the store host written into transaction records and redriven messages.
  message::HostAddress store_host;
  std::unique_ptr<TransactionalMessageService> transactions;
  std::unique_ptr<DefaultTransactionCheckListener> transaction_check_listener;
  std::unique_ptr<TransactionCheckService> transaction_check;

 private:
  bool offsets_loaded_ = false;  // consumerOffset.json read by Start
  bool shut_down_ = false;
};

}  // namespace apogee::broker
