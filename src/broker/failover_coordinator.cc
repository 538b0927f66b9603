#include "broker/failover_coordinator.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <thread>
#include <tuple>
#include <utility>

#include "base/clock.h"
#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/config_file.h"
#include "coord/etcd_client.h"
#include "store/message_store.h"

namespace apogee::broker {
namespace {

using coord::DecodeLocalState;
using coord::DivergencePoint;
using coord::EncodeEpochRecord;
using coord::EncodeLocalState;
using coord::EncodeMasterRecord;
using coord::EncodeReplicaRecord;
using coord::EncodeSyncStateSet;
using coord::FailoverKeyPrefix;
using coord::HistoryUpTo;

std::shared_ptr<spdlog::logger> Log() { return GetLogger("failover"); }

constexpr int64_t kReplicaPollMs = 300;
constexpr int64_t kStartupRetryMs = 500;
// How long a candidate waits for the other in-sync replicas to report their final offsets
// after it saw the master record gone (a dead replica never reports).
constexpr int64_t kCandidateWaitMs = 2000;
constexpr std::chrono::milliseconds kEtcdTimeout{800};
// The lease an elected replica takes the record with outlives its restart into a master by
// this much; the new master swaps it for a lease of the normal TTL first thing.
constexpr int64_t kHandoverExtraSeconds = 10;
// electMaster: how long a fenced master waits for the chosen replica to hold everything it
// stored before it gives the switch up and acknowledges again.
constexpr int64_t kHandoverCatchUpMs = 5000;

bool IsMasterRole(const std::string& role) { return role == "SYNC_MASTER" || role == "ASYNC_MASTER"; }

}  // namespace

class FailoverCoordinator::Impl {
 public:
  Impl(const BrokerSettings& s, env::Env* env, std::unique_ptr<coord::EtcdClient> etcd)
      : etcd_(std::move(etcd)),
        prefix_(FailoverKeyPrefix(s.broker_cluster_name, s.broker_name)),
        self_addr_(s.BrokerAddr()),
        self_ha_addr_(s.HaServerAddr()),
        configured_role_(s.store.broker_role),
        configured_id_(s.broker_id),
        ttl_s_(s.etcd_lease_ttl_seconds),
        renew_ms_(s.etcd_renew_interval_ms),
        max_gap_(s.ha_max_gap_not_in_sync),
        state_file_(env, s.ConfigDir() + "/failover.json") {}

  ~Impl() { Shutdown(); }

  std::string Key(std::string_view name) const { return prefix_ + std::string(name); }

  Status LoadLocal() {
    Result<bool> loaded = state_file_.Load([this](std::string_view content) -> Status {
      APOGEE_ASSIGN_OR_RETURN(local_, DecodeLocalState(content));
      return Status::OK();
    });
    return loaded.status();
  }
  Status SaveLocal() { return state_file_.Persist(EncodeLocalState(local_)); }

  // The set's records as etcd has them now.
  using View = coord::FailoverSetView;
  Result<View> Read() {
    APOGEE_ASSIGN_OR_RETURN(coord::RangeResult all, etcd_->GetPrefix(prefix_));
    APOGEE_ASSIGN_OR_RETURN(View v, coord::DecodeFailoverSet(prefix_, all.kvs));
    replicas_ = v.replicas;
    return v;
  }

  // A configured brokerId > 0 is this broker's replica id (the operator keeps them unique).
  // The configured master (brokerId 0) takes the id the current master had as a replica,
  // or, while there is no master, one above every live replica's.
  int64_t ReplicaIdFor(const View& v) const {
    if (configured_id_ > 0) return configured_id_;
    if (v.master && v.master->freed_broker_id > 0) return v.master->freed_broker_id;
    int64_t max_id = 0;
    for (const auto& [addr, r] : replicas_) {
      if (addr != self_addr_) max_id = std::max(max_id, r.broker_id);
    }
    return max_id + 1;
  }

