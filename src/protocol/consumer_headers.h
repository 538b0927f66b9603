// Custom headers of the consumer -> broker requests (docs/protocol/remoting.md §5.3; Java
// classes in RQ:rp/header/). See custom_header.h for the codec rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "protocol/custom_header.h"

namespace apogee::protocol {

// PULL_MESSAGE (11) and LITE_PULL_MESSAGE (361). sysFlag bits are PullSysFlag
// (commit offset, suspend, subscription, class filter). Go sends subscription "" and
// subVersion 0; C++ omits expressionType (= TAG).
struct PullMessageRequestHeader {
  std::string consumer_group;
  std::string topic;
  int32_t queue_id = 0;
  int64_t queue_offset = 0;
  int32_t max_msg_nums = 0;
  int32_t sys_flag = 0;
  int64_t commit_offset = 0;
  int64_t suspend_timeout_millis = 0;
  std::optional<std::string> subscription;
  int64_t sub_version = 0;
  std::optional<std::string> expression_type;
  std::optional<int32_t> max_msg_bytes;                // 5.x
  std::optional<int32_t> request_source;               // 5.x
  std::optional<std::string> proxy_froward_client_id;  // 5.x; Java's spelling

  static constexpr auto Fields() {
    using H = PullMessageRequestHeader;
    return std::make_tuple(
        Required("consumerGroup", &H::consumer_group), Required("topic", &H::topic),
        Required("queueId", &H::queue_id), Required("queueOffset", &H::queue_offset),
        Required("maxMsgNums", &H::max_msg_nums), Required("sysFlag", &H::sys_flag),
        Required("commitOffset", &H::commit_offset),
        Required("suspendTimeoutMillis", &H::suspend_timeout_millis),
        Optional("subscription", &H::subscription), Required("subVersion", &H::sub_version),
        Optional("expressionType", &H::expression_type), Optional("maxMsgBytes", &H::max_msg_bytes),
        Optional("requestSource", &H::request_source),
        Optional("proxyFrowardClientId", &H::proxy_froward_client_id));
  }
};

// Needed on every pull outcome (0, 19, 20, 21): clients jump to nextBeginOffset.
struct PullMessageResponseHeader {
  int64_t suggest_which_broker_id = 0;
  int64_t next_begin_offset = 0;
  int64_t min_offset = 0;
  int64_t max_offset = 0;
  std::optional<int64_t> offset_delta;    // 5.x
  std::optional<int32_t> topic_sys_flag;  // 5.x
  std::optional<int32_t> group_sys_flag;  // 5.x
  std::optional<int32_t> forbidden_type;  // 5.x

  static constexpr auto Fields() {
    using H = PullMessageResponseHeader;
    return std::make_tuple(
        Required("suggestWhichBrokerId", &H::suggest_which_broker_id),
        Required("nextBeginOffset", &H::next_begin_offset), Required("minOffset", &H::min_offset),
        Required("maxOffset", &H::max_offset), Optional("offsetDelta", &H::offset_delta),
        Optional("topicSysFlag", &H::topic_sys_flag), Optional("groupSysFlag", &H::group_sys_flag),
        Optional("forbiddenType", &H::forbidden_type));
  }
};

// QUERY_CONSUMER_OFFSET (14). Not found answers QUERY_NOT_FOUND (22).
struct QueryConsumerOffsetRequestHeader {
  std::string consumer_group;
  std::string topic;
  int32_t queue_id = 0;
  std::optional<bool> set_zero_if_not_found;  // 5.x

  static constexpr auto Fields() {
    using H = QueryConsumerOffsetRequestHeader;
    return std::make_tuple(Required("consumerGroup", &H::consumer_group),
                           Required("topic", &H::topic), Required("queueId", &H::queue_id),
                           Optional("setZeroIfNotFound", &H::set_zero_if_not_found));
  }
};

struct QueryConsumerOffsetResponseHeader {
  int64_t offset = 0;

  static constexpr auto Fields() {
    return std::make_tuple(Required("offset", &QueryConsumerOffsetResponseHeader::offset));
  }
};

// UPDATE_CONSUMER_OFFSET (15), usually oneway.
struct UpdateConsumerOffsetRequestHeader {
  std::string consumer_group;
  std::string topic;
  int32_t queue_id = 0;
  int64_t commit_offset = 0;

  static constexpr auto Fields() {
    using H = UpdateConsumerOffsetRequestHeader;
    return std::make_tuple(Required("consumerGroup", &H::consumer_group),
                           Required("topic", &H::topic), Required("queueId", &H::queue_id),
                           Required("commitOffset", &H::commit_offset));
  }
};

// GET_CONSUMER_LIST_BY_GROUP (38). Body of the answer: {"consumerIdList":[...]}.
struct GetConsumerListByGroupRequestHeader {
  std::string consumer_group;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("consumerGroup", &GetConsumerListByGroupRequestHeader::consumer_group));
  }
};

