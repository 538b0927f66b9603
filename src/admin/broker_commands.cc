#include "admin/broker_commands.h"

#include <cstdio>

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
}

}  // namespace apogee::admin