  Result<StartupPlan> PlanStartup(const std::atomic<bool>& stop) {
    APOGEE_RETURN_IF_ERROR(LoadLocal());
    int64_t last_log_ms = 0;
    while (!stop.load()) {
      Result<View> read = Read();
      if (read.ok()) {
        const View& v = *read;
        StartupPlan plan;
        if (v.master && v.master->addr == self_addr_) {
          if (local_.lease_id != 0 && v.master_lease == local_.lease_id && v.epoch) {
            plan.broker_role = IsMasterRole(v.epoch->master_role) ? v.epoch->master_role
                                                                   : "SYNC_MASTER";
            plan.broker_id = 0;
            plan.epoch = v.master->epoch;
            plan.reason = fmt::format("master of epoch {} (lease {:x})", plan.epoch, local_.lease_id);
            std::lock_guard<std::mutex> lock(mu_);
            role_ = Role::kMaster;
            epoch_ = plan.epoch;
            epoch_rev_ = v.epoch_rev;
            history_ = v.epoch->history;
            master_addr_ = self_addr_;
            master_record_ = *v.master;
            master_rev_ = v.master_rev;
            return plan;
          }
          // A record of an earlier life of this broker whose lease it no longer holds:
          // wait for etcd to expire it.
          if (SteadyMillis() - last_log_ms > 3000) {
            Log()->info("the master record names this broker under lease {:x}, which it does "
                        "not hold; waiting for it to expire",
                        v.master_lease);
            last_log_ms = SteadyMillis();
          }
        } else {
          local_.broker_id = ReplicaIdFor(v);
          local_.lease_id = 0;
          APOGEE_RETURN_IF_ERROR(SaveLocal());
          plan.broker_role = "SLAVE";
          plan.broker_id = local_.broker_id;
          std::lock_guard<std::mutex> lock(mu_);
          role_ = Role::kReplica;
          if (v.master && v.epoch) {
            plan.ha_master_address = v.master->ha_addr;
            plan.epoch = v.master->epoch;
            plan.reason = fmt::format("replica {} of {} (epoch {})", plan.broker_id,
                                      v.master->addr, plan.epoch);
            following_epoch_ = v.master->epoch;
            epoch_ = v.master->epoch;
            master_addr_ = v.master->addr;
            history_ = v.epoch->history;
          } else {
            plan.reason = fmt::format("replica {} without a master yet (epoch {})",
                                      plan.broker_id, v.epoch ? v.epoch->epoch : 0);
            following_epoch_ = 0;
            epoch_ = v.epoch ? v.epoch->epoch : 0;
            if (v.epoch) history_ = v.epoch->history;
          }
          return plan;
        }
      } else if (SteadyMillis() - last_log_ms > 3000) {
        Log()->warn("waiting for etcd before choosing a role: {}", read.status().ToString());
        last_log_ms = SteadyMillis();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(kStartupRetryMs));
    }
    return Status::Aborted("stopped while waiting for etcd");
  }

  Status AfterStoreOpened(store::MessageStore* store) {
    std::lock_guard<std::mutex> lock(mu_);
    if (role_ == Role::kMaster) {
      // The history's last entry is this epoch; the log holds everything before it.
      local_.history = history_;
      return SaveLocal();
    }
    if (following_epoch_ == 0) return Status::OK();
    const int64_t max = store->MaxPhyOffset();
    const int64_t keep = DivergencePoint(local_.history, max, history_);
    if (keep < max) {
      Log()->warn("divergence: this broker's CommitLog holds [{}, {}) that the master of epoch "
                  "{} does not have (local epochs {}, the set's {}); cutting it (never "
                  "acknowledged under SYNC_MASTER)",
                  keep, max, following_epoch_, HistoryText(local_.history),
                  HistoryText(history_));
      int64_t messages = 0;
      APOGEE_ASSIGN_OR_RETURN(int64_t cut, store->TruncateTo(keep, &messages));
      divergent_bytes_ = cut;
      divergent_messages_ = messages;
      local_.divergent_bytes_total += cut;
      local_.divergent_messages_total += messages;
      local_.divergence_count++;
      Log()->warn("divergence: cut {} bytes ({} messages) from CommitLog offset {}; this broker "
                  "has now cut {} bytes ({} messages) in {} divergence(s)",
                  cut, messages, keep, local_.divergent_bytes_total,
                  local_.divergent_messages_total, local_.divergence_count);
    }
    local_.history = HistoryUpTo(history_, store->MaxPhyOffset());
    return SaveLocal();
  }

