// FailoverCoordinator: automatic failover of one broker set, coordinated by etcd
// (etcdEndpoints; docs/failover.md). Off unless etcdEndpoints is set: then the etcd records
// (failover_records.h) decide who is master, and brokerRole / brokerId / haMasterAddress of
// broker.conf are only the starting point.
//
// A role change is a restart in place: the coordinator asks the process to shut down
// cleanly and exec itself again (mqbroker does it), and PlanStartup() decides the new role
// from etcd before anything opens. So every component starts in exactly one role, as it
// always does, and no switching code runs inside the store, HA or the processors.
//
// State machine (one thread, "FailoverCoordinator"):
//   replica  renews its own lease, publishes its ReplicaRecord every renewal; follows the
//            master record's HA address; restarts when the record names a new master or
//            epoch. When the record is gone (lease expired) it marks its offset final
//            (seenGoneEpoch) and, if it is in the epoch's SyncStateSet and has the highest
//            final offset of the in-sync replicas, takes the record with a transaction that
//            also bumps the epoch, appends the epoch's start offset to the history and
//            writes a new SyncStateSet; then restarts as master.
//   master   renews its lease every etcdRenewIntervalMs; may acknowledge sends only until
//            (send time of the last successful renewal + TTL - margin), so it is fenced
//            before etcd can expire the lease; restarts (as a replica) once the record is
//            no longer its own. Writes the SyncStateSet (replicas within haMaxGapNotInSync)
//            with compare-and-swap on the epoch record.
//
// Thread-safety: CanAcknowledge and the getters may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "coord/failover_records.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env
namespace apogee::store {
class MessageStore;
}  // namespace apogee::store
namespace apogee::coord {
class EtcdClient;
}  // namespace apogee::coord

namespace apogee::broker {

// The records live in coord (mqadmin reads them too); the coordinator speaks of them often.
using coord::EpochEntry;
using coord::EpochRecord;
using coord::LocalFailoverState;
using coord::MasterRecord;
using coord::ReplicaRecord;
using coord::SyncStateSet;

class ConfigFile;
struct BrokerSettings;

// What PlanStartup decided: the broker.conf overrides for this run.
struct StartupPlan {
  std::string broker_role;  // SYNC_MASTER / ASYNC_MASTER / SLAVE
  int64_t broker_id = 0;
  std::string ha_master_address;  // replica following a master; empty otherwise
  int64_t epoch = 0;              // the epoch being served or followed (0: none yet)
  std::string reason;             // for the log
};

// What mqadmin getBrokerEpoch / getSyncStateSet show.
struct FailoverSnapshot {
  std::string role;  // "master", "replica"
  int64_t epoch = 0;
  std::string master_addr;
  std::vector<EpochEntry> history;
  SyncStateSet sync_state_set;
  int64_t divergent_bytes = 0;     // cut from this broker's CommitLog at its last start
  int64_t divergent_messages = 0;  // the ConsumeQueue entries cut then
  int64_t divergent_bytes_total = 0;     // summed over the broker's life (failover.json)
  int64_t divergent_messages_total = 0;
  int64_t divergence_count = 0;
  std::vector<EpochEntry> local_history;  // the epochs this broker's CommitLog holds
  int64_t broker_id = 0;                  // 0 as master, its replica id otherwise
  bool fenced = false;
};

class FailoverCoordinator {
 public:
  // `settings` must name etcdEndpoints. Nothing is contacted yet.
  static Result<std::unique_ptr<FailoverCoordinator>> Create(const BrokerSettings& settings,
                                                             env::Env* env);
  ~FailoverCoordinator();

  // Blocks until etcd answers and a role can be chosen (logging every few seconds while it
  // waits). Returns the overrides; Aborted when `stop` becomes true.
  Result<StartupPlan> PlanStartup(const std::atomic<bool>& stop);
  // After the store has been opened and recovered, before Start: cuts a replica's CommitLog
  // back to the last offset it shares with its new master's epoch history.
  Status AfterStoreOpened(store::MessageStore* store);

  // Starts the coordination thread. `restart` is called (once, from that thread) when this
  // broker must restart in its new role; `acknowledging` each time a master becomes able
  // to acknowledge sends (register with the NameServers then).
  void Start(store::MessageStore* store, std::function<void(const std::string&)> restart,
             std::function<void()> acknowledging);
  // Stops the thread. A master that is not restarting into mastership revokes its lease so
  // a replica takes over at once.
  void Shutdown();

  // Master: true while a send may be acknowledged (the lease is surely alive at etcd).
  bool CanAcknowledge() const;
  FailoverSnapshot Snapshot() const;

 private:
  class Impl;
  explicit FailoverCoordinator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace apogee::broker
