// The system topics of RocketMQ's TopicValidator (RQ:cm/topic/TopicValidator.java;
// docs/protocol/remoting.md §8.6): their names, the one list of them, and the subset clients
// may not send to. Every module asks these functions instead of keeping its own list.
// The schedule and timer topic names are defined in message/message_format.h because the
// store (which may not use protocol) dispatches their records by name.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "message/message_format.h"

namespace apogee::protocol {

// The auto-create template topic a producer names as defaultTopic.
inline constexpr std::string_view kAutoCreateTopicKeyTopic = "TBW102";
inline constexpr std::string_view kScheduleTopic = message::kScheduleTopic;
// 5.x's second schedule topic; reserved too, though Apogee never writes it.
inline constexpr std::string_view kScheduleTopicV2 = "SCHEDULE_TOPIC_XXXX_V2";
inline constexpr std::string_view kBenchmarkTopic = "BenchmarkTest";
inline constexpr std::string_view kTransHalfTopic = "RMQ_SYS_TRANS_HALF_TOPIC";
inline constexpr std::string_view kTraceTopic = "RMQ_SYS_TRACE_TOPIC";
inline constexpr std::string_view kTransOpHalfTopic = "RMQ_SYS_TRANS_OP_HALF_TOPIC";
inline constexpr std::string_view kTransCheckMaxTimeTopic = "TRANS_CHECK_MAX_TIME_TOPIC";
inline constexpr std::string_view kSelfTestTopic = "SELF_TEST_TOPIC";
inline constexpr std::string_view kOffsetMovedEventTopic = "OFFSET_MOVED_EVENT";
// Any topic starting with this is a system topic (5.x's timer topic is one).
inline constexpr std::string_view kSystemTopicPrefix = "rmq_sys_";
inline constexpr std::string_view kTimerTopic = message::kTimerTopic;

// SCHEDULE_TOPIC_XXXX has one queue per delay level.
inline constexpr int32_t kScheduleTopicQueueNums = 18;

// TopicValidator.SYSTEM_TOPIC_SET (with 5.x's second schedule topic).
inline constexpr std::array<std::string_view, 10> kSystemTopics = {
    kAutoCreateTopicKeyTopic, kScheduleTopic,    kScheduleTopicV2,
    kBenchmarkTopic,          kTransHalfTopic,   kTraceTopic,
    kTransOpHalfTopic,        kTransCheckMaxTimeTopic, kSelfTestTopic,
    kOffsetMovedEventTopic};

// TopicValidator.NOT_ALLOWED_SEND_TOPIC_SET (4.x and 5.x): the broker's internal topics. (The
// trace topic and TBW102 are system topics a client may still name.)
inline constexpr std::array<std::string_view, 7> kNotAllowedSendTopics = {
    kScheduleTopic,          kScheduleTopicV2, kTransHalfTopic,       kTransOpHalfTopic,
    kTransCheckMaxTimeTopic, kSelfTestTopic,   kOffsetMovedEventTopic};

// TopicValidator.isSystemTopic: in kSystemTopics or starting with "rmq_sys_".
constexpr bool IsSystemTopic(std::string_view topic) {
  for (std::string_view t : kSystemTopics) {
    if (t == topic) return true;
  }
  return topic.starts_with(kSystemTopicPrefix);
}

// TopicValidator.isNotAllowedSendTopic plus, deliberately beyond Java, every "rmq_sys_" topic
// (the timer topic among them): the broker trusts the properties of what it finds there
// (REAL_TOPIC, TIMER_OUT_MS), so only the broker writes them
// (docs/operations/store-safety.md).
constexpr bool IsNotAllowedSendTopic(std::string_view topic) {
  for (std::string_view t : kNotAllowedSendTopics) {
    if (t == topic) return true;
  }
  return topic.starts_with(kSystemTopicPrefix);
}

// Topics where the broker parks a message it later moves to its REAL_TOPIC: a REAL_TOPIC
// naming one of these would loop, so restores refuse them.
constexpr bool IsParkingTopic(std::string_view topic) {
  return topic == kScheduleTopic || topic == kScheduleTopicV2 || topic == kTransHalfTopic ||
         topic == kTransOpHalfTopic || topic == kTimerTopic;
}

// Topic name limits: 127 characters (a v1 record's signed length byte); retry and DLQ topics
// carry a group name and may have 255 (5.x).
inline constexpr size_t kTopicMaxLength = message::kMaxTopicLengthV1;
inline constexpr size_t kGroupTopicMaxLength = 255;

}  // namespace apogee::protocol
