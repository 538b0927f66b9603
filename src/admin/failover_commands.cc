#include "admin/failover_commands.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <thread>
#include <vector>

#include "admin/command_util.h"
#include "base/string_util.h"
#include "coord/etcd_client.h"
#include "protocol/epoch_entry_cache.h"
#include "protocol/route_data.h"

namespace apogee::admin {
namespace {

using namespace std::chrono_literals;

constexpr std::chrono::milliseconds kEtcdTimeout{2000};
// How long electMaster waits for the set to report the new master: the master's catch-up
// wait (5 s), the lease revocation, the candidates' final offsets (<= 2 s) and a restart.
constexpr std::chrono::seconds kElectWait{30};

Result<std::unique_ptr<coord::EtcdClient>> Etcd(const ParsedOptions& o) {
  return coord::EtcdClient::Create(EtcdEndpointsFromControllerAddress(o.Get("controllerAddress")),
                                   kEtcdTimeout);
}

Result<coord::FailoverSetView> ReadSet(coord::EtcdClient* etcd, const std::string& cluster,
                                       const std::string& name) {
  const std::string prefix = coord::FailoverKeyPrefix(cluster, name);
  APOGEE_ASSIGN_OR_RETURN(coord::RangeResult r, etcd->GetPrefix(prefix));
  return coord::DecodeFailoverSet(prefix, r.kvs);
}

// The broker names with failover records under the cluster's prefix.
Result<std::set<std::string>> BrokerNamesInEtcd(coord::EtcdClient* etcd, const std::string& cluster) {
  const std::string prefix = "/apogee/failover/" + cluster + "/";
  APOGEE_ASSIGN_OR_RETURN(coord::RangeResult r, etcd->GetPrefix(prefix));
  std::set<std::string> names;
  for (const coord::KeyValue& kv : r.kvs) {
    std::string_view rest = std::string_view(kv.key).substr(prefix.size());
    size_t slash = rest.find('/');
    if (slash != std::string_view::npos && slash > 0) names.emplace(rest.substr(0, slash));
  }
  return names;
}

// Java's BrokerReplicasInfo.ReplicaIdentity.toString().
std::string ReplicaIdentity(const std::string& broker_name, int64_t broker_id, const std::string& addr,
                            bool alive) {
  return fmt::format("ReplicaIdentity{{brokerName='{}', brokerId={}, brokerAddress='{}', alive={}}}",
                     broker_name, broker_id, addr, alive ? "true" : "false");
}

void PrintSyncStateSet(const std::string& name, const coord::FailoverSetView& v, std::ostream& out) {
  const std::vector<std::string> members = v.sync ? v.sync->members : std::vector<std::string>{};
  const std::string master = v.master ? v.master->addr : "";
  out << fmt::format("\n#brokerName\t{}\n#MasterAddr\t{}\n#MasterEpoch\t{}\n#SyncStateSetEpoch\t{}\n#SyncStateSetNums\t{}\n",
                     name, master.empty() ? "null" : master, v.master ? v.master->epoch : (v.epoch ? v.epoch->epoch : 0),
                     v.sync ? v.sync->epoch : 0, members.size());
  auto identity = [&](const std::string& addr) {
    const bool is_master = !master.empty() && addr == master;
    auto it = v.replicas.find(addr);
    const bool alive = is_master || it != v.replicas.end();
    // The master serves as brokerId 0; a replica as the id it published; -1: not known (gone).
    const int64_t id = is_master ? 0 : (it != v.replicas.end() ? it->second.broker_id : -1);
    return ReplicaIdentity(name, id, addr, alive) + "\t" + (alive ? "online" : "offline");
  };
  for (const std::string& m : members) out << "\n InSyncReplica:\t" << identity(m) << "\n";
  for (const auto& [addr, r] : v.replicas) {
    if (std::find(members.begin(), members.end(), addr) == members.end() && addr != master) {
      out << "\n NotInSyncReplica:\t" << identity(addr) << "\n";
    }
  }
}

// Runs `body` once, or every -i seconds (default 3) forever, as Java's commands do.
Status MaybeRepeat(const ParsedOptions& o, const std::function<Status()>& body) {
  if (!o.Has("interval")) return body();
  APOGEE_ASSIGN_OR_RETURN(int64_t seconds, o.GetInt64("interval", 3));
  if (seconds <= 0) return Status::InvalidArgument("--interval wants a positive number of seconds");
  while (true) {
    APOGEE_RETURN_IF_ERROR(body());
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
  }
}

Status GetSyncStateSet(const ParsedOptions& o, CommandContext& ctx) {
  if (!o.Has("brokerName") && !o.Has("clusterName")) {
    return Status::InvalidArgument("getSyncStateSet: give -b brokerName or -c clusterName");
  }
  const std::string cluster = o.Get("clusterName", "DefaultCluster");
  APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<coord::EtcdClient> etcd, Etcd(o));
  return MaybeRepeat(o, [&]() -> Status {
    std::set<std::string> names;
    if (o.Has("brokerName")) {
      names.insert(o.Get("brokerName"));
    } else {
      APOGEE_ASSIGN_OR_RETURN(names, BrokerNamesInEtcd(etcd.get(), cluster));
      if (names.empty()) return Status::NotFound("no failover records for cluster " + cluster + " in etcd");
    }
    for (const std::string& name : names) {
      APOGEE_ASSIGN_OR_RETURN(coord::FailoverSetView v, ReadSet(etcd.get(), cluster, name));
      if (!v.epoch) return Status::NotFound("no failover records for " + cluster + "/" + name + " in etcd");
      PrintSyncStateSet(name, v, ctx.out());
    }
    return Status::OK();
  });
}

// Every address of the named broker set(s), master and slaves (Java's
// CommandUtil.fetchMasterAndSlaveAddrByBrokerName / ByClusterName).
Result<std::vector<std::string>> SetMembers(const ParsedOptions& o, MQAdminClient* admin) {
  APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, admin->GetBrokerClusterInfo());
  std::vector<std::string> names;
  if (o.Has("brokerName")) {
    names.push_back(o.Get("brokerName"));
  } else {
    auto c = info.cluster_addr_table.find(o.Get("clusterName"));
    if (c == info.cluster_addr_table.end()) {
      return Status::NotFound("cluster " + o.Get("clusterName") + " is not known to the NameServer");
    }
    names.assign(c->second.begin(), c->second.end());
  }
  std::vector<std::string> addrs;
  for (const std::string& name : names) {
    auto it = info.broker_addr_table.find(name);
    if (it == info.broker_addr_table.end()) {
      return Status::NotFound("broker " + name + " is not known to the NameServer");
    }
    for (const auto& [id, addr] : it->second.broker_addrs) addrs.push_back(addr);
  }
  return addrs;
}

