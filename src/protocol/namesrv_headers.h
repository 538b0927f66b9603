// Custom headers of the NameServer requests (docs/protocol/remoting.md §5.1; Java classes in
// RQ:rp/header/namesrv/ unless noted). Each is declared once; see custom_header.h for the
// codec rules. Requests with no header fields (GET_BROKER_CLUSTER_INFO,
// GET_ALL_TOPIC_LIST_FROM_NAMESERVER, GET_NAMESRV_CONFIG, UPDATE_NAMESRV_CONFIG, the
// system/unit topic lists) have no struct here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "protocol/custom_header.h"

namespace apogee::protocol {

// REGISTER_BROKER (103). The body is a RegisterBrokerBody, zlib-compressed when
// `compressed`; bodyCrc32 = CRC32(body) & 0x7FFFFFFF, 0 = not checked.
struct RegisterBrokerRequestHeader {
  std::string broker_name;
  std::string broker_addr;
  std::string cluster_name;
  std::string ha_server_addr;
  int64_t broker_id = 0;
  std::optional<int64_t> heartbeat_timeout_millis;  // 5.x
  std::optional<bool> enable_acting_master;         // 5.x
  bool compressed = false;
  int32_t body_crc32 = 0;

  static constexpr auto Fields() {
    using H = RegisterBrokerRequestHeader;
    return std::make_tuple(
        Required("brokerName", &H::broker_name), Required("brokerAddr", &H::broker_addr),
        Required("clusterName", &H::cluster_name), Required("haServerAddr", &H::ha_server_addr),
        Required("brokerId", &H::broker_id),
        Optional("heartbeatTimeoutMillis", &H::heartbeat_timeout_millis),
        Optional("enableActingMaster", &H::enable_acting_master),
        Optional("compressed", &H::compressed), Optional("bodyCrc32", &H::body_crc32));
  }
};

// Filled only for a slave whose master (id 0) is registered.
struct RegisterBrokerResponseHeader {
  std::optional<std::string> ha_server_addr;
  std::optional<std::string> master_addr;

  static constexpr auto Fields() {
    using H = RegisterBrokerResponseHeader;
    return std::make_tuple(Optional("haServerAddr", &H::ha_server_addr),
                           Optional("masterAddr", &H::master_addr));
  }
};

// UNREGISTER_BROKER (104).
struct UnRegisterBrokerRequestHeader {
  std::string broker_name;
  std::string broker_addr;
  std::string cluster_name;
  int64_t broker_id = 0;

  static constexpr auto Fields() {
    using H = UnRegisterBrokerRequestHeader;
    return std::make_tuple(
        Required("brokerName", &H::broker_name), Required("brokerAddr", &H::broker_addr),
        Required("clusterName", &H::cluster_name), Required("brokerId", &H::broker_id));
  }
};

// GET_ROUTEINFO_BY_TOPIC (105). acceptStandardJsonOnly (since 4.9.4) asks for quoted map
// keys in the route body regardless of the request version (§7.9).
struct GetRouteInfoRequestHeader {
  std::string topic;
  std::optional<bool> accept_standard_json_only;

  static constexpr auto Fields() {
    using H = GetRouteInfoRequestHeader;
    return std::make_tuple(Required("topic", &H::topic),
                           Optional("acceptStandardJsonOnly", &H::accept_standard_json_only));
  }
};

// PUT_KV_CONFIG (100). `namespace` is a C++ keyword, hence namespace_name.
struct PutKVConfigRequestHeader {
  std::string namespace_name;
  std::string key;
  std::string value;

  static constexpr auto Fields() {
    using H = PutKVConfigRequestHeader;
    return std::make_tuple(Required("namespace", &H::namespace_name), Required("key", &H::key),
                           Required("value", &H::value));
  }
};

// GET_KV_CONFIG (101).
struct GetKVConfigRequestHeader {
  std::string namespace_name;
  std::string key;

  static constexpr auto Fields() {
    using H = GetKVConfigRequestHeader;
    return std::make_tuple(Required("namespace", &H::namespace_name), Required("key", &H::key));
  }
};

struct GetKVConfigResponseHeader {
  std::optional<std::string> value;

  static constexpr auto Fields() {
    return std::make_tuple(Optional("value", &GetKVConfigResponseHeader::value));
  }
};

// DELETE_KV_CONFIG (102).
struct DeleteKVConfigRequestHeader {
  std::string namespace_name;
  std::string key;

