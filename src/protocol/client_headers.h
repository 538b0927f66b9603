// Custom headers of the broker -> client requests (docs/protocol/remoting.md §5.4; Java classes
// in RQ:rp/header/). Sent on the client's own connection, always as JSON, best effort.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "protocol/custom_header.h"

namespace apogee::protocol {

// NOTIFY_CONSUMER_IDS_CHANGED (40), oneway: triggers a rebalance.
struct NotifyConsumerIdsChangedRequestHeader {
  std::string consumer_group;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("consumerGroup", &NotifyConsumerIdsChangedRequestHeader::consumer_group));
  }
};

// CHECK_TRANSACTION_STATE (39), oneway; the body is the half message record.
struct CheckTransactionStateRequestHeader {
  std::optional<std::string> topic;  // 5.x
  int64_t tran_state_table_offset = 0;
  int64_t commit_log_offset = 0;
  std::optional<std::string> msg_id;
  std::optional<std::string> transaction_id;
  std::optional<std::string> offset_msg_id;

  static constexpr auto Fields() {
    using H = CheckTransactionStateRequestHeader;
    return std::make_tuple(
        Optional("topic", &H::topic), Required("tranStateTableOffset", &H::tran_state_table_offset),
        Required("commitLogOffset", &H::commit_log_offset), Optional("msgId", &H::msg_id),
        Optional("transactionId", &H::transaction_id), Optional("offsetMsgId", &H::offset_msg_id));
  }
};

// RESET_CONSUMER_CLIENT_OFFSET (220) and INVOKE_BROKER_TO_RESET_OFFSET (222).
struct ResetOffsetRequestHeader {
  std::string group;
  std::string topic;
  int32_t queue_id = -1;          // 5.x primitive
  std::optional<int64_t> offset;  // 5.x
  int64_t timestamp = 0;
  bool is_force = false;

  static constexpr auto Fields() {
    using H = ResetOffsetRequestHeader;
    return std::make_tuple(Required("group", &H::group), Required("topic", &H::topic),
                           Optional("queueId", &H::queue_id), Optional("offset", &H::offset),
                           Required("timestamp", &H::timestamp), Required("isForce", &H::is_force));
  }
};

// GET_CONSUMER_RUNNING_INFO (307).
struct GetConsumerRunningInfoRequestHeader {
  std::string consumer_group;
  std::string client_id;
  bool jstack_enable = false;

  static constexpr auto Fields() {
    using H = GetConsumerRunningInfoRequestHeader;
    return std::make_tuple(Required("consumerGroup", &H::consumer_group),
                           Required("clientId", &H::client_id),
                           Optional("jstackEnable", &H::jstack_enable));
  }
};

// CONSUME_MESSAGE_DIRECTLY (309).
struct ConsumeMessageDirectlyResultRequestHeader {
  std::string consumer_group;
  std::optional<std::string> client_id;
  std::optional<std::string> msg_id;
  std::optional<std::string> broker_name;
  std::optional<std::string> topic;       // 5.x
  std::optional<int32_t> topic_sys_flag;  // 5.x
  std::optional<int32_t> group_sys_flag;  // 5.x

  static constexpr auto Fields() {
    using H = ConsumeMessageDirectlyResultRequestHeader;
    return std::make_tuple(Required("consumerGroup", &H::consumer_group),
                           Optional("clientId", &H::client_id), Optional("msgId", &H::msg_id),
                           Optional("brokerName", &H::broker_name), Optional("topic", &H::topic),
                           Optional("topicSysFlag", &H::topic_sys_flag),
                           Optional("groupSysFlag", &H::group_sys_flag));
  }
};

// GET_CONSUMER_STATUS_FROM_CLIENT (221) and INVOKE_BROKER_TO_GET_CONSUMER_STATUS (223).
struct GetConsumerStatusRequestHeader {
  std::string topic;
  std::string group;
  std::optional<std::string> client_addr;

  static constexpr auto Fields() {
    using H = GetConsumerStatusRequestHeader;
    return std::make_tuple(Required("topic", &H::topic), Required("group", &H::group),
                           Optional("clientAddr", &H::client_addr));
  }
};

}  // namespace apogee::protocol
