#include "admin/broker_commands.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <fmt/format.h>

#include "admin/command_util.h"
#include "admin/table_printer.h"

namespace apogee::admin {
namespace {

Status BrokerStatus(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> brokers, TargetBrokers(o, admin));
  bool prefix = brokers.size() > 1 || o.Has("clusterName");
  for (const std::string& addr : brokers) {
    APOGEE_ASSIGN_OR_RETURN(protocol::KVTable kv, admin->GetBrokerRuntimeInfo(addr));
    for (const auto& [k, v] : kv.table) {  // sorted, as Java's TreeMap
      if (prefix) ctx.out() << Pad(addr, 24, true) << " ";
      ctx.out() << Pad(k, 32, true) << ": " << v << "\n";
    }
  }
  return Status::OK();
}

Status GetBrokerConfig(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> brokers, TargetBrokers(o, admin));
  for (const std::string& addr : brokers) {
    APOGEE_ASSIGN_OR_RETURN(auto config, admin->GetBrokerConfig(addr));
    if (brokers.size() > 1) ctx.out() << "============" << addr << "============\n";
    if (config.empty()) {
      ctx.out() << "Broker[" << addr << "] has no config property!\n";
      continue;
    }
    for (const auto& [k, v] : config) ctx.out() << Pad(k, 50, true) << "=  " << v << "\n";
    ctx.out() << "\n";
  }
  return Status::OK();
}

Status UpdateBrokerConfig(const ParsedOptions& o, CommandContext& ctx) {
  std::string key = o.Get("key");
  std::string value = o.Get("value");
  if (key.empty()) return Status::InvalidArgument("config key (-k) must not be empty");
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  std::vector<std::string> brokers;
  APOGEE_ASSIGN_OR_RETURN(bool all, o.GetBool("updateAllBroker", false));
  if (all && o.Has("clusterName") && !o.Has("brokerAddr")) {
    // Slaves too: every member of every broker set in the cluster.
    APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, admin->GetBrokerClusterInfo());
    auto c = info.cluster_addr_table.find(o.Get("clusterName"));
    if (c == info.cluster_addr_table.end()) {
      return Status::NotFound("cluster " + o.Get("clusterName") + " is not known to the NameServer");
    }
    for (const std::string& name : c->second) {
      for (const auto& [id, addr] : info.broker_addr_table[name].broker_addrs) brokers.push_back(addr);
    }
  } else {
    APOGEE_ASSIGN_OR_RETURN(brokers, TargetBrokers(o, admin));
  }
  for (const std::string& addr : brokers) {
    APOGEE_RETURN_IF_ERROR(admin->UpdateBrokerConfig(addr, {{key, value}}));
    ctx.out() << "update broker config success, " << addr << "\n";
  }
  return Status::OK();
}

// Java's BrokerConsumeStatsSubCommad: one row per queue of every group's ConsumeStats at
// one broker (queues in MessageQueue order), only queues the group has consumed from
// (lastTimestamp > 0) and whose lag is at least -l; then the broker's total lag.
Status BrokerConsumeStats(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(int64_t timeout_ms, o.GetInt64("timeoutMillis", 50000));
  APOGEE_ASSIGN_OR_RETURN(int64_t diff_level, o.GetInt64("level", 0));
  if (timeout_ms <= 0) return Status::InvalidArgument("brokerConsumeStats: -t must be positive");
  // Boolean.parseBoolean: "true" in any case is true, anything else false.
  std::string order = o.Get("order");
  std::transform(order.begin(), order.end(), order.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string broker_addr = o.Get("brokerAddr");
  APOGEE_ASSIGN_OR_RETURN(protocol::ConsumeStatsList list,
                          admin->FetchConsumeStatsInBroker(broker_addr, order == "true",
                                                           std::chrono::milliseconds(timeout_ms)));
  std::ostream& out = ctx.out();
  out << fmt::format("{:<32}  {:<32}  {:<32}  {:<4}  {:<20}  {:<20}  {:<20}  {}\n", "#Topic", "#Group",
                     "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff", "#LastTime");
  for (const auto& [group, stats_of_topics] : list.groups) {
    for (const protocol::ConsumeStats& stats : stats_of_topics) {
      for (const auto& [mq, w] : stats.offset_table) {  // sorted as Collections.sort(mqList)
        const int64_t diff = w.broker_offset - w.consumer_offset;
        if (diff < diff_level || w.last_timestamp <= 0) continue;
        // UtilAll.frontStringAtLeast: topic cut at 64, broker name at 32 characters.
        out << fmt::format("{:<64}  {:<32}  {:<32}  {:<4}  {:<20}  {:<20}  {:<20}  {}\n",
                           mq.topic.substr(0, 64), group, mq.broker_name.substr(0, 32), mq.queue_id,
                           w.broker_offset, w.consumer_offset, diff, FormatDate(w.last_timestamp));
      }
    }
  }
  out << fmt::format("\nDiff Total: {}\n", list.total_diff);
  return Status::OK();
}

}  // namespace

void RegisterBrokerCommands(CommandRegistry* r) {
  r->Add({{"brokerStatus",
           "Fetch broker runtime status data.",
           {{"b", "brokerAddr", true, false, "Broker address"},
            {"c", "clusterName", true, false, "which cluster"}}},
          BrokerStatus});
  r->Add({{"getBrokerConfig",
           "Get broker config by cluster or special broker.",
           {{"b", "brokerAddr", true, false, "get which broker"},
            {"c", "clusterName", true, false, "get which cluster"}}},
          GetBrokerConfig});
  r->Add({{"updateBrokerConfig",
           "Update broker's config.",
           {{"b", "brokerAddr", true, false, "update which broker"},
            {"c", "clusterName", true, false, "update which cluster"},
            {"a", "updateAllBroker", true, false, "update all brokers include slave"},
            {"k", "key", true, true, "config key"},
            {"v", "value", true, true, "config value"}}},
          UpdateBrokerConfig});
  r->Add({{"brokerConsumeStats",
           "Fetch broker consume stats data",
           {{"b", "brokerAddr", true, true, "Broker address"},
            {"t", "timeoutMillis", true, false, "request timeout Millis"},
            {"l", "level", true, false, "threshold of print diff"},
            {"o", "order", true, false, "order topic"}}},
          BrokerConsumeStats});
}

}  // namespace apogee::admin