  static constexpr auto Fields() {
    using H = DeleteKVConfigRequestHeader;
    return std::make_tuple(Required("namespace", &H::namespace_name), Required("key", &H::key));
  }
};

// GET_KVLIST_BY_NAMESPACE (219). The answer is a KVTable body.
struct GetKVListByNamespaceRequestHeader {
  std::string namespace_name;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("namespace", &GetKVListByNamespaceRequestHeader::namespace_name));
  }
};

// QUERY_DATA_VERSION (322). Body: the broker's DataVersion.
struct QueryDataVersionRequestHeader {
  std::string broker_name;
  std::string broker_addr;
  std::string cluster_name;
  int64_t broker_id = 0;

  static constexpr auto Fields() {
    using H = QueryDataVersionRequestHeader;
    return std::make_tuple(
        Required("brokerName", &H::broker_name), Required("brokerAddr", &H::broker_addr),
        Required("clusterName", &H::cluster_name), Required("brokerId", &H::broker_id));
  }
};

struct QueryDataVersionResponseHeader {
  bool changed = false;

  static constexpr auto Fields() {
    return std::make_tuple(Required("changed", &QueryDataVersionResponseHeader::changed));
  }
};

// BROKER_HEARTBEAT (904, 5.x). Java spells the timeout "heartbeatTimeoutMills" here.
struct BrokerHeartbeatRequestHeader {
  std::string cluster_name;
  std::string broker_addr;
  std::string broker_name;
  std::optional<int64_t> broker_id;
  std::optional<int32_t> epoch;
  std::optional<int64_t> max_offset;
  std::optional<int64_t> confirm_offset;
  std::optional<int64_t> heartbeat_timeout_mills;
  std::optional<int32_t> election_priority;

  static constexpr auto Fields() {
    using H = BrokerHeartbeatRequestHeader;
    return std::make_tuple(
        Required("clusterName", &H::cluster_name), Required("brokerAddr", &H::broker_addr),
        Required("brokerName", &H::broker_name), Optional("brokerId", &H::broker_id),
        Optional("epoch", &H::epoch), Optional("maxOffset", &H::max_offset),
        Optional("confirmOffset", &H::confirm_offset),
        Optional("heartbeatTimeoutMills", &H::heartbeat_timeout_mills),
        Optional("electionPriority", &H::election_priority));
  }
};

// GET_TOPICS_BY_CLUSTER (224); RQ:rp/header/GetTopicsByClusterRequestHeader.java.
struct GetTopicsByClusterRequestHeader {
  std::string cluster;

  static constexpr auto Fields() {
    return std::make_tuple(Required("cluster", &GetTopicsByClusterRequestHeader::cluster));
  }
};

// DELETE_TOPIC_IN_NAMESRV (216). Without clusterName the topic goes from every broker.
struct DeleteTopicFromNamesrvRequestHeader {
  std::string topic;
  std::optional<std::string> cluster_name;

  static constexpr auto Fields() {
    using H = DeleteTopicFromNamesrvRequestHeader;
    return std::make_tuple(Required("topic", &H::topic), Optional("clusterName", &H::cluster_name));
  }
};

// REGISTER_TOPIC_IN_NAMESRV (217, 5.x). Body: TopicRouteData whose queueDatas are merged.
struct RegisterTopicRequestHeader {
  std::string topic;

  static constexpr auto Fields() {
    return std::make_tuple(Required("topic", &RegisterTopicRequestHeader::topic));
  }
};

// WIPE_WRITE_PERM_OF_BROKER (205).
struct WipeWritePermOfBrokerRequestHeader {
  std::string broker_name;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("brokerName", &WipeWritePermOfBrokerRequestHeader::broker_name));
  }
};

struct WipeWritePermOfBrokerResponseHeader {
  int32_t wipe_topic_count = 0;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("wipeTopicCount", &WipeWritePermOfBrokerResponseHeader::wipe_topic_count));
  }
};

// ADD_WRITE_PERM_OF_BROKER (327).
struct AddWritePermOfBrokerRequestHeader {
  std::string broker_name;

  static constexpr auto Fields() {
    return std::make_tuple(Required("brokerName", &AddWritePermOfBrokerRequestHeader::broker_name));
  }
};

struct AddWritePermOfBrokerResponseHeader {
  int32_t add_topic_count = 0;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("addTopicCount", &AddWritePermOfBrokerResponseHeader::add_topic_count));
  }
};

// GET_BROKER_MEMBER_GROUP (901, 5.x).
struct GetBrokerMemberGroupRequestHeader {
  std::string cluster_name;
  std::string broker_name;

  static constexpr auto Fields() {
    using H = GetBrokerMemberGroupRequestHeader;
    return std::make_tuple(Required("clusterName", &H::cluster_name),
                           Required("brokerName", &H::broker_name));
  }
};

}  // namespace apogee::protocol
