// Custom headers of the producer -> broker requests (docs/protocol/remoting.md §5.2; Java
// classes in RQ:rp/header/). See custom_header.h for the codec rules. 5.x generic keys
// (ns, nsd, oway, lo; §3.7) are not declared: a 4.9-compatible server ignores them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "base/status.h"
#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"

namespace apogee::protocol {

// SEND_MESSAGE (10) with Java's long key names. Go sends single messages this way, the
// official C++ client 1.x too. Whether the body is a batch is decided by `batch`, never by
// the request code.
struct SendMessageRequestHeader {
  std::string producer_group;
  std::string topic;
  std::string default_topic;  // normally TBW102
  int32_t default_topic_queue_nums = 0;
  int32_t queue_id = 0;  // < 0: the broker picks a queue
  int32_t sys_flag = 0;
  int64_t born_timestamp = 0;
  int32_t flag = 0;
  std::optional<std::string> properties;
  std::optional<int32_t> reconsume_times;
  // Primitive booleans in 4.9.7 (always sent), boxed in 5.x; absent means false.
  bool unit_mode = false;
  bool batch = false;
  std::optional<int32_t> max_reconsume_times;
  // RpcRequestHeader's brokerName, on the wire as "bname" (4.9.5+ and Go).
  std::optional<std::string> broker_name;

  static constexpr auto Fields() {
    using H = SendMessageRequestHeader;
    return std::make_tuple(
        Required("producerGroup", &H::producer_group), Required("topic", &H::topic),
        Required("defaultTopic", &H::default_topic),
        Required("defaultTopicQueueNums", &H::default_topic_queue_nums),
        Required("queueId", &H::queue_id), Required("sysFlag", &H::sys_flag),
        Required("bornTimestamp", &H::born_timestamp), Required("flag", &H::flag),
        Optional("properties", &H::properties), Optional("reconsumeTimes", &H::reconsume_times),
        Optional("unitMode", &H::unit_mode), Optional("batch", &H::batch),
        Optional("maxReconsumeTimes", &H::max_reconsume_times), Optional("bname", &H::broker_name));
  }
};

// SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320): the same fields under one-letter
// keys (RQ:rp/header/SendMessageRequestHeaderV2.java) to keep the JSON header small.
// It IS a SendMessageRequestHeader; only the field list differs.
struct SendMessageRequestHeaderV2 : SendMessageRequestHeader {
  static constexpr auto Fields() {
    using H = SendMessageRequestHeader;
    return std::make_tuple(
        Required("a", &H::producer_group), Required("b", &H::topic),
        Required("c", &H::default_topic), Required("d", &H::default_topic_queue_nums),
        Required("e", &H::queue_id), Required("f", &H::sys_flag), Required("g", &H::born_timestamp),
        Required("h", &H::flag), Optional("i", &H::properties), Optional("j", &H::reconsume_times),
        Optional("k", &H::unit_mode), Optional("l", &H::max_reconsume_times),
        Optional("m", &H::batch), Optional("n", &H::broker_name));
  }
};

// The send header of a SEND_MESSAGE / SEND_MESSAGE_V2 / SEND_BATCH_MESSAGE /
// SEND_REPLY_MESSAGE(_V2) request, in the key set its code uses (Java's parseRequestHeader
// in SendMessageProcessor and ReplyMessageProcessor: 310, 320 and 325 carry V2 keys,
// everything else V1).
Result<SendMessageRequestHeader> DecodeSendMessageRequestHeader(const RemotingCommand& request);
// The same header for a request read once (the broker's send): its string values are moved
// out of `request`'s ext fields, which keep their keys with empty values.
Result<SendMessageRequestHeader> TakeSendMessageRequestHeader(RemotingCommand* request);

// The answer to every send, also for codes 10/11/12. The broker adds MSG_REGION and
// TRACE_ON next to these (Java clients need extFields present). Declared once over its string
// type: SendMessageResponseHeader holds its strings; SendMessageResponseHeaderView, encode
// only, views them (the broker's answer: the msgId in a buffer on the stack, the
// transactionId in the stored properties), so an answer allocates no string of its own.
template <typename Text>
struct BasicSendMessageResponseHeader {
  Text msg_id;  // offset message id; comma-joined for a batch
  int32_t queue_id = 0;
  int64_t queue_offset = 0;
  std::optional<Text> transaction_id;
  std::optional<Text> batch_uniq_id;  // 5.x
  std::optional<Text> recall_handle;  // 5.x

