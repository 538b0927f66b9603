// Custom headers of the admin -> broker requests used by mqadmin and the dashboard
// (docs/protocol/remoting.md §5.5; Java classes in RQ:rp/header/). See custom_header.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "protocol/custom_header.h"

namespace apogee::protocol {

// UPDATE_AND_CREATE_TOPIC (17). perm is the PermName bit set; topicFilterType the enum
// name ("SINGLE_TAG" / "MULTI_TAG").
struct CreateTopicRequestHeader {
  std::string topic;
  std::string default_topic;
  int32_t read_queue_nums = 0;
  int32_t write_queue_nums = 0;
  int32_t perm = 0;
  std::string topic_filter_type;
  std::optional<int32_t> topic_sys_flag;
  bool order = false;
  std::optional<std::string> attributes;  // 5.x
  bool force = false;                     // 5.x

  static constexpr auto Fields() {
    using H = CreateTopicRequestHeader;
    return std::make_tuple(
        Required("topic", &H::topic), Required("defaultTopic", &H::default_topic),
        Required("readQueueNums", &H::read_queue_nums),
        Required("writeQueueNums", &H::write_queue_nums), Required("perm", &H::perm),
        Required("topicFilterType", &H::topic_filter_type),
        Optional("topicSysFlag", &H::topic_sys_flag), Required("order", &H::order),
        Optional("attributes", &H::attributes), Optional("force", &H::force));
  }
};

// DELETE_TOPIC_IN_BROKER (215).
struct DeleteTopicRequestHeader {
  std::string topic;

  static constexpr auto Fields() {
    return std::make_tuple(Required("topic", &DeleteTopicRequestHeader::topic));
  }
};

// GET_ALL_TOPIC_CONFIG (21). 4.x admin tools send no extFields at all, which skips the
// required check (DecodeCustomHeader).
struct GetAllTopicConfigRequestHeader {
  int32_t topic_seq = 0;
  std::optional<std::string> data_version;
  std::optional<int32_t> max_topic_num;

  static constexpr auto Fields() {
    using H = GetAllTopicConfigRequestHeader;
    return std::make_tuple(Required("topicSeq", &H::topic_seq),
                           Optional("dataVersion", &H::data_version),
                           Optional("maxTopicNum", &H::max_topic_num));
  }
};

struct GetAllTopicConfigResponseHeader {
  int32_t total_topic_num = 0;  // 5.x

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("totalTopicNum", &GetAllTopicConfigResponseHeader::total_topic_num));
  }
};

// GET_BROKER_CONFIG (26): the body is the config as properties text, this its version.
struct GetBrokerConfigResponseHeader {
  std::string version;

  static constexpr auto Fields() {
    return std::make_tuple(Required("version", &GetBrokerConfigResponseHeader::version));
  }
};

// GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201).
struct GetAllSubscriptionGroupRequestHeader {
  int32_t group_seq = 0;
  std::optional<std::string> data_version;
  std::optional<int32_t> max_group_num;

  static constexpr auto Fields() {
    using H = GetAllSubscriptionGroupRequestHeader;
    return std::make_tuple(Required("groupSeq", &H::group_seq),
                           Optional("dataVersion", &H::data_version),
                           Optional("maxGroupNum", &H::max_group_num));
  }
};

struct GetAllSubscriptionGroupResponseHeader {
  int32_t total_group_num = 0;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("totalGroupNum", &GetAllSubscriptionGroupResponseHeader::total_group_num));
  }
};

// DELETE_SUBSCRIPTIONGROUP (207). 4.9.7 calls the flag removeOffset, 5.x cleanOffset;
// both are read, a server should honour either.
struct DeleteSubscriptionGroupRequestHeader {
  std::string group_name;
  bool clean_offset = false;
  std::optional<bool> remove_offset;  // 4.9.7 name

  static constexpr auto Fields() {
    using H = DeleteSubscriptionGroupRequestHeader;
    return std::make_tuple(Required("groupName", &H::group_name),
                           Optional("cleanOffset", &H::clean_offset),
                           Optional("removeOffset", &H::remove_offset));
  }
};

// GET_SUBSCRIPTIONGROUP_CONFIG (352, 5.x).
struct GetSubscriptionGroupConfigRequestHeader {
  std::string group;

