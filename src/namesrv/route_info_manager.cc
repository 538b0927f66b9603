#include "namesrv/route_info_manager.h"

#include <fmt/format.h>

#include <mutex>

#include "base/logging.h"
#include "protocol/mix_all.h"
#include "protocol/perm_name.h"
#include "protocol/topic_sys_flag.h"

namespace apogee::namesrv {
namespace {

std::shared_ptr<spdlog::logger> Log() {
  static auto log = GetLogger("namesrv");
  return log;
}

}  // namespace

RouteInfoManager::RouteInfoManager(Clock* clock, int64_t default_timeout_millis)
    : clock_(clock), default_timeout_millis_(default_timeout_millis) {}

void RouteInfoManager::set_default_timeout_millis(int64_t millis) {
  std::unique_lock lock(mu_);
  default_timeout_millis_ = millis;
}

RegisterBrokerOutcome RouteInfoManager::RegisterBroker(const BrokerRegistration& reg) {
  RegisterBrokerOutcome outcome;
  std::unique_lock lock(mu_);

  cluster_addr_table_[reg.cluster_name].insert(reg.broker_name);

  bool register_first = false;
  auto bd_it = broker_addr_table_.find(reg.broker_name);
  if (bd_it == broker_addr_table_.end()) {
    register_first = true;
    bd_it = broker_addr_table_.emplace(reg.broker_name, protocol::BrokerData{}).first;
    bd_it->second.cluster = reg.cluster_name;
    bd_it->second.broker_name = reg.broker_name;
  }
  protocol::BrokerData& broker_data = bd_it->second;
  // An address registered under another id has switched role (slave became master, or
  // the reverse): forget the old id so one address never appears twice.
  for (auto it = broker_data.broker_addrs.begin(); it != broker_data.broker_addrs.end();) {
    if (it->second == reg.broker_addr && it->first != reg.broker_id) {
      it = broker_data.broker_addrs.erase(it);
    } else {
      ++it;
    }
  }
  auto [addr_it, inserted] = broker_data.broker_addrs.insert_or_assign(reg.broker_id,
                                                                       reg.broker_addr);
  (void)addr_it;
  register_first = register_first || inserted;

  BrokerAddrKey key{reg.cluster_name, reg.broker_addr};
  if (reg.broker_id == protocol::kMasterId) {
    auto live = broker_live_table_.find(key);
    bool changed = live == broker_live_table_.end() || !(live->second.data_version ==
                                                         reg.data_version);
    if (changed || register_first) {
      for (const protocol::TopicConfig& tc : reg.topic_configs) {
        protocol::QueueData qd{reg.broker_name, tc.read_queue_nums, tc.write_queue_nums, tc.perm,
                               tc.topic_sys_flag};
        auto& per_broker = topic_queue_table_[tc.topic_name];
        auto old = per_broker.find(reg.broker_name);
        if (old == per_broker.end()) {
          Log()->info("new topic registered: {} {}", tc.topic_name, reg.broker_name);
        } else if (!(old->second == qd)) {
          Log()->info("topic changed: {} {} queues r{}/w{} perm {}", tc.topic_name,
                      reg.broker_name, qd.read_queue_nums, qd.write_queue_nums, qd.perm);
        }
        per_broker[reg.broker_name] = qd;
      }
    }
  }

  BrokerLiveInfo info;
  info.last_update_millis = clock_->NowMillis();
  info.timeout_millis = reg.heartbeat_timeout_millis.value_or(default_timeout_millis_);
  info.data_version = reg.data_version;
  info.channel = reg.channel;
  info.ha_server_addr = reg.ha_server_addr;
  if (broker_live_table_.insert_or_assign(key, std::move(info)).second) {
    Log()->info("new broker registered: cluster {} name {} id {} addr {} HA {}",
                reg.cluster_name, reg.broker_name, reg.broker_id, reg.broker_addr,
                reg.ha_server_addr);
  }

  if (reg.filter_server_list.empty()) {
    filter_server_table_.erase(key);
  } else {
    filter_server_table_[key] = reg.filter_server_list;
  }

  if (reg.broker_id != protocol::kMasterId) {
    auto master = broker_data.broker_addrs.find(protocol::kMasterId);
    if (master != broker_data.broker_addrs.end()) {
      auto master_live = broker_live_table_.find(BrokerAddrKey{reg.cluster_name, master->second});
      if (master_live != broker_live_table_.end()) {
        outcome.master_addr = master->second;
        outcome.ha_server_addr = master_live->second.ha_server_addr;
      }
    }
  }
  return outcome;
}

Status RouteInfoManager::RegisterTopic(const std::string& topic,
                                       const std::vector<protocol::QueueData>& queue_datas) {
  if (queue_datas.empty()) return Status::OK();
  std::unique_lock lock(mu_);
  // Java stops at the first unknown broker after applying the ones before it; checking
  // first keeps the table unchanged on a bad request.
  for (const protocol::QueueData& qd : queue_datas) {
    if (broker_addr_table_.count(qd.broker_name) == 0) {
      return Status::InvalidArgument(fmt::format(
          "register topic {}: broker {} is not registered", topic, qd.broker_name));
    }
  }
  auto& per_broker = topic_queue_table_[topic];
  for (const protocol::QueueData& qd : queue_datas) per_broker[qd.broker_name] = qd;
  Log()->info("topic {} registered on {} brokers", topic, queue_datas.size());
  return Status::OK();
}

void RouteInfoManager::UnregisterBroker(const std::string& cluster_name,
                                        const std::string& broker_addr,
                                        const std::string& broker_name, int64_t broker_id) {
  std::unique_lock lock(mu_);
  BrokerAddrKey key{cluster_name, broker_addr};
  broker_live_table_.erase(key);
  filter_server_table_.erase(key);
  Log()->info("unregister broker: cluster {} name {} id {} addr {}", cluster_name, broker_name,
              broker_id, broker_addr);
  auto bd = broker_addr_table_.find(broker_name);
  if (bd == broker_addr_table_.end()) return;
  // By address, as 5.x does: the id may have changed since the broker registered.
  std::erase_if(bd->second.broker_addrs,
                [&](const auto& entry) { return entry.second == broker_addr; });
  if (bd->second.broker_addrs.empty()) RemoveBrokerNamesLocked({broker_name});
}

void RouteInfoManager::RemoveBrokerNamesLocked(const std::set<std::string>& broker_names) {
  for (const std::string& name : broker_names) {
    broker_addr_table_.erase(name);
    for (auto c = cluster_addr_table_.begin(); c != cluster_addr_table_.end();) {
      c->second.erase(name);
      if (c->second.empty()) {
        Log()->info("cluster {} has no broker left; removed", c->first);
        c = cluster_addr_table_.erase(c);
      } else {
        ++c;
      }
    }
    for (auto t = topic_queue_table_.begin(); t != topic_queue_table_.end();) {
      if (t->second.erase(name) > 0) {
        Log()->info("topic {}: queue data of broker {} removed", t->first, name);
      }
      if (t->second.empty()) {
        t = topic_queue_table_.erase(t);
      } else {
        ++t;
      }
    }
  }
}

void RouteInfoManager::RemoveBrokerAddrLocked(const BrokerAddrKey& key) {
  const auto& [cluster, addr] = key;
  broker_live_table_.erase(key);
  filter_server_table_.erase(key);
  std::set<std::string> emptied;
  for (auto& [name, data] : broker_addr_table_) {
    if (data.cluster != cluster) continue;
    for (auto it = data.broker_addrs.begin(); it != data.broker_addrs.end();) {
      if (it->second == addr) {
        Log()->info("broker {} id {} addr {} removed", name, it->first, addr);
        it = data.broker_addrs.erase(it);
      } else {
        ++it;
      }
    }
    if (data.broker_addrs.empty()) emptied.insert(name);
  }
  RemoveBrokerNamesLocked(emptied);
}

std::optional<protocol::TopicRouteData> RouteInfoManager::GetTopicRoute(
    const std::string& topic) const {
  std::shared_lock lock(mu_);
  auto t = topic_queue_table_.find(topic);
  if (t == topic_queue_table_.end() || t->second.empty()) return std::nullopt;
  protocol::TopicRouteData route;
  for (const auto& [broker_name, qd] : t->second) {
    route.queue_datas.push_back(qd);
    auto bd = broker_addr_table_.find(broker_name);
    if (bd == broker_addr_table_.end()) continue;
    route.broker_datas.push_back(bd->second);
    for (const auto& [id, addr] : bd->second.broker_addrs) {
      auto fs = filter_server_table_.find(BrokerAddrKey{bd->second.cluster, addr});
      if (fs != filter_server_table_.end()) route.filter_server_table[addr] = fs->second;
    }
  }
  if (route.broker_datas.empty()) return std::nullopt;
  return route;
}

protocol::ClusterInfo RouteInfoManager::GetClusterInfo() const {
  std::shared_lock lock(mu_);
  return protocol::ClusterInfo{broker_addr_table_, cluster_addr_table_};
}

std::vector<std::string> RouteInfoManager::GetAllTopics() const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  out.reserve(topic_queue_table_.size());
  for (const auto& [topic, per_broker] : topic_queue_table_) out.push_back(topic);
  return out;
}

