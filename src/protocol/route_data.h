// Route bodies (docs/protocol/remoting.md §7.1, §7.2, §7.9): TopicRouteData (the
// GET_ROUTEINFO_BY_TOPIC answer) and ClusterInfo (GET_BROKER_CLUSTER_INFO).
//
// The brokerAddrs map is keyed by broker id. fastjson writes such keys bare
// ({0:"10.0.0.5:10911"}), which is not RFC JSON; the Java NameServer writes them quoted
// only when the request version is >= 401 or acceptStandardJsonOnly is set, and Go clients
// <= 2.1.1 break on quoted keys. RouteMapKeyStyle() states that rule; the encoders take the
// style as an option. Output is compact with keys sorted, and always has the queueDatas /
// brokerDatas arrays, filterServerTable and a brokerAddrs object in every BrokerData (Go
// slices the brokerAddrs text, ali-ons sorts both arrays).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::protocol {

enum class MapKeyStyle {
  kBareNumbers,  // fastjson's default: {0:"addr"}
  kQuoted,       // standard JSON: {"0":"addr"}
};

// The V4_9_4 ordinal: from this request version on, the route is sent as standard JSON.
inline constexpr int32_t kStandardJsonRouteVersion = 401;

// Java's NameServer rule for GET_ROUTEINFO_BY_TOPIC.
MapKeyStyle RouteMapKeyStyle(int32_t request_version, bool accept_standard_json_only);

// RQ:rp/route/QueueData.java: one per broker name serving the topic.
struct QueueData {
  std::string broker_name;
  int32_t read_queue_nums = 0;
  int32_t write_queue_nums = 0;
  int32_t perm = 0;
  // Java called it topicSynFlag before 4.9.0; both names are read, topicSysFlag is written.
  int32_t topic_sys_flag = 0;

  bool operator==(const QueueData&) const = default;
};

// RQ:rp/route/BrokerData.java: one broker set (a master and its slaves).
struct BrokerData {
  std::string cluster;
  std::string broker_name;
  std::map<int64_t, std::string> broker_addrs;  // broker id -> "ip:port"
  bool enable_acting_master = false;            // 5.x
  std::optional<std::string> zone_name;         // 5.x

  bool operator==(const BrokerData&) const = default;
};

struct TopicRouteData {
  std::optional<std::string> order_topic_conf;  // "brokerName:queueNum;..."
  std::vector<QueueData> queue_datas;
  std::vector<BrokerData> broker_datas;
  std::map<std::string, std::vector<std::string>> filter_server_table;

  bool operator==(const TopicRouteData&) const = default;
};

std::string EncodeTopicRouteData(const TopicRouteData& route, MapKeyStyle style);
Result<TopicRouteData> DecodeTopicRouteData(std::string_view json);

// RQ:rp/body/ClusterInfo.java. Java always writes bare keys here.
struct ClusterInfo {
  std::map<std::string, BrokerData> broker_addr_table;              // broker name -> data
  std::map<std::string, std::set<std::string>> cluster_addr_table;  // cluster -> broker names

  bool operator==(const ClusterInfo&) const = default;
};

std::string EncodeClusterInfo(const ClusterInfo& info,
                              MapKeyStyle style = MapKeyStyle::kBareNumbers);
Result<ClusterInfo> DecodeClusterInfo(std::string_view json);

}  // namespace apogee::protocol