  static constexpr auto Fields() {
    return std::make_tuple(Required("group", &GetSubscriptionGroupConfigRequestHeader::group));
  }
};

// GET_TOPIC_STATS_INFO (202).
struct GetTopicStatsInfoRequestHeader {
  std::string topic;

  static constexpr auto Fields() {
    return std::make_tuple(Required("topic", &GetTopicStatsInfoRequestHeader::topic));
  }
};

// GET_CONSUME_STATS (208).
struct GetConsumeStatsRequestHeader {
  std::string consumer_group;
  std::optional<std::string> topic;
  std::optional<std::string> topic_list;  // 5.x

  static constexpr auto Fields() {
    using H = GetConsumeStatsRequestHeader;
    return std::make_tuple(Required("consumerGroup", &H::consumer_group),
                           Optional("topic", &H::topic), Optional("topicList", &H::topic_list));
  }
};

// GET_CONSUMER_CONNECTION_LIST (203).
struct GetConsumerConnectionListRequestHeader {
  std::string consumer_group;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("consumerGroup", &GetConsumerConnectionListRequestHeader::consumer_group));
  }
};

// GET_PRODUCER_CONNECTION_LIST (204).
struct GetProducerConnectionListRequestHeader {
  std::string producer_group;

  static constexpr auto Fields() {
    return std::make_tuple(
        Required("producerGroup", &GetProducerConnectionListRequestHeader::producer_group));
  }
};

// QUERY_TOPIC_CONSUME_BY_WHO (300).
struct QueryTopicConsumeByWhoRequestHeader {
  std::string topic;

  static constexpr auto Fields() {
    return std::make_tuple(Required("topic", &QueryTopicConsumeByWhoRequestHeader::topic));
  }
};

// QUERY_CONSUME_TIME_SPAN (303).
struct QueryConsumeTimeSpanRequestHeader {
  std::string topic;
  std::string group;

  static constexpr auto Fields() {
    using H = QueryConsumeTimeSpanRequestHeader;
    return std::make_tuple(Required("topic", &H::topic), Required("group", &H::group));
  }
};

// QUERY_CORRECTION_OFFSET (308).
struct QueryCorrectionOffsetHeader {
  std::optional<std::string> filter_groups;
  std::string compare_group;
  std::string topic;

  static constexpr auto Fields() {
    using H = QueryCorrectionOffsetHeader;
    return std::make_tuple(Optional("filterGroups", &H::filter_groups),
                           Required("compareGroup", &H::compare_group),
                           Required("topic", &H::topic));
  }
};

// VIEW_BROKER_STATS_DATA (315).
struct ViewBrokerStatsDataRequestHeader {
  std::string stats_name;
  std::string stats_key;

  static constexpr auto Fields() {
    using H = ViewBrokerStatsDataRequestHeader;
    return std::make_tuple(Required("statsName", &H::stats_name),
                           Required("statsKey", &H::stats_key));
  }
};

// GET_BROKER_CONSUME_STATS (317).
struct GetConsumeStatsInBrokerHeader {
  bool is_order = false;

  static constexpr auto Fields() {
    return std::make_tuple(Required("isOrder", &GetConsumeStatsInBrokerHeader::is_order));
  }
};

// QUERY_CONSUME_QUEUE (321).
struct QueryConsumeQueueRequestHeader {
  std::optional<std::string> topic;
  int32_t queue_id = 0;
  int64_t index = 0;
  int32_t count = 0;
  std::optional<std::string> consumer_group;

  static constexpr auto Fields() {
    using H = QueryConsumeQueueRequestHeader;
    return std::make_tuple(Optional("topic", &H::topic), Optional("queueId", &H::queue_id),
                           Optional("index", &H::index), Optional("count", &H::count),
                           Optional("consumerGroup", &H::consumer_group));
  }
};

// QUERY_TOPICS_BY_CONSUMER (343, 5.x).
struct QueryTopicsByConsumerRequestHeader {
  std::string group;

  static constexpr auto Fields() {
    return std::make_tuple(Required("group", &QueryTopicsByConsumerRequestHeader::group));
  }
};

// QUERY_SUBSCRIPTION_BY_CONSUMER (345, 5.x).
struct QuerySubscriptionByConsumerRequestHeader {
  std::string group;
  std::optional<std::string> topic;