std::vector<std::string> RouteInfoManager::GetTopicsByCluster(const std::string& cluster) const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  auto c = cluster_addr_table_.find(cluster);
  if (c == cluster_addr_table_.end()) return out;
  for (const auto& [topic, per_broker] : topic_queue_table_) {
    for (const auto& [broker_name, qd] : per_broker) {
      if (c->second.count(broker_name) > 0) {
        out.push_back(topic);
        break;
      }
    }
  }
  return out;
}

protocol::TopicList RouteInfoManager::GetSystemTopicList() const {
  std::shared_lock lock(mu_);
  protocol::TopicList out;
  for (const auto& [cluster, brokers] : cluster_addr_table_) {
    out.topic_list.insert(cluster);
    out.topic_list.insert(brokers.begin(), brokers.end());
  }
  for (const auto& [name, data] : broker_addr_table_) {
    if (!data.broker_addrs.empty()) {
      out.broker_addr = data.broker_addrs.begin()->second;
      break;
    }
  }
  return out;
}

// Java looks at the first QueueData of each topic only (a topic's flags are the same on
// every broker in practice); ours is the first by broker name, so the answer is stable.
template <typename Pred>
std::vector<std::string> RouteInfoManager::TopicsWhereFirstQueue(Pred pred) const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  for (const auto& [topic, per_broker] : topic_queue_table_) {
    if (!per_broker.empty() && pred(per_broker.begin()->second.topic_sys_flag)) {
      out.push_back(topic);
    }
  }
  return out;
}

