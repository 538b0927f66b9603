// BrokerController: wires one broker together (Java's BrokerController): the message store,
// the topic and subscription-group managers, the executors per request family, the remoting
// servers on listenPort and on the fast port listenPort - 2, the processor families
// (clients, send/pull, admin) and the NameServer registration service.
//
// Lifecycle: construct -> Initialize() (open and recover the store, load config/*.json,
// create executors and servers, build the statistics and BrokerServices
// (broker_services.h), register processors) -> Start() (store, statistics, BrokerServices,
// the exporter's start hook, servers, first registration, registration and persist jobs)
// -> Shutdown(): stop registering, stop accepting (servers down), drain executors,
// BrokerServices shut down (delay, timer and consumer offsets written), persist topics and
// groups, flush and close the store, UNREGISTER_BROKER from every NameServer. Shutdown is
// idempotent and also run by the destructor.
//
// Threads: the servers' IO threads (one pool shared by both ports), one pool per family
// (BrokerExecutors, threads started on demand), the store's services, and the two lanes of a
// Scheduler (base/scheduler.h) that run every periodic job: registration (REGISTER_BROKER
// every registerNameServerPeriod, or at once after a topic or permission change), config
// persistence retries, the store's ConsumeQueue flush and retention, statistics, client
// housekeeping, consumer offset flush, transaction check, slave metadata sync.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/scheduler.h"
#include "base/status.h"
#include "broker/broker_context.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

class BrokerConfig;
class FailoverCoordinator;
class ProcessorTable;

class BrokerController {
 public:
  // `config`, `env` and `clock` must outlive the controller. The periodic jobs run on
  // `scheduler` when given (mqbroker --with-namesrv shares one with its NameServer; it
  // must outlive the controller), else on a scheduler of the controller's own.
  explicit BrokerController(BrokerConfig* config, env::Env* env = nullptr,
                            const Clock* clock = Clock::Real(), Scheduler* scheduler = nullptr);
  ~BrokerController();
  BrokerController(const BrokerController&) = delete;
  BrokerController& operator=(const BrokerController&) = delete;

  // Errors name the step and the file or address that failed.
  Status Initialize();
  Status Start();
  void Shutdown();

  // The bound ports; 0 before Start().
  uint16_t port() const;
  uint16_t fast_port() const;

  BrokerContext& context();
  // What the main and the fast port serve (processor_table.h); filled by Initialize().
  const ProcessorTable& processor_table() const;

  // Failover (etcdEndpoints): called from the coordinator's thread when this broker must
  // restart in a new role; mqbroker shuts down and execs itself. Set before Start.
  void SetRestartHandler(std::function<void(const std::string& reason)> handler);
  // Makes an Initialize that waits for etcd give up (from a signal thread).
  void RequestStop();
  // Null without etcdEndpoints.
  FailoverCoordinator* failover();

  // Registers with every NameServer now and waits for the answers; OK when at least one
  // NameServer accepted (or none is configured). Errors list every NameServer's failure.
  Status RegisterBrokerAll();

  // From the last successful registration (filled only for a slave whose master is
  // registered): the master's address and HA address, kept for the HA service.
  std::optional<std::string> master_addr() const;
  std::optional<std::string> master_ha_server_addr() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace apogee::broker
