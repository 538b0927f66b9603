// Conversions between the protocol module's NameServer bodies (TopicRouteData,
// ClusterInfo, TopicList, RegisterBrokerBody, DataVersion) and the RouteInfoManager's own
// structs (route_types.h). The JSON and zlib codecs live in protocol; this file only maps
// fields, so the route tables stay free of any wire encoding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "namesrv/route_types.h"
#include "protocol/register_broker_body.h"
#include "protocol/route_data.h"
#include "protocol/topic_config.h"
#include "protocol/topic_list.h"

namespace apogee::namesrv {

// What the NameServer keeps of a REGISTER_BROKER body.
struct RegisterBrokerBodyData {
  DataVersionInfo data_version;
  std::vector<TopicConfigInfo> topic_configs;
  std::vector<std::string> filter_server_list;
};

// Decodes a REGISTER_BROKER body as Java does: empty = no topics and DataVersion {0,0};
// brokers older than V3_0_11 send a bare TopicConfigSerializeWrapper; otherwise a
// RegisterBrokerBody, zlib-compressed when the header says so. Errors name the problem.
Result<RegisterBrokerBodyData> DecodeRegisterBrokerBodyData(std::string_view body,
                                                            bool compressed,
                                                            int32_t broker_version);

DataVersionInfo FromProtocol(const protocol::DataVersion& v);
protocol::DataVersion ToProtocol(const DataVersionInfo& v);
std::vector<QueueDataInfo> FromProtocol(const std::vector<protocol::QueueData>& queue_datas);
protocol::TopicRouteData ToProtocol(const TopicRoute& route,
                                    std::optional<std::string> order_topic_conf);
protocol::ClusterInfo ToProtocol(const ClusterInfoData& info);
protocol::TopicList ToProtocol(const TopicListData& list);

}  // namespace apogee::namesrv