std::vector<std::string> RouteInfoManager::GetUnitTopics() const {
  return TopicsWhereFirstQueue([](int32_t f) { return protocol::HasUnitFlag(f); });
}

std::vector<std::string> RouteInfoManager::GetHasUnitSubTopics() const {
  return TopicsWhereFirstQueue([](int32_t f) { return protocol::HasUnitSubFlag(f); });
}

std::vector<std::string> RouteInfoManager::GetHasUnitSubUnUnitTopics() const {
  return TopicsWhereFirstQueue(
      [](int32_t f) { return !protocol::HasUnitFlag(f) && protocol::HasUnitSubFlag(f); });
}

int32_t RouteInfoManager::OperateWritePermLocked(const std::string& broker_name, bool wipe) {
  int32_t count = 0;
  for (auto& [topic, per_broker] : topic_queue_table_) {
    auto qd = per_broker.find(broker_name);
    if (qd == per_broker.end()) continue;
    // As Java: wiping clears only the write bit; adding sets read+write outright.
    qd->second.perm = wipe ? (qd->second.perm & ~protocol::kPermWrite) : protocol::kPermReadWrite;
    ++count;
  }
  return count;
}

int32_t RouteInfoManager::WipeWritePermOfBroker(const std::string& broker_name) {
  std::unique_lock lock(mu_);
  int32_t n = OperateWritePermLocked(broker_name, /*wipe=*/true);
  Log()->info("wipe write perm of broker {}: {} topics", broker_name, n);
  return n;
}

