// Custom headers of the 5.x POP family (docs/protocol/remoting.md §5.6; Java classes in
// RQ:rp/header/). A 4.9-compatible server may answer these codes with
// REQUEST_CODE_NOT_SUPPORTED; they are declared so the codes can be decoded and logged,
// and for a later POP implementation. POP codes (2000xx) do not fit the int16 code of
// the ROCKETMQ binary header, so these requests only ever arrive as JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "protocol/custom_header.h"

namespace apogee::protocol {

// POP_MESSAGE (200050).
struct PopMessageRequestHeader {
  std::string consumer_group;
  std::string topic;
  int32_t queue_id = 0;
  int32_t max_msg_nums = 0;
  int64_t invisible_time = 0;
  int64_t poll_time = 0;
  int64_t born_time = 0;
  int32_t init_mode = 0;
  std::optional<std::string> exp_type;
  std::optional<std::string> exp;
  std::optional<bool> order;
  std::optional<std::string> attempt_id;

  static constexpr auto Fields() {
    using H = PopMessageRequestHeader;
    return std::make_tuple(
        Required("consumerGroup", &H::consumer_group), Required("topic", &H::topic),
        Required("queueId", &H::queue_id), Required("maxMsgNums", &H::max_msg_nums),
        Required("invisibleTime", &H::invisible_time), Required("pollTime", &H::poll_time),
        Required("bornTime", &H::born_time), Required("initMode", &H::init_mode),
        Optional("expType", &H::exp_type), Optional("exp", &H::exp), Optional("order", &H::order),
        Optional("attemptId", &H::attempt_id));
  }
};

struct PopMessageResponseHeader {
  int64_t pop_time = 0;
  int64_t invisible_time = 0;
  int32_t revive_qid = 0;
  int64_t rest_num = 0;
  std::optional<std::string> start_offset_info;
  std::optional<std::string> msg_offset_info;
  std::optional<std::string> order_count_info;

  static constexpr auto Fields() {
    using H = PopMessageResponseHeader;
    return std::make_tuple(Required("popTime", &H::pop_time),
                           Required("invisibleTime", &H::invisible_time),
                           Required("reviveQid", &H::revive_qid), Required("restNum", &H::rest_num),
                           Optional("startOffsetInfo", &H::start_offset_info),
                           Optional("msgOffsetInfo", &H::msg_offset_info),
                           Optional("orderCountInfo", &H::order_count_info));
  }
};

// ACK_MESSAGE (200051). extraInfo is the receipt handle: space-separated
// "ckQueueOffset popTime invisibleTime reviveQid retryFlag brokerName queueId [queueOffset]".
struct AckMessageRequestHeader {
  std::string consumer_group;
  std::string topic;
  int32_t queue_id = 0;
  std::string extra_info;
  int64_t offset = 0;

  static constexpr auto Fields() {
    using H = AckMessageRequestHeader;
    return std::make_tuple(Required("consumerGroup", &H::consumer_group),
                           Required("topic", &H::topic), Required("queueId", &H::queue_id),
                           Required("extraInfo", &H::extra_info), Required("offset", &H::offset));
  }
};

// CHANGE_MESSAGE_INVISIBLETIME (200053).
struct ChangeInvisibleTimeRequestHeader {
  std::string consumer_group;
  std::string topic;
  int32_t queue_id = 0;
  std::string extra_info;
  int64_t offset = 0;
  int64_t invisible_time = 0;

  static constexpr auto Fields() {
    using H = ChangeInvisibleTimeRequestHeader;
    return std::make_tuple(Required("consumerGroup", &H::consumer_group),
                           Required("topic", &H::topic), Required("queueId", &H::queue_id),
                           Required("extraInfo", &H::extra_info), Required("offset", &H::offset),
                           Required("invisibleTime", &H::invisible_time));
  }
};

struct ChangeInvisibleTimeResponseHeader {
  int64_t pop_time = 0;
  int64_t invisible_time = 0;
  int32_t revive_qid = 0;

  static constexpr auto Fields() {
    using H = ChangeInvisibleTimeResponseHeader;
    return std::make_tuple(Required("popTime", &H::pop_time),
                           Required("invisibleTime", &H::invisible_time),
                           Required("reviveQid", &H::revive_qid));
  }
};

// NOTIFICATION (200054): long-polls until a queue has messages to pop.
struct NotificationRequestHeader {
  std::string consumer_group;
  std::string topic;
  int32_t queue_id = 0;
  int64_t poll_time = 0;
  int64_t born_time = 0;
  std::optional<bool> order;
  std::optional<std::string> attempt_id;

  static constexpr auto Fields() {
    using H = NotificationRequestHeader;
    return std::make_tuple(Required("consumerGroup", &H::consumer_group),
                           Required("topic", &H::topic), Required("queueId", &H::queue_id),
                           Required("pollTime", &H::poll_time), Required("bornTime", &H::born_time),
                           Optional("order", &H::order), Optional("attemptId", &H::attempt_id));
  }
};

struct NotificationResponseHeader {
  bool has_msg = false;
  bool polling_full = false;

  static constexpr auto Fields() {
    using H = NotificationResponseHeader;
    return std::make_tuple(Required("hasMsg", &H::has_msg),
                           Optional("pollingFull", &H::polling_full));
  }
};

}  // namespace apogee::protocol
