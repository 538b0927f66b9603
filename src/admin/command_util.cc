#include "admin/command_util.h"

#include <cstdio>
#include <ctime>

#include "base/string_util.h"
#include "protocol/json_util.h"
#include "protocol/mix_all.h"
#include "protocol/perm_name.h"

namespace apogee::admin {

Result<std::vector<std::string>> TargetBrokers(const ParsedOptions& options, MQAdminClient* admin,
                                               const std::string& broker_flag,
                                               const std::string& cluster_flag) {
  if (options.Has(broker_flag)) return std::vector<std::string>{options.Get(broker_flag)};
  if (options.Has(cluster_flag)) {
    APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> masters,
                            admin->MasterAddrsOfCluster(options.Get(cluster_flag)));
    if (masters.empty()) {
      return Status::NotFound("cluster " + options.Get(cluster_flag) + " has no master broker");
    }
    return masters;
  }
  return Status::InvalidArgument("give a broker (--" + broker_flag + ") or a cluster (--" +
                                 cluster_flag + ")");
}

std::string TopicConfigToString(const protocol::TopicConfig& c) {
  std::string attrs = "{";
  for (const auto& [k, v] : c.attributes) {
    if (attrs.size() > 1) attrs += ", ";
    attrs += k + "=" + v;
  }
  attrs += "}";
  return "TopicConfig [topicName=" + c.topic_name +
         ", readQueueNums=" + std::to_string(c.read_queue_nums) +
         ", writeQueueNums=" + std::to_string(c.write_queue_nums) +
         ", perm=" + protocol::PermToString(c.perm) + ", topicFilterType=" + c.topic_filter_type +
         ", topicSysFlag=" + std::to_string(c.topic_sys_flag) +
         ", order=" + (c.order ? "true" : "false") + ", attributes=" + attrs + "]";
}

Result<std::map<std::string, std::string>> ParseAttributes(std::string_view text) {
  std::map<std::string, std::string> out;
  for (const std::string& raw : SplitString(text, ',', true)) {
    std::string piece(TrimWhitespace(raw));
    if (piece.empty()) continue;
    if (piece[0] == '+') {
      size_t eq = piece.find('=');
      if (eq == std::string::npos || eq == 1) {
        return Status::InvalidArgument("attribute '" + piece + "' wants the form +key=value");
      }
      out[piece.substr(0, eq)] = piece.substr(eq + 1);
    } else if (piece[0] == '-') {
      if (piece.size() == 1 || piece.find('=') != std::string::npos) {
        return Status::InvalidArgument("attribute '" + piece + "' wants the form -key");
      }
      out[piece] = "";
    } else {
      return Status::InvalidArgument("attribute '" + piece +
                                     "' must start with + (set) or - (delete)");
    }
  }
  return out;
}

std::string PrettyJson(std::string_view json) {
  protocol::json::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError()) return std::string(json);
  protocol::json::StringBuffer buf;
  protocol::json::PrettyWriterTo<protocol::json::StringBuffer> w(buf);
  w.SetIndent(' ', 2);
  doc.Accept(w);
  return buf.GetString();
}

Result<int64_t> ParseTimestampArg(std::string_view text, int64_t now_ms) {
  std::string s(TrimWhitespace(text));
  if (s == "now") return now_ms;
  if (std::optional<int64_t> v = ParseInt64(s)) return *v;
  int year, month, day, hour, minute, second, millis;
  char tail;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2d#%2d:%2d:%2d:%3d%c", &year, &month, &day, &hour, &minute,
                  &second, &millis, &tail) == 7) {
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    tm.tm_isdst = -1;
    std::time_t t = std::mktime(&tm);
    if (t != static_cast<std::time_t>(-1)) return static_cast<int64_t>(t) * 1000 + millis;
  }
  return Status::InvalidArgument("timestamp '" + s +
                                 "' is neither now, milliseconds, nor yyyy-MM-dd#HH:mm:ss:SSS");
}

Result<std::map<std::string, std::string>> MastersForGroup(MQAdminClient* admin, const std::string& group) {
  auto masters = admin->MasterAddrsOfTopic(protocol::RetryTopic(group));
  if (masters.ok() || !masters.status().IsNotFound()) return masters;
  APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, admin->GetBrokerClusterInfo());
  std::map<std::string, std::string> all;
  for (const auto& [name, data] : info.broker_addr_table) {
    auto m = data.broker_addrs.find(protocol::kMasterId);
    if (m != data.broker_addrs.end()) all[name] = m->second;
  }
  return all;
}

Result<std::string> BrokerNameOfAddr(MQAdminClient* admin, std::string_view addr) {
  APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, admin->GetBrokerClusterInfo());
  for (const auto& [name, data] : info.broker_addr_table) {
    for (const auto& [id, a] : data.broker_addrs) {
      if (a == addr) return name;
    }
  }
  return Status::NotFound("no broker with address " + std::string(addr) + " is registered");
}

}  // namespace apogee::admin