Status GetBrokerEpoch(const ParsedOptions& o, CommandContext& ctx) {
  if (!o.Has("brokerName") && !o.Has("clusterName")) {
    return Status::InvalidArgument("getBrokerEpoch: give -b brokerName or -c clusterName");
  }
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  return MaybeRepeat(o, [&]() -> Status {
    APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> addrs, SetMembers(o, admin));
    for (const std::string& addr : addrs) {
      APOGEE_ASSIGN_OR_RETURN(protocol::EpochEntryCache cache, admin->GetBrokerEpochCache(addr));
      ctx.out() << fmt::format("\n\n#clusterName\t{}\n#brokerName\t{}\n#brokerAddr\t{}\n#brokerId\t{}",
                               cache.cluster_name, cache.broker_name, addr, cache.broker_id);
      for (size_t i = 0; i < cache.epoch_list.size(); ++i) {
        protocol::EpochEntryJson e = cache.epoch_list[i];
        if (i + 1 == cache.epoch_list.size()) e.end_offset = cache.max_offset;
        ctx.out() << "\n#Epoch: " << protocol::EpochEntryToString(e);
      }
    }
    ctx.out() << "\n";
    return Status::OK();
  });
}

Status ElectMaster(const ParsedOptions& o, CommandContext& ctx) {
  const std::string cluster = o.Get("clusterName");
  const std::string name = o.Get("brokerName");
  const std::string target = o.Get("brokerAddress");
  APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<coord::EtcdClient> etcd, Etcd(o));
  APOGEE_ASSIGN_OR_RETURN(coord::FailoverSetView v, ReadSet(etcd.get(), cluster, name));
  APOGEE_RETURN_IF_ERROR(CheckElectable(v, target).Prefixed(cluster + "/" + name));
  const std::string prefix = coord::FailoverKeyPrefix(cluster, name);
  const int64_t old_epoch = v.master->epoch;
  const std::string old_master = v.master->addr;
  // Only if nothing changed since the check: the same epoch and the same master record.
  APOGEE_ASSIGN_OR_RETURN(
      coord::TxnResult txn,
      etcd->Txn({coord::Compare::ModRevision(prefix + "epoch", v.epoch_rev),
                 coord::Compare::ModRevision(prefix + "master", v.master_rev)},
                {coord::TxnOp::Put(prefix + "preferred", target)}));
  if (!txn.succeeded) {
    return Status::Aborted("the broker set changed while electMaster checked it (a new epoch or "
                           "master); run it again");
  }
  const auto deadline = std::chrono::steady_clock::now() + kElectWait;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(200ms);
    Result<coord::FailoverSetView> now = ReadSet(etcd.get(), cluster, name);
    if (!now.ok()) continue;  // etcd busy: ask again
    if (now->master && now->master->epoch > old_epoch) {
      if (now->master->addr != target) {
        return Status::Aborted(fmt::format("{} was elected master of epoch {} instead of {}",
                                           now->master->addr, now->master->epoch, target));
      }
      ctx.out() << fmt::format("\n#ClusterName\t{}", cluster);
      ctx.out() << fmt::format("\n#BrokerName\t{}", name);
      ctx.out() << fmt::format("\n#BrokerMasterAddr\t{}", now->master->addr);
      ctx.out() << fmt::format("\n#MasterEpoch\t{}", now->master->epoch);
      ctx.out() << fmt::format("\n#SyncStateSetEpoch\t{}\n", now->sync ? now->sync->epoch : 0);
      ctx.out() << fmt::format("\t#Broker\t{}\t{}\n", 0, now->master->addr);
      for (const auto& [addr, r] : now->replicas) {
        if (addr != now->master->addr) ctx.out() << fmt::format("\t#Broker\t{}\t{}\n", r.broker_id, addr);
      }
      return Status::OK();
    }
    if (!now->preferred && now->master && now->master->addr == old_master) {
      return Status::Aborted(fmt::format(
          "the master {} cancelled the switch (see its failover log: {} did not catch up in "
          "time or left the syncStateSet); it acknowledges again",
          old_master, target));
    }
  }
  // Withdraw the request unless the set moved on meanwhile.
  (void)etcd->Txn({coord::Compare{prefix + "preferred", coord::Compare::Target::kValue,
                                  coord::Compare::Op::kEqual, 0, target}},
                  {coord::TxnOp::Delete(prefix + "preferred")});
  return Status::Timeout(fmt::format("{} did not become master within {} s; the request "
                                              "was withdrawn",
                                              target, kElectWait.count()));
}

}  // namespace