// SEARCH_OFFSET_BY_TIMESTAMP (29). boundaryType is the BoundaryType enum name.
struct SearchOffsetRequestHeader {
  std::string topic;
  int32_t queue_id = 0;
  int64_t timestamp = 0;
  std::optional<std::string> boundary_type;  // 5.x: "LOWER" (default) or "UPPER"

  static constexpr auto Fields() {
    using H = SearchOffsetRequestHeader;
    return std::make_tuple(Required("topic", &H::topic), Required("queueId", &H::queue_id),
                           Required("timestamp", &H::timestamp),
                           Optional("boundaryType", &H::boundary_type));
  }
};

struct SearchOffsetResponseHeader {
  int64_t offset = 0;

  static constexpr auto Fields() {
    return std::make_tuple(Required("offset", &SearchOffsetResponseHeader::offset));
  }
};

// GET_MAX_OFFSET (30).
struct GetMaxOffsetRequestHeader {
  std::string topic;
  int32_t queue_id = 0;
  bool committed = true;  // 5.x primitive, default true

  static constexpr auto Fields() {
    using H = GetMaxOffsetRequestHeader;
    return std::make_tuple(Required("topic", &H::topic), Required("queueId", &H::queue_id),
                           Optional("committed", &H::committed));
  }
};

struct GetMaxOffsetResponseHeader {
  int64_t offset = 0;

  static constexpr auto Fields() {
    return std::make_tuple(Required("offset", &GetMaxOffsetResponseHeader::offset));
  }
};

// GET_MIN_OFFSET (31).
struct GetMinOffsetRequestHeader {
  std::string topic;
  int32_t queue_id = 0;

  static constexpr auto Fields() {
    using H = GetMinOffsetRequestHeader;
    return std::make_tuple(Required("topic", &H::topic), Required("queueId", &H::queue_id));
  }
};

struct GetMinOffsetResponseHeader {
  int64_t offset = 0;

  static constexpr auto Fields() {
    return std::make_tuple(Required("offset", &GetMinOffsetResponseHeader::offset));
  }
};

// GET_EARLIEST_MSG_STORETIME (32).
struct GetEarliestMsgStoretimeRequestHeader {
  std::string topic;
  int32_t queue_id = 0;

  static constexpr auto Fields() {
    using H = GetEarliestMsgStoretimeRequestHeader;
    return std::make_tuple(Required("topic", &H::topic), Required("queueId", &H::queue_id));
  }
};

struct GetEarliestMsgStoretimeResponseHeader {
  int64_t timestamp = 0;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("timestamp", &GetEarliestMsgStoretimeResponseHeader::timestamp));
  }
};

// VIEW_MESSAGE_BY_ID (33): offset = the CommitLog offset decoded from an offset msgId.
struct ViewMessageRequestHeader {
  std::optional<std::string> topic;  // 5.x
  int64_t offset = 0;

  static constexpr auto Fields() {
    using H = ViewMessageRequestHeader;
    return std::make_tuple(Optional("topic", &H::topic), Required("offset", &H::offset));
  }
};

// QUERY_MESSAGE (12): by key through the IndexFile.
struct QueryMessageRequestHeader {
  std::string topic;
  std::string key;
  int32_t max_num = 0;
  int64_t begin_timestamp = 0;
  int64_t end_timestamp = 0;

  static constexpr auto Fields() {
    using H = QueryMessageRequestHeader;
    return std::make_tuple(Required("topic", &H::topic), Required("key", &H::key),
                           Required("maxNum", &H::max_num),
                           Required("beginTimestamp", &H::begin_timestamp),
                           Required("endTimestamp", &H::end_timestamp));
  }
};

struct QueryMessageResponseHeader {
  int64_t index_last_update_timestamp = 0;
  int64_t index_last_update_phyoffset = 0;

  static constexpr auto Fields() {
    using H = QueryMessageResponseHeader;
    return std::make_tuple(Required("indexLastUpdateTimestamp", &H::index_last_update_timestamp),
                           Required("indexLastUpdatePhyoffset", &H::index_last_update_phyoffset));
  }
};

// UNREGISTER_CLIENT (35). Java spells the id key "clientID".
struct UnregisterClientRequestHeader {
  std::string client_id;
  std::optional<std::string> producer_group;
  std::optional<std::string> consumer_group;

  static constexpr auto Fields() {
    using H = UnregisterClientRequestHeader;
    return std::make_tuple(Required("clientID", &H::client_id),
                           Optional("producerGroup", &H::producer_group),
                           Optional("consumerGroup", &H::consumer_group));
  }
};

}  // namespace apogee::protocol