  static std::string HistoryText(const std::vector<EpochEntry>& h) {
    std::string out = "[";
    for (const EpochEntry& e : h) out += fmt::format("{}{}@{}", out.size() > 1 ? " " : "", e.epoch, e.start_offset);
    return out + "]";
  }

  void Start(store::MessageStore* store, std::function<void(const std::string&)> restart,
             std::function<void()> acknowledging) {
    store_ = store;
    restart_ = std::move(restart);
    acknowledging_ = std::move(acknowledging);
    thread_ = std::thread([this] { Run(); });
  }

  void Shutdown() {
    {
      std::lock_guard<std::mutex> lock(wait_mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    wait_cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    std::lock_guard<std::mutex> lock(mu_);
    if (role_ == Role::kMaster && !restarting_as_master_ && local_.lease_id != 0) {
      // A clean stop: hand over at once instead of after the TTL.
      fenced_.store(true);
      Status s = etcd_->LeaseRevoke(local_.lease_id);
      Log()->info("master lease {:x} revoked at shutdown: {}", local_.lease_id, s.ToString());
      local_.lease_id = 0;
      (void)SaveLocal();
    } else if (role_ == Role::kReplica && replica_lease_ != 0) {
      (void)etcd_->LeaseRevoke(replica_lease_);
    }
  }

  bool CanAcknowledge() const {
    if (role_ != Role::kMaster || fenced_.load()) return false;
    return SteadyMillis() < ack_deadline_ms_.load();
  }

  FailoverSnapshot Snapshot() const {
    std::lock_guard<std::mutex> lock(mu_);
    FailoverSnapshot s;
    s.role = role_ == Role::kMaster ? "master" : "replica";
    s.epoch = epoch_;
    s.master_addr = master_addr_;
    s.history = history_;
    s.sync_state_set = sync_;
    s.divergent_bytes = divergent_bytes_;
    s.divergent_messages = divergent_messages_;
    s.divergent_bytes_total = local_.divergent_bytes_total;
    s.divergent_messages_total = local_.divergent_messages_total;
    s.divergence_count = local_.divergence_count;
    s.local_history = local_.history;
    s.broker_id = role_ == Role::kMaster ? 0 : local_.broker_id;
    s.fenced = role_ == Role::kMaster && !CanAcknowledge();
    return s;
  }

 private:
  enum class Role { kMaster, kReplica };

  void Wake() { wait_cv_.notify_all(); }
  // False when stopping.
  bool Sleep(int64_t ms) {
    std::unique_lock<std::mutex> lock(wait_mu_);
    wait_cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stopping_; });
    return !stopping_;
  }
  bool stopping() {
    std::lock_guard<std::mutex> lock(wait_mu_);
    return stopping_;
  }

  void RequestRestart(const std::string& why, bool as_master = false) {
    Log()->warn("restarting in a new role: {}", why);
    {
      std::lock_guard<std::mutex> lock(mu_);
      restarting_as_master_ = as_master;
    }
    if (restart_) restart_(why);
    restart_ = nullptr;
  }

  void Run() {
    const bool master = role_ == Role::kMaster;
    while (!stopping()) {
      const bool restart_requested = master ? MasterStep() : ReplicaStep();
      if (restart_requested) break;
      if (!Sleep(master ? renew_ms_ : kReplicaPollMs)) break;
    }
  }

  // ---- master ----
  // Returns true when a restart was requested.
  // Replaces the lease the record was taken with by one of the normal TTL.
  // Returns false to retry later; requests a restart when the record is no longer ours.
  bool SwapLease(bool* restart) {
    Result<int64_t> lease = etcd_->LeaseGrant(ttl_s_);
    if (!lease.ok()) return false;
    Result<coord::TxnResult> txn = etcd_->Txn(
        {coord::Compare::ModRevision(Key("master"), master_rev_)},
        {coord::TxnOp::Put(Key("master"), EncodeMasterRecord(master_record_), *lease)});
    if (!txn.ok()) {
      (void)etcd_->LeaseRevoke(*lease);
      return false;
    }
    if (!txn->succeeded) {
      (void)etcd_->LeaseRevoke(*lease);
      fenced_.store(true);
      RequestRestart("the master record changed before this master took it over");
      *restart = true;
      return false;
    }
    const int64_t old = local_.lease_id;
    {
      std::lock_guard<std::mutex> lock(mu_);
      local_.lease_id = *lease;
    }
    Status saved = SaveLocal();
    if (!saved.ok()) Log()->error("failover.json: {}", saved.ToString());
    (void)etcd_->LeaseRevoke(old);
    Log()->info("master of epoch {} holds lease {:x} (TTL {} s)", epoch_, *lease, ttl_s_);
    return true;
  }

