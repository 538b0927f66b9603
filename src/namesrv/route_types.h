// The NameServer's own view of route data: what RouteInfoManager stores and returns.
// Processors convert these to the protocol module's JSON bodies (TopicRouteData,
// ClusterInfo, TopicList), so the tables do not depend on any wire encoding.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "protocol/perm_name.h"

namespace apogee::namesrv {

// A connection as the remoting layer identifies it; 0 means "no connection".
using ChannelId = uint64_t;

// Java's DataVersion: equal when all three numbers are.
struct DataVersionInfo {
  int64_t state_version = 0;
  int64_t timestamp = 0;
  int64_t counter = 0;
  bool operator==(const DataVersionInfo&) const = default;
};

// One topic of a broker's registration (the fields of TopicConfig the NameServer uses).
struct TopicConfigInfo {
  std::string topic_name;
  int32_t read_queue_nums = 16;
  int32_t write_queue_nums = 16;
  int32_t perm = protocol::kPermReadWrite;
  int32_t topic_sys_flag = 0;
};

// Java's QueueData: how one broker set serves one topic.
struct QueueDataInfo {
  std::string broker_name;
  int32_t read_queue_nums = 0;
  int32_t write_queue_nums = 0;
  int32_t perm = 0;
  int32_t topic_sys_flag = 0;
  bool operator==(const QueueDataInfo&) const = default;
};

// Java's BrokerData: the addresses of one broker set (id 0 = master).
struct BrokerDataInfo {
  std::string cluster;
  std::string broker_name;
  std::map<int64_t, std::string> broker_addrs;
  bool operator==(const BrokerDataInfo&) const = default;
};

// Everything one REGISTER_BROKER carries.
struct BrokerRegistration {
  std::string cluster_name;
  std::string broker_addr;
  std::string broker_name;
  int64_t broker_id = 0;
  std::string ha_server_addr;
  // From the 5.x header heartbeatTimeoutMillis; else the configured default.
  std::optional<int64_t> heartbeat_timeout_millis;
  DataVersionInfo data_version;
  std::vector<TopicConfigInfo> topic_configs;
  std::vector<std::string> filter_server_list;
  ChannelId channel = 0;
};

// What a registering slave learns about its master (empty for a master, or when the
// master is not registered).
struct RegisterBrokerOutcome {
  std::string master_addr;
  std::string ha_server_addr;
};

// Java's TopicRouteData, minus orderTopicConf (the processor adds it from KV config).
struct TopicRoute {
  std::vector<QueueDataInfo> queue_datas;    // sorted by broker name
  std::vector<BrokerDataInfo> broker_datas;  // sorted by broker name
  std::map<std::string, std::vector<std::string>> filter_server_table;  // broker addr -> servers
};

// Java's ClusterInfo.
struct ClusterInfoData {
  std::map<std::string, BrokerDataInfo> broker_addr_table;
  std::map<std::string, std::set<std::string>> cluster_addr_table;
};

// Java's TopicList.
struct TopicListData {
  std::vector<std::string> topics;
  std::optional<std::string> broker_addr;
};

}  // namespace apogee::namesrv
