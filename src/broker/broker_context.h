// BrokerContext: what the processors of the broker may reach (Java's BrokerController
// getters, narrowed). BrokerController fills it, builds the statistics and the services
// (broker_services.h, which publish the shared managers here), hands it to
// CreateClientProcessors, CreateSendPullProcessors, CreateAdminProcessors,
// CreateScheduleProcessors and CreateTransactionProcessors (in that order), applies the
// one ProcessorTable (processors/processor_table.h) to both servers, then starts them.
//
// Ownership: the controller owns the context, everything its plain pointers point to and
// the services; the shared_ptrs here share the services' managers.
//
// Thread-safety: the fields are set before any server starts and are read-only
// afterwards; the objects they point to are thread-safe themselves. Hooks and arrival
// observers may only be added during set-up.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "broker/message_arrival_observers.h"

namespace apogee {
class Scheduler;  // base/scheduler.h
}  // namespace apogee

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::metrics {
class PromWriter;
}  // namespace apogee::metrics

namespace apogee::remoting {
class Executor;
}  // namespace apogee::remoting

namespace apogee::broker {

class BrokerConfig;
class FailoverCoordinator;
class TopicConfigManager;
class SubscriptionGroupManager;
class ConsumerOffsetManager;  // sendpull: broker/client/consumer_offset_manager.h
class ConsumerManager;        // clients: broker/client/consumer_manager.h
class ProducerManager;        // clients: broker/client/producer_manager.h
class BrokerStatsManager;     // broker/stats/broker_stats_manager.h

// One bounded pool per request family, sized from BrokerConfig
// (sendMessageThreadPoolNums, ...), as Java's BrokerController.registerProcessor uses.
struct BrokerExecutors {
  std::shared_ptr<remoting::Executor> send;             // SEND_MESSAGE*, CONSUMER_SEND_MSG_BACK
  std::shared_ptr<remoting::Executor> pull;             // PULL_MESSAGE
  std::shared_ptr<remoting::Executor> query_message;    // QUERY_MESSAGE, VIEW_MESSAGE_BY_ID
  std::shared_ptr<remoting::Executor> admin;            // default processor, admin codes
  std::shared_ptr<remoting::Executor> client_manage;    // UNREGISTER_CLIENT, CHECK_CLIENT_CONFIG
  std::shared_ptr<remoting::Executor> heartbeat;        // HEART_BEAT
  std::shared_ptr<remoting::Executor> consumer_manage;  // offsets, consumer list, locks
};

struct BrokerContext {
  // ---- owned by brokercore; never null once the context is handed out ----
  BrokerConfig* config = nullptr;  // BrokerSettings incl. store::StoreConfig (broker_config.h)
  store::MessageStore* store = nullptr;
  TopicConfigManager* topic_config_manager = nullptr;
  SubscriptionGroupManager* subscription_group_manager = nullptr;
  // The broker's periodic jobs (housekeeping, offset flush, statistics, transaction check):
  // its lanes are the only threads they get. BrokerServices schedules them in Start and
  // cancels them in Shutdown.
  Scheduler* scheduler = nullptr;

  // ---- built by BrokerServices::Build (null until then) ----
  std::shared_ptr<ConsumerOffsetManager> consumer_offset_manager;
  std::shared_ptr<ConsumerManager> consumer_manager;
  std::shared_ptr<ProducerManager> producer_manager;
  // Runtime statistics: created once by the controller before the families, started and
  // stopped by it. Null in unit tests that count nothing (the recorders are null-safe).
  std::shared_ptr<BrokerStatsManager> stats;

  // "brokerIP1:listenPort": the address registered with the NameServers and the store
  // host inside offset msgIds (docs/protocol/store_ha.md §6.2).
  std::string broker_addr;
  // "brokerIP2:haListenPort", registered as haServerAddr.
  std::string ha_server_addr;

  BrokerExecutors executors;

  // Who is told about new messages (message_arrival_observers.h): the controller forwards
  // the store's arrivals here; the long-polling hold service, then the delay and timer
  // services listen, in that order.
  MessageArrivalObservers arrival_observers;

  // Extra Prometheus families for /metrics (HA lag, recovery, ...), added by the parts
  // that own the data during set-up; called on the metrics HTTP thread.
  std::vector<std::function<void(metrics::PromWriter&)>> metrics_sources;

  // Asks the registration service to REGISTER_BROKER with every NameServer now (after a
  // topic or permission change) instead of at the next 30 s tick. Never blocks; calls
  // coalesce. Set by the controller; a no-op in unit tests that leave it empty.
  std::function<void()> register_broker_all_now;
  void RequestRegisterBrokerAll() const {
    if (register_broker_all_now) register_broker_all_now();
  }

  // Failover fencing (etcdEndpoints; docs/failover.md): when set, a send is acknowledged
  // only while it returns true; a stored send is otherwise answered SERVICE_NOT_AVAILABLE,
  // which producers retry, so two masters never acknowledge in one epoch. Set by the
  // controller; empty without etcd.
  std::function<bool()> may_acknowledge;
  bool MayAcknowledge() const { return !may_acknowledge || may_acknowledge(); }
  // The failover coordinator (etcdEndpoints), for runtime info and GET_BROKER_EPOCH_CACHE;
  // null without etcd.
  const FailoverCoordinator* failover = nullptr;

  // Lifecycle of optional parts outside BrokerServices (today only the Prometheus
  // exporter, stats/broker_metrics.h). Start hooks run after BrokerServices::Start,
  // before the servers accept connections, in the order added; a failing hook stops
  // start-up with its Status. Shutdown hooks run after the servers stopped accepting and
  // before BrokerServices::Shutdown, in reverse order.
  void AddStartHook(std::function<Status()> hook) { start_hooks.push_back(std::move(hook)); }
  void AddShutdownHook(std::function<void()> hook) { shutdown_hooks.push_back(std::move(hook)); }
  std::vector<std::function<Status()>> start_hooks;
  std::vector<std::function<void()>> shutdown_hooks;
};

}  // namespace apogee::broker
