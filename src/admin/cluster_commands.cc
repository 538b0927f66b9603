#include "admin/cluster_commands.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "admin/table_printer.h"
#include "base/string_util.h"

namespace apogee::admin {
namespace {

std::string Fmt(const char* format, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), format, args...);
  return buf;
}

std::string Get(const protocol::KVTable& kv, const std::string& key, const std::string& fallback = "") {
  auto it = kv.table.find(key);
  return it == kv.table.end() ? fallback : it->second;
}

double FirstNumber(const std::string& text) {
  auto pieces = SplitString(text, ' ', true);
  if (pieces.empty()) return 0;
  return std::strtod(pieces[0].c_str(), nullptr);
}

Status ClusterList(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, admin->GetBrokerClusterInfo());
  std::set<std::string> clusters;
  if (o.Has("clusterName")) {
    if (!info.cluster_addr_table.count(o.Get("clusterName"))) {
      return Status::NotFound("cluster " + o.Get("clusterName") + " is not known to the NameServer");
    }
    clusters.insert(o.Get("clusterName"));
  } else {
    for (const auto& [name, _] : info.cluster_addr_table) clusters.insert(name);
  }
  TablePrinter table({{"#Cluster Name", 22},
                      {"#Broker Name", 22},
                      {"#BID", 4},
                      {"#Addr", 22, true, " "},
                      {"#Version", 16},
                      {"#InTPS(LOAD)", 16, false},
                      {"#OutTPS(LOAD)", 30, false},
                      {"#Timer(Progress)", 22},
                      {"#PCWait(ms)", 11, false},
                      {"#Hour", 12},
                      {"#SPACE", 8},
                      {"#ACTIVATED", 10, false}});
  int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  for (const std::string& cluster : clusters) {
    for (const std::string& broker_name : info.cluster_addr_table[cluster]) {
      auto b = info.broker_addr_table.find(broker_name);
      if (b == info.broker_addr_table.end()) continue;
      for (const auto& [id, addr] : b->second.broker_addrs) {
        protocol::KVTable kv;
        auto stats = admin->GetBrokerRuntimeInfo(addr);
        if (stats.ok()) kv = std::move(*stats);
        double hour = 0;
        std::string earliest = Get(kv, "earliestMessageTimeStamp");
        if (auto ms = ParseInt64(earliest); ms && *ms > 0) hour = (now_ms - *ms) / 3'600'000.0;
        std::string timer = Fmt("%lld-%lld(%.1fw, %.1f, %.1f)",
                                static_cast<long long>(ParseInt64(Get(kv, "timerReadBehind")).value_or(0)),
                                static_cast<long long>(ParseInt64(Get(kv, "timerOffsetBehind")).value_or(0)),
                                ParseInt64(Get(kv, "timerCongestNum")).value_or(0) / 10000.0,
                                std::strtod(Get(kv, "timerEnqueueTps", "0").c_str(), nullptr),
                                std::strtod(Get(kv, "timerDequeueTps", "0").c_str(), nullptr));
        table.AddRow({cluster, broker_name, std::to_string(id), addr,
                      stats.ok() ? Get(kv, "brokerVersionDesc") : "(unreachable)",
                      Fmt("%9.2f(%s,%sms)", FirstNumber(Get(kv, "putTps")),
                          Get(kv, "sendThreadPoolQueueSize").c_str(),
                          Get(kv, "sendThreadPoolQueueHeadWaitTimeMills").c_str()),
                      Fmt("%9.2f(%s,%sms|%s,%sms)", FirstNumber(Get(kv, "getTransferedTps")),
                          Get(kv, "pullThreadPoolQueueSize").c_str(),
                          Get(kv, "pullThreadPoolQueueHeadWaitTimeMills").c_str(),
                          Get(kv, "ackThreadPoolQueueSize", "N").c_str(),
                          Get(kv, "ackThreadPoolQueueHeadWaitTimeMills", "N").c_str()),
                      timer, Get(kv, "pageCacheLockTimeMills"), Fmt("%2.2f", hour),
                      Fmt("%.4f", std::strtod(Get(kv, "commitLogDiskRatio", "0").c_str(), nullptr)),
                      ParseJavaBoolean(Get(kv, "brokerActive")) ? "true" : "false"});
      }
    }
  }
  table.Print(ctx.out());
  return Status::OK();
}

}  // namespace

void RegisterClusterCommands(CommandRegistry* r) {
  r->Add({{"clusterList",
           "List cluster infos.",
           {{"c", "clusterName", true, false, "which cluster"}}},
          ClusterList});
}

}  // namespace apogee::admin