  bool MasterStep() {
    if (!lease_swapped_) {
      bool restart = false;
      lease_swapped_ = SwapLease(&restart);
      if (restart) return true;
      if (!lease_swapped_) return false;
    }
    const int64_t sent_at = SteadyMillis();
    Result<int64_t> ttl = etcd_->LeaseKeepAlive(local_.lease_id);
    if (ttl.ok() && *ttl > 0) {
      // etcd restarts the TTL when it receives the keep-alive, after `sent_at`; a margin
      // covers the two clocks' rates and the scheduling of this thread.
      const int64_t margin = std::max<int64_t>(500, *ttl * 1000 / 6);
      const bool was_acknowledging = CanAcknowledge();
      ack_deadline_ms_.store(sent_at + *ttl * 1000 - margin);
      // Register (as brokerId 0) only once sends can be acknowledged.
      if (!was_acknowledging && acknowledging_) acknowledging_();
    } else if (ttl.ok()) {
      fenced_.store(true);
      RequestRestart(fmt::format("the master lease {:x} of epoch {} expired", local_.lease_id, epoch_));
      return true;
    } else {
      if (!CanAcknowledge() && !fenced_logged_) {
        Log()->error("fenced: the master lease could not be renewed ({}); sends are refused "
                     "until etcd answers",
                     ttl.status().ToString());
        fenced_logged_ = true;
      }
      return false;
    }
    if (fenced_logged_) {
      Log()->info("the master lease is renewed again; acknowledging sends");
      fenced_logged_ = false;
    }
    Result<View> read = Read();
    if (!read.ok()) return false;
    if (!read->master || read->master->addr != self_addr_ || read->master_lease != local_.lease_id) {
      fenced_.store(true);
      RequestRestart("the master record is no longer this broker's");
      return true;
    }
    UpdateSyncStateSet(*read);
    if (read->preferred && *read->preferred != self_addr_) return HandOver(*read);
    if (handover_since_ms_ != 0) EndHandOver("the electMaster request was withdrawn");
    return false;
  }

  // electMaster: hand the set to the named in-sync replica. The master stops acknowledging
  // first, waits until that replica holds everything it stored (so the replica's final
  // offset is the highest of the set and it wins the election), then revokes its lease and
  // restarts as a replica. A replica that does not catch up within kHandoverCatchUpMs, or
  // that is not in the syncStateSet, cancels the request. Returns true when a restart was
  // requested.
  bool HandOver(const View& v) {
    const std::string& target = *v.preferred;
    const bool in_sync = v.sync && v.sync->epoch == epoch_ &&
                         std::find(v.sync->members.begin(), v.sync->members.end(), target) !=
                             v.sync->members.end();
    if (!in_sync) {
      CancelHandOver(target, "it is not in the syncStateSet of epoch " + std::to_string(epoch_));
      return false;
    }
    if (handover_since_ms_ == 0) {
      handover_since_ms_ = SteadyMillis();
      fenced_.store(true);
      Log()->warn("electMaster: fenced; waiting for {} to reach CommitLog offset {} before "
                  "handing epoch {} over",
                  target, store_->MaxPhyOffset(), epoch_);
    }
    const int64_t max = store_->MaxPhyOffset();
    auto it = replicas_.find(target);
    if (it != replicas_.end() && it->second.following_epoch == epoch_ && it->second.offset >= max) {
      Status revoked = etcd_->LeaseRevoke(local_.lease_id);
      Log()->warn("electMaster: {} holds offset {}; stepping down from epoch {} (lease revoked: {})",
                  target, it->second.offset, epoch_, revoked.ToString());
      RequestRestart("electMaster handed the set to " + target);
      return true;
    }
    if (SteadyMillis() - handover_since_ms_ > kHandoverCatchUpMs) {
      CancelHandOver(target, fmt::format("it did not reach offset {} within {} ms (it has {})", max,
                                         kHandoverCatchUpMs,
                                         it == replicas_.end() ? -1 : it->second.offset));
    }
    return false;
  }