  static constexpr auto Fields() {
    using H = BasicSendMessageResponseHeader;
    return std::make_tuple(
        Required("msgId", &H::msg_id), Required("queueId", &H::queue_id),
        Required("queueOffset", &H::queue_offset), Optional("transactionId", &H::transaction_id),
        Optional("batchUniqId", &H::batch_uniq_id), Optional("recallHandle", &H::recall_handle));
  }
};
using SendMessageResponseHeader = BasicSendMessageResponseHeader<std::string>;
using SendMessageResponseHeaderView = BasicSendMessageResponseHeader<std::string_view>;

// PUSH_REPLY_MESSAGE_TO_CLIENT (326): broker -> requesting producer, carrying a reply
// message (request-reply, 4.6+). The body is the message body.
struct ReplyMessageRequestHeader {
  std::string producer_group;
  std::string topic;
  std::string default_topic;
  int32_t default_topic_queue_nums = 0;
  int32_t queue_id = 0;
  int32_t sys_flag = 0;
  int64_t born_timestamp = 0;
  int32_t flag = 0;
  std::optional<std::string> properties;
  std::optional<int32_t> reconsume_times;
  bool unit_mode = false;
  std::string born_host;
  std::string store_host;
  int64_t store_timestamp = 0;

  static constexpr auto Fields() {
    using H = ReplyMessageRequestHeader;
    return std::make_tuple(
        Required("producerGroup", &H::producer_group), Required("topic", &H::topic),
        Required("defaultTopic", &H::default_topic),
        Required("defaultTopicQueueNums", &H::default_topic_queue_nums),
        Required("queueId", &H::queue_id), Required("sysFlag", &H::sys_flag),
        Required("bornTimestamp", &H::born_timestamp), Required("flag", &H::flag),
        Optional("properties", &H::properties), Optional("reconsumeTimes", &H::reconsume_times),
        Optional("unitMode", &H::unit_mode), Required("bornHost", &H::born_host),
        Required("storeHost", &H::store_host), Required("storeTimestamp", &H::store_timestamp));
  }
};

// END_TRANSACTION (37), usually oneway. commitOrRollback holds the MessageSysFlag
// transaction type (TRANSACTION_COMMIT_TYPE / ROLLBACK / NOT_TYPE).
struct EndTransactionRequestHeader {
  std::optional<std::string> topic;  // 5.x
  std::string producer_group;
  int64_t tran_state_table_offset = 0;
  int64_t commit_log_offset = 0;
  int32_t commit_or_rollback = 0;
  bool from_transaction_check = false;
  std::string msg_id;
  std::optional<std::string> transaction_id;

  static constexpr auto Fields() {
    using H = EndTransactionRequestHeader;
    return std::make_tuple(
        Optional("topic", &H::topic), Required("producerGroup", &H::producer_group),
        Required("tranStateTableOffset", &H::tran_state_table_offset),
        Required("commitLogOffset", &H::commit_log_offset),
        Required("commitOrRollback", &H::commit_or_rollback),
        Optional("fromTransactionCheck", &H::from_transaction_check), Required("msgId", &H::msg_id),
        Optional("transactionId", &H::transaction_id));
  }
};

// CONSUMER_SEND_MSG_BACK (36): a consumer hands a failed message back for retry.
// maxReconsumeTimes is honoured only for request version >= 121 (V3_4_9).
struct ConsumerSendMsgBackRequestHeader {
  int64_t offset = 0;  // CommitLog offset of the message
  std::string group;
  int32_t delay_level = 0;
  std::optional<std::string> origin_msg_id;
  std::optional<std::string> origin_topic;
  bool unit_mode = false;
  std::optional<int32_t> max_reconsume_times;

  static constexpr auto Fields() {
    using H = ConsumerSendMsgBackRequestHeader;
    return std::make_tuple(
        Required("offset", &H::offset), Required("group", &H::group),
        Required("delayLevel", &H::delay_level), Optional("originMsgId", &H::origin_msg_id),
        Optional("originTopic", &H::origin_topic), Optional("unitMode", &H::unit_mode),
        Optional("maxReconsumeTimes", &H::max_reconsume_times));
  }
};

// RECALL_MESSAGE (370, 5.x).
struct RecallMessageRequestHeader {
  std::optional<std::string> producer_group;
  std::string topic;
  std::string recall_handle;

  static constexpr auto Fields() {
    using H = RecallMessageRequestHeader;
    return std::make_tuple(Optional("producerGroup", &H::producer_group),
                           Required("topic", &H::topic),
                           Required("recallHandle", &H::recall_handle));
  }
};

struct RecallMessageResponseHeader {
  std::string msg_id;

  static constexpr auto Fields() {
    return std::make_tuple(Required("msgId", &RecallMessageResponseHeader::msg_id));
  }
};

}  // namespace apogee::protocol