std::string EtcdEndpointsFromControllerAddress(std::string_view text) {
  std::string normalized(text);
  std::replace(normalized.begin(), normalized.end(), ';', ',');
  std::string out;
  for (const std::string& piece : SplitString(normalized, ',', /*skip_empty=*/true)) {
    std::string_view part = TrimWhitespace(piece);
    if (part.empty()) continue;
    if (!out.empty()) out += ",";
    if (!part.starts_with("http://") && !part.starts_with("https://")) out += "http://";
    out.append(part);
  }
  return out;
}

Status CheckElectable(const coord::FailoverSetView& v, const std::string& addr) {
  if (!v.epoch) return Status::NotFound("no failover records in etcd (is etcdEndpoints set on the brokers?)");
  if (!v.master) {
    return Status::Unavailable(
        "no live master: an automatic election is under way; electMaster switches a live master");
  }
  if (v.master->addr == addr) {
    return Status::Unavailable(fmt::format("{} is already master of epoch {}", addr, v.master->epoch));
  }
  const bool in_sync = v.sync && v.sync->epoch == v.master->epoch &&
                       std::find(v.sync->members.begin(), v.sync->members.end(), addr) != v.sync->members.end();
  if (!in_sync) {
    return Status::Unavailable(fmt::format(
        "{} is not in the syncStateSet of epoch {} ({}): only an in-sync replica may become master",
        addr, v.master->epoch, v.sync ? fmt::format("{}", fmt::join(v.sync->members, ",")) : "none written yet"));
  }
  auto it = v.replicas.find(addr);
  if (it == v.replicas.end() || it->second.following_epoch != v.master->epoch) {
    return Status::Unavailable(fmt::format("{} is not a live replica of epoch {}", addr, v.master->epoch));
  }
  return Status::OK();
}

void RegisterFailoverCommands(CommandRegistry* r) {
  r->Add({{"getSyncStateSet",
           "Fetch syncStateSet for target brokers",
           {{"a", "controllerAddress", true, true, "the address of controller (Apogee: the etcdEndpoints)"},
            {"c", "clusterName", true, false, "which cluster"},
            {"b", "brokerName", true, false, "which broker to fetch"},
            {"i", "interval", true, false, "the interval(second) of get info"}}},
          GetSyncStateSet});
  r->Add({{"getBrokerEpoch",
           "Fetch broker epoch entries",
           {{"c", "clusterName", true, false, "which cluster"},
            {"b", "brokerName", true, false, "which broker to fetch"},
            {"i", "interval", true, false, "the interval(second) of get info"}}},
          GetBrokerEpoch});
  r->Add({{"electMaster",
           "Re-elect the specified broker as master",
           {{"a", "controllerAddress", true, true, "The address of controller (Apogee: the etcdEndpoints)"},
            {"b", "brokerAddress", true, true, "The address of the broker which requires to become master"},
            {"n", "brokerName", true, true, "The broker name of the replicas that require to be manipulated"},
            {"c", "clusterName", true, true, "the clusterName of broker"}}},
          ElectMaster});
}

}  // namespace apogee::admin