  void CancelHandOver(const std::string& target, const std::string& why) {
    // Only the request that named `target`: a newer one stays.
    Result<coord::TxnResult> txn = etcd_->Txn(
        {coord::Compare{Key("preferred"), coord::Compare::Target::kValue, coord::Compare::Op::kEqual, 0,
                        target}},
        {coord::TxnOp::Delete(Key("preferred"))});
    Log()->error("electMaster: not handing epoch {} to {}: {} (request {})", epoch_, target, why,
                 txn.ok() ? (txn->succeeded ? "withdrawn" : "already replaced") : txn.status().ToString());
    EndHandOver("cancelled");
  }

  void EndHandOver(const std::string& why) {
    if (handover_since_ms_ == 0) return;
    handover_since_ms_ = 0;
    fenced_.store(false);
    Log()->info("electMaster: {}; acknowledging sends again", why);
  }

  void UpdateSyncStateSet(const View& v) {
    const int64_t max = store_->MaxPhyOffset();
    SyncStateSet next;
    next.epoch = epoch_;
    next.members.push_back(self_addr_);
    for (const auto& [addr, r] : replicas_) {
      if (addr == self_addr_ || r.following_epoch != epoch_) continue;
      if (max - r.offset <= max_gap_) next.members.push_back(addr);
    }
    std::sort(next.members.begin() + 1, next.members.end());
    if (v.sync && v.sync->epoch == next.epoch && v.sync->members == next.members) {
      std::lock_guard<std::mutex> lock(mu_);
      sync_ = next;
      return;
    }
    Result<coord::TxnResult> txn =
        etcd_->Txn({coord::Compare::ModRevision(Key("epoch"), epoch_rev_)},
                   {coord::TxnOp::Put(Key("syncStateSet"), EncodeSyncStateSet(next))});
    if (txn.ok() && txn->succeeded) {
      Log()->info("syncStateSet of epoch {}: {}", epoch_, fmt::join(next.members, ","));
      std::lock_guard<std::mutex> lock(mu_);
      sync_ = next;
    } else if (txn.ok()) {
      Log()->warn("syncStateSet not written: the epoch record changed (a newer epoch exists)");
    }
  }

  // ---- replica ----
  bool ReplicaStep() {
    if (replica_lease_ == 0) {
      Result<int64_t> lease = etcd_->LeaseGrant(ttl_s_);
      if (!lease.ok()) return false;
      replica_lease_ = *lease;
    } else if (SteadyMillis() - last_replica_renew_ms_ >= renew_ms_) {
      Result<int64_t> ttl = etcd_->LeaseKeepAlive(replica_lease_);
      if (ttl.ok() && *ttl == 0) replica_lease_ = 0;  // expired: a new one next time
      if (ttl.ok()) last_replica_renew_ms_ = SteadyMillis();
      if (replica_lease_ == 0) return false;
    }
    Result<View> read = Read();
    if (!read.ok()) return false;
    const View& v = *read;
    if (v.master) {
      gone_since_ms_ = 0;
      if (v.master->addr == self_addr_) return false;  // our own stale record: wait
      if (v.master->epoch != following_epoch_) {
        RequestRestart(fmt::format("{} is master of epoch {}", v.master->addr, v.master->epoch));
        return true;
      }
      Publish(-1);
      return false;
    }
    const int64_t epoch = v.epoch ? v.epoch->epoch : 0;
    if (gone_since_ms_ == 0) {
      gone_since_ms_ = SteadyMillis();
      Log()->warn("no master record for epoch {}: its lease expired or was revoked", epoch);
    }
    // Let the reput dispatch what replication delivered, then publish the final offset.
    Publish(epoch);
    return Campaign(v, epoch);
  }

  int64_t ConfirmedOffset() const {
    // The end of the last complete, dispatched record: a replica's log may end inside a
    // record that replication had not finished.
    return store_->MaxPhyOffset() - std::max<int64_t>(0, store_->DispatchBehindBytes());
  }

