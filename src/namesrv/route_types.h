// What the NameServer keeps about a registration beyond the protocol's own route types:
// RouteInfoManager stores and returns protocol::QueueData, BrokerData, TopicRouteData,
// ClusterInfo and TopicList (protocol/route_data.h, topic_list.h) directly, and the
// processors encode them as they are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/topic_config.h"

namespace apogee::namesrv {

// A connection as the remoting layer identifies it; 0 means "no connection".
using ChannelId = uint64_t;

// Everything one REGISTER_BROKER carries.
struct BrokerRegistration {
  std::string cluster_name;
  std::string broker_addr;
  std::string broker_name;
  int64_t broker_id = 0;
  std::string ha_server_addr;
  // From the 5.x header heartbeatTimeoutMillis; else the configured default.
  std::optional<int64_t> heartbeat_timeout_millis;
  protocol::DataVersion data_version;
  std::vector<protocol::TopicConfig> topic_configs;
  std::vector<std::string> filter_server_list;
  ChannelId channel = 0;
};

// What a registering slave learns about its master (empty for a master, or when the
// master is not registered).
struct RegisterBrokerOutcome {
  std::string master_addr;
  std::string ha_server_addr;
};

}  // namespace apogee::namesrv
