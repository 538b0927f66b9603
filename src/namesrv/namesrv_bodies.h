// JSON (and zlib) bodies of the NameServer requests, between the wire and the
// RouteInfoManager's own structs (route_types.h).
//
// The protocol module is to own these bodies (TopicRouteData, ClusterInfo, RegisterBrokerBody,
// ...); until its typed bodies land, the NameServer encodes and decodes them here, in one
// file, so switching over touches nothing else.
//
// Encoding follows fastjson as Java writes it: compact, keys sorted, nulls omitted.
// Map keys that are Java Longs (BrokerData.brokerAddrs) come out bare ({0:"ip:port"})
// unless `standard_json` asks for them quoted (protocol-remoting.md §7.9).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "namesrv/route_types.h"

namespace apogee::namesrv {

// RegisterBrokerBody (or, from brokers older than V3_0_11, a bare
// TopicConfigSerializeWrapper): what the NameServer keeps of it.
struct RegisterBrokerBodyData {
  DataVersionInfo data_version;
  std::vector<TopicConfigInfo> topic_configs;
  std::vector<std::string> filter_server_list;
};

// {"topicConfigSerializeWrapper":{"topicConfigTable":{...},"dataVersion":{...}},
//  "filterServerList":[...]}. Numbers may arrive as numeric strings (fastjson accepts
// them); unknown members are ignored. Corruption naming the member otherwise.
Result<RegisterBrokerBodyData> DecodeRegisterBrokerBodyJson(std::string_view json);
// {"topicConfigTable":{...},"dataVersion":{...}} (brokers before V3_0_11).
Result<RegisterBrokerBodyData> DecodeTopicConfigSerializeWrapperJson(std::string_view json);
// The zlib form sent with header compressed=true (§7.5): DataVersion JSON, topic configs
// in TopicConfig's space-separated text form, filter server list JSON. The static-topic
// mapping section that follows for brokers >= V5_0_0 is not needed and not read.
Result<RegisterBrokerBodyData> DecodeRegisterBrokerBodyCompressed(std::string_view bytes);
// Builds the compressed form (what a 4.9 broker with compressedRegister=true sends); used
// by tests and test clients.
std::string EncodeRegisterBrokerBodyCompressed(const RegisterBrokerBodyData& body);
std::string EncodeRegisterBrokerBodyJson(const RegisterBrokerBodyData& body);

Result<DataVersionInfo> DecodeDataVersionJson(std::string_view json);
std::string EncodeDataVersionJson(const DataVersionInfo& version);

// TopicRouteData. `order_topic_conf` is emitted when set.
std::string EncodeTopicRouteDataJson(const TopicRoute& route,
                                     const std::optional<std::string>& order_topic_conf,
                                     bool standard_json);
// ClusterInfo: always the legacy (bare key) form, as Java sends it.
std::string EncodeClusterInfoJson(const ClusterInfoData& info);
// TopicList {"brokerAddr":...,"topicList":[...]}.
std::string EncodeTopicListJson(const TopicListData& list);
// KVTable {"table":{...}}.
std::string EncodeKvTableJson(const std::map<std::string, std::string>& table);

// Appends `s` as a JSON string literal.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace apogee::namesrv
