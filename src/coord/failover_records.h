// The records of a broker set's failover state, as stored in etcd and in the broker's
// local state file (docs/failover.md), with their JSON codecs, and the truncation rule of a
// replica that follows a new master.
//
// etcd keys under /apogee/failover/<brokerClusterName>/<brokerName>/:
//   master          MasterRecord, under the master's lease (gone when the lease expires)
//   epoch           EpochRecord: the current epoch, the master role, the epoch history
//   syncStateSet    SyncStateSet: the in-sync replicas, written by the master (CAS on epoch)
//   replicas/<addr> ReplicaRecord of each live replica, under that replica's own lease
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "coord/etcd_client.h"

namespace apogee::coord {

// Epoch `epoch` began at CommitLog offset `start_offset`.
struct EpochEntry {
  int64_t epoch = 0;
  int64_t start_offset = 0;
  bool operator==(const EpochEntry&) const = default;
};

struct MasterRecord {
  std::string addr;     // remoting address (brokerId 0 in the route)
  std::string ha_addr;  // HA address the replicas connect to
  int64_t epoch = 0;
  // The brokerId the master had as a replica: the id a demoted old master takes over, so
  // replica ids stay unique without configuration.
  int64_t freed_broker_id = 0;
};

struct EpochRecord {
  int64_t epoch = 0;
  std::string master_role = "SYNC_MASTER";  // the role every elected master takes
  std::vector<EpochEntry> history;          // ascending epochs
};

struct SyncStateSet {
  int64_t epoch = 0;
  std::vector<std::string> members;  // broker addresses, the master first
};

struct ReplicaRecord {
  std::string addr;
  int64_t broker_id = 0;
  int64_t offset = 0;            // CommitLog max offset when written
  int64_t following_epoch = 0;   // the epoch of the master it replicates from (0: none)
  int64_t seen_gone_epoch = -1;  // it saw this epoch's master record gone; offset is final
};

// The broker's own copy (<storePathRootDir>/config/failover.json).
struct LocalFailoverState {
  std::vector<EpochEntry> history;  // the epochs this broker's CommitLog holds
  int64_t broker_id = 0;            // its replica id
  int64_t lease_id = 0;             // the master lease it holds (kept across a restart)
  // What returning to a newer master cut from this broker's CommitLog, summed over its
  // life (the divergence counters of docs/failover.md; a restart in place keeps them).
  int64_t divergent_bytes_total = 0;
  int64_t divergent_messages_total = 0;
  int64_t divergence_count = 0;  // how many times a cut happened
};

// A broker set's records as one read of its prefix found them (the coordinator's view, and
// what mqadmin getSyncStateSet / electMaster show and check).
struct FailoverSetView {
  std::optional<MasterRecord> master;
  int64_t master_lease = 0;
  int64_t master_rev = 0;
  std::optional<EpochRecord> epoch;
  int64_t epoch_rev = 0;
  std::optional<SyncStateSet> sync;
  std::optional<std::string> preferred;  // electMaster's target
  std::map<std::string, ReplicaRecord> replicas;  // live replicas (each under its own lease)
};

// Decodes the key-values of one GetPrefix(`prefix`). A bad master / epoch / syncStateSet
// record is an error naming its key; a bad replica record is skipped (it expires with its
// owner's lease).
Result<FailoverSetView> DecodeFailoverSet(std::string_view prefix, const std::vector<KeyValue>& kvs);

// "/apogee/failover/<cluster>/<brokerName>/": where a broker set's records live.
std::string FailoverKeyPrefix(std::string_view cluster, std::string_view broker_name);

std::string EncodeMasterRecord(const MasterRecord& r);
Result<MasterRecord> DecodeMasterRecord(std::string_view json);
std::string EncodeEpochRecord(const EpochRecord& r);
Result<EpochRecord> DecodeEpochRecord(std::string_view json);
std::string EncodeSyncStateSet(const SyncStateSet& r);
Result<SyncStateSet> DecodeSyncStateSet(std::string_view json);
std::string EncodeReplicaRecord(const ReplicaRecord& r);
Result<ReplicaRecord> DecodeReplicaRecord(std::string_view json);
std::string EncodeLocalState(const LocalFailoverState& s);
Result<LocalFailoverState> DecodeLocalState(std::string_view json);

// Where a replica whose CommitLog ends at `local_max` and holds the epochs `local` must cut
// its log to follow a master with epoch history `leader`: the end of the newest epoch both
// histories hold with the same start offset, bounded by where the leader's history says
// that epoch ended. Returns `local_max` when nothing has to go (also when `local` is empty:
// a replica without history holds a prefix of its master's log, which the HA resume check
// verifies byte by byte).
int64_t DivergencePoint(const std::vector<EpochEntry>& local, int64_t local_max,
                        const std::vector<EpochEntry>& leader);

// The epochs of `leader` a log ending at `max_offset` holds (entries starting at or before it).
std::vector<EpochEntry> HistoryUpTo(const std::vector<EpochEntry>& leader, int64_t max_offset);

}  // namespace apogee::coord