  void Publish(int64_t seen_gone_epoch) {
    ReplicaRecord r;
    r.addr = self_addr_;
    r.broker_id = local_.broker_id;
    r.offset = ConfirmedOffset();
    r.following_epoch = following_epoch_;
    r.seen_gone_epoch = seen_gone_epoch;
    if (SteadyMillis() - last_publish_ms_ < renew_ms_ && seen_gone_epoch == last_seen_gone_ &&
        r.offset == last_published_offset_) {
      return;
    }
    Status s = etcd_->Put(Key("replicas/" + self_addr_), EncodeReplicaRecord(r), replica_lease_);
    if (s.ok()) {
      last_publish_ms_ = SteadyMillis();
      last_seen_gone_ = seen_gone_epoch;
      last_published_offset_ = r.offset;
      replicas_[self_addr_] = r;
    }
  }

  bool Campaign(const View& v, int64_t epoch) {
    const int64_t waited = SteadyMillis() - gone_since_ms_;
    bool eligible = false;
    std::vector<std::string> electorate;  // who may win this round
    if (!v.epoch) {
      // A new broker set: the broker configured as master starts it.
      eligible = IsMasterRole(configured_role_);
      electorate = {self_addr_};
    } else if (v.sync && v.sync->epoch == epoch) {
      electorate = v.sync->members;
      eligible = std::find(electorate.begin(), electorate.end(), self_addr_) != electorate.end();
    }
    if (!eligible) {
      if (!not_eligible_logged_) {
        Log()->warn("not eligible for epoch {}: not in its syncStateSet", epoch + 1);
        not_eligible_logged_ = true;
      }
      return false;
    }
    if (waited < kReplicaPollMs) return false;  // one poll for the others to notice too
    // The final offsets of the electorate's live members.
    const ReplicaRecord* best = nullptr;
    bool all_reported = true;
    for (const std::string& addr : electorate) {
      auto it = replicas_.find(addr);
      if (it == replicas_.end()) continue;  // not alive (or the old master)
      if (it->second.seen_gone_epoch != epoch) {
        all_reported = false;
        continue;
      }
      // The highest final offset wins: it holds every acknowledged message. Among equal
      // offsets electMaster's choice goes first, then the lowest address.
      auto rank = [&](const ReplicaRecord& r) {
        return std::make_tuple(-r.offset, !(v.preferred && *v.preferred == r.addr), r.addr);
      };
      if (best == nullptr || rank(it->second) < rank(*best)) best = &it->second;
    }
    if (!all_reported && waited < kCandidateWaitMs) return false;
    if (best == nullptr || best->addr != self_addr_) return false;
    return TakeOver(v, epoch, best->offset);
  }

  bool TakeOver(const View& v, int64_t epoch, int64_t start_offset) {
    Result<int64_t> lease = etcd_->LeaseGrant(ttl_s_ + kHandoverExtraSeconds);
    if (!lease.ok()) return false;
    EpochRecord next;
    next.epoch = epoch + 1;
    next.master_role = v.epoch ? v.epoch->master_role
                               : (IsMasterRole(configured_role_) ? configured_role_ : "SYNC_MASTER");
    if (v.epoch) next.history = v.epoch->history;
    next.history.push_back({next.epoch, start_offset});
    MasterRecord m;
    m.addr = self_addr_;
    m.ha_addr = self_ha_addr_;
    m.epoch = next.epoch;
    m.freed_broker_id = local_.broker_id;
    SyncStateSet sync;
    sync.epoch = next.epoch;
    sync.members = {self_addr_};
    std::vector<coord::Compare> compares = {coord::Compare::Absent(Key("master"))};
    compares.push_back(v.epoch ? coord::Compare::ModRevision(Key("epoch"), v.epoch_rev)
                               : coord::Compare::Absent(Key("epoch")));
    Result<coord::TxnResult> txn = etcd_->Txn(
        compares,
        {coord::TxnOp::Put(Key("epoch"), EncodeEpochRecord(next)),
         coord::TxnOp::Put(Key("master"), EncodeMasterRecord(m), *lease),
         coord::TxnOp::Put(Key("syncStateSet"), EncodeSyncStateSet(sync)),
         coord::TxnOp::Delete(Key("preferred"))});
    if (!txn.ok() || !txn->succeeded) {
      (void)etcd_->LeaseRevoke(*lease);
      Log()->info("lost the race for epoch {}: {}", next.epoch,
                  txn.ok() ? "another broker took it" : txn.status().ToString());
      return false;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      local_.lease_id = *lease;
      local_.history = next.history;
    }
    Status saved = SaveLocal();
    if (!saved.ok()) Log()->error("failover.json: {}", saved.ToString());
    Log()->warn("elected master of epoch {} at CommitLog offset {} (lease {:x})", next.epoch,
                start_offset, *lease);
    RequestRestart(fmt::format("elected master of epoch {}", next.epoch), /*as_master=*/true);
    return true;
  }