  static constexpr auto Fields() {
    using H = QuerySubscriptionByConsumerRequestHeader;
    return std::make_tuple(Required("group", &H::group), Optional("topic", &H::topic));
  }
};

// GET_TOPIC_CONFIG (351, 5.x).
struct GetTopicConfigRequestHeader {
  std::string topic;

  static constexpr auto Fields() {
    return std::make_tuple(Required("topic", &GetTopicConfigRequestHeader::topic));
  }
};

// RESUME_CHECK_HALF_MESSAGE (323).
struct ResumeCheckHalfMessageRequestHeader {
  std::optional<std::string> topic;  // 5.x
  std::optional<std::string> msg_id;

  static constexpr auto Fields() {
    using H = ResumeCheckHalfMessageRequestHeader;
    return std::make_tuple(Optional("topic", &H::topic), Optional("msgId", &H::msg_id));
  }
};

// CLONE_GROUP_OFFSET (314).
struct CloneGroupOffsetRequestHeader {
  std::string src_group;
  std::string dest_group;
  std::optional<std::string> topic;
  bool offline = false;

  static constexpr auto Fields() {
    using H = CloneGroupOffsetRequestHeader;
    return std::make_tuple(Required("srcGroup", &H::src_group),
                           Required("destGroup", &H::dest_group), Optional("topic", &H::topic),
                           Optional("offline", &H::offline));
  }
};

// APOGEE_REDRIVE_DLQ_MESSAGE (30001, Apogee only; request_code::kApogeeRedriveDlqMessage).
// Sends the messages of %DLQ%<consumerGroup> back to the topic they failed in: the broker
// reads the DLQ from the consume offset of the system group "CID_APOGEE_DLQ_REDRIVE" (one
// offset per DLQ, independent of consumerGroup's own offsets), re-puts each message into
// its RETRY_TOPIC property (the topic the consumer originally read it from; the message's
// REAL_TOPIC when RETRY_TOPIC is absent, else it is counted as failed), on a queue chosen
// by round robin over the topic's write queues, with reconsume times reset to 0, and then
// advances that offset past every message it looked at, so a second redrive never resends.
//   consumerGroup  required: the group whose DLQ is redriven.
//   maxCount       optional: stop after this many DLQ messages were looked at (default:
//                  all up to the DLQ's max offset at the time of the request).
//   topic          optional: only messages whose original topic equals it are re-put;
//                  the others are skipped (offset advanced, counted in "skipped").
// Response: code SUCCESS (0) with RedriveDlqMessageResponseHeader as extFields and no
// body; SUBSCRIPTION_GROUP_NOT_EXIST (26) when neither the group nor its DLQ topic exists,
// NO_PERMISSION (16) when the broker is not writable (or a slave), SYSTEM_ERROR (1) with a
// remark for a bad header (maxCount <= 0). When the store refuses a put half way, the
// answer is SYSTEM_ERROR with a remark naming the failure AND the response extFields
// below: what was redriven before stays redriven, the offset stops before the refused
// message, and a later request continues from there.
struct RedriveDlqMessageRequestHeader {
  std::string consumer_group;
  std::optional<int32_t> max_count;
  std::optional<std::string> topic;

  static constexpr auto Fields() {
    using H = RedriveDlqMessageRequestHeader;
    return std::make_tuple(Required("consumerGroup", &H::consumer_group),
                           Optional("maxCount", &H::max_count), Optional("topic", &H::topic));
  }
};

// Response extFields of APOGEE_REDRIVE_DLQ_MESSAGE (all decimal):
//   redriven  messages re-put into their original topic;
//   failed    messages that cannot be re-put (unreadable, no original topic, topic not
//             on this broker); the offset moves past them, a log line names each one;
//   skipped   messages left alone because of the request's topic filter;
//   nextOffset the DLQ consume offset of CID_APOGEE_DLQ_REDRIVE after this request.
struct RedriveDlqMessageResponseHeader {
  int32_t redriven = 0;
  int32_t failed = 0;
  int32_t skipped = 0;
  int64_t next_offset = 0;

  static constexpr auto Fields() {
    using H = RedriveDlqMessageResponseHeader;
    return std::make_tuple(Required("redriven", &H::redriven), Required("failed", &H::failed),
                           Required("skipped", &H::skipped),
                           Required("nextOffset", &H::next_offset));
  }
};

}  // namespace apogee::protocol