int32_t RouteInfoManager::AddWritePermOfBroker(const std::string& broker_name) {
  std::unique_lock lock(mu_);
  int32_t n = OperateWritePermLocked(broker_name, /*wipe=*/false);
  Log()->info("add write perm of broker {}: {} topics", broker_name, n);
  return n;
}

void RouteInfoManager::DeleteTopic(const std::string& topic,
                                   const std::optional<std::string>& cluster_name) {
  std::unique_lock lock(mu_);
  auto t = topic_queue_table_.find(topic);
  if (t == topic_queue_table_.end()) return;
  if (!cluster_name || cluster_name->empty()) {
    topic_queue_table_.erase(t);
    Log()->info("topic {} deleted", topic);
    return;
  }
  auto c = cluster_addr_table_.find(*cluster_name);
  if (c == cluster_addr_table_.end()) return;
  for (const std::string& broker_name : c->second) t->second.erase(broker_name);
  if (t->second.empty()) topic_queue_table_.erase(t);
  Log()->info("topic {} deleted from cluster {}", topic, *cluster_name);
}

bool RouteInfoManager::IsBrokerTopicConfigChanged(const std::string& cluster_name,
                                                  const std::string& broker_addr,
                                                  const protocol::DataVersion& version) const {
  std::shared_lock lock(mu_);
  auto live = broker_live_table_.find(BrokerAddrKey{cluster_name, broker_addr});
  return live == broker_live_table_.end() || !(live->second.data_version == version);
}

std::optional<protocol::DataVersion> RouteInfoManager::QueryBrokerDataVersion(
    const std::string& cluster_name, const std::string& broker_addr) const {
  std::shared_lock lock(mu_);
  auto live = broker_live_table_.find(BrokerAddrKey{cluster_name, broker_addr});
  if (live == broker_live_table_.end()) return std::nullopt;
  return live->second.data_version;
}

void RouteInfoManager::UpdateBrokerInfoUpdateTimestamp(const std::string& cluster_name,
                                                       const std::string& broker_addr) {
  std::unique_lock lock(mu_);
  auto live = broker_live_table_.find(BrokerAddrKey{cluster_name, broker_addr});
  if (live != broker_live_table_.end()) live->second.last_update_millis = clock_->NowMillis();
}

std::vector<ChannelId> RouteInfoManager::ScanNotActiveBroker() {
  std::unique_lock lock(mu_);
  int64_t now = clock_->NowMillis();
  std::vector<BrokerAddrKey> expired;
  std::vector<ChannelId> channels;
  for (const auto& [key, info] : broker_live_table_) {
    if (info.last_update_millis + info.timeout_millis < now) {
      Log()->warn("broker {} (cluster {}) not seen for {} ms (timeout {} ms); removing",
                  key.second, key.first, now - info.last_update_millis, info.timeout_millis);
      expired.push_back(key);
      if (info.channel != 0) channels.push_back(info.channel);
    }
  }
  for (const BrokerAddrKey& key : expired) RemoveBrokerAddrLocked(key);
  return channels;
}

void RouteInfoManager::OnChannelDestroy(ChannelId channel) {
  if (channel == 0) return;
  std::unique_lock lock(mu_);
  std::vector<BrokerAddrKey> gone;
  for (const auto& [key, info] : broker_live_table_) {
    if (info.channel == channel) gone.push_back(key);
  }
  for (const BrokerAddrKey& key : gone) {
    Log()->info("connection of broker {} (cluster {}) closed; removing", key.second, key.first);
    RemoveBrokerAddrLocked(key);
  }
}

size_t RouteInfoManager::LiveBrokerCount() const {
  std::shared_lock lock(mu_);
  return broker_live_table_.size();
}

}  // namespace apogee::namesrv