  std::unique_ptr<coord::EtcdClient> etcd_;
  const std::string prefix_;
  const std::string self_addr_;
  const std::string self_ha_addr_;
  const std::string configured_role_;
  const int64_t configured_id_;
  const int64_t ttl_s_;
  const int64_t renew_ms_;
  const int64_t max_gap_;
  ConfigFile state_file_;

  store::MessageStore* store_ = nullptr;
  std::function<void(const std::string&)> restart_;
  std::function<void()> acknowledging_;
  std::thread thread_;

  mutable std::mutex mu_;
  Role role_ = Role::kReplica;
  LocalFailoverState local_;      // guarded by mu_ once the thread runs
  int64_t epoch_ = 0;             // guarded by mu_
  int64_t epoch_rev_ = 0;
  int64_t following_epoch_ = 0;
  MasterRecord master_record_;  // master: its record as taken
  int64_t master_rev_ = 0;      // master: the record's mod revision then
  bool lease_swapped_ = false;  // master thread only
  std::string master_addr_;       // guarded by mu_
  std::vector<EpochEntry> history_;  // guarded by mu_
  SyncStateSet sync_;             // guarded by mu_
  int64_t divergent_bytes_ = 0;   // guarded by mu_; cut at this start
  int64_t divergent_messages_ = 0;  // guarded by mu_; cut at this start
  bool restarting_as_master_ = false;  // guarded by mu_

  std::atomic<int64_t> ack_deadline_ms_{0};
  std::atomic<bool> fenced_{false};
  bool fenced_logged_ = false;
  int64_t handover_since_ms_ = 0;  // master thread only: electMaster fenced this master then

  // Thread only.
  std::map<std::string, ReplicaRecord> replicas_;
  int64_t replica_lease_ = 0;
  int64_t last_replica_renew_ms_ = 0;
  int64_t gone_since_ms_ = 0;
  int64_t last_publish_ms_ = 0;
  int64_t last_seen_gone_ = -2;
  int64_t last_published_offset_ = -1;
  bool not_eligible_logged_ = false;

  std::mutex wait_mu_;
  std::condition_variable wait_cv_;
  bool stopping_ = false;  // guarded by wait_mu_
};

Result<std::unique_ptr<FailoverCoordinator>> FailoverCoordinator::Create(
    const BrokerSettings& settings, env::Env* env) {
  APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<coord::EtcdClient> etcd,
                          coord::EtcdClient::Create(settings.etcd_endpoints, kEtcdTimeout));
  return std::unique_ptr<FailoverCoordinator>(
      new FailoverCoordinator(std::make_unique<Impl>(settings, env, std::move(etcd))));
}

FailoverCoordinator::FailoverCoordinator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FailoverCoordinator::~FailoverCoordinator() = default;

Result<StartupPlan> FailoverCoordinator::PlanStartup(const std::atomic<bool>& stop) {
  return impl_->PlanStartup(stop);
}
Status FailoverCoordinator::AfterStoreOpened(store::MessageStore* store) {
  return impl_->AfterStoreOpened(store);
}
void FailoverCoordinator::Start(store::MessageStore* store,
                                std::function<void(const std::string&)> restart,
                                std::function<void()> acknowledging) {
  impl_->Start(store, std::move(restart), std::move(acknowledging));
}
void FailoverCoordinator::Shutdown() { impl_->Shutdown(); }
bool FailoverCoordinator::CanAcknowledge() const { return impl_->CanAcknowledge(); }
FailoverSnapshot FailoverCoordinator::Snapshot() const { return impl_->Snapshot(); }

}  // namespace apogee::broker
