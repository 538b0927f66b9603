#include "broker/schedule/message_redirect.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "base/string_util.h"
#include "broker/topic_config_manager.h"
#include "message/message.h"
#include "message/message_format.h"
#include "protocol/system_topics.h"
#include "store/delay_level_table.h"

namespace apogee::broker {

namespace {

bool IsNotOrCommit(int32_t sys_flag) {
  const int32_t type = sys_flag & message::kTransactionTypeMask;
  return type == message::kTransactionNotType || type == message::kTransactionCommitType;
}

void SaveRealTopic(const MessageRoute& route) {
  (void)route.properties->Set(message::kPropertyRealTopic, *route.topic);
  (void)route.properties->Set(message::kPropertyRealQueueId, std::to_string(*route.queue_id));
}

// The timer request properties, in the order they are honoured.
constexpr std::string_view kTimerRequestProperties[] = {
    message::kPropertyTimerDeliverMs, message::kPropertyTimerDelaySec,
    message::kPropertyTimerDelayMs, message::kPropertyStartDeliverTime};

void EraseTimerRequest(message::MessageProperties* props) {
  for (std::string_view key : kTimerRequestProperties) props->Erase(key);
}

}  // namespace

bool IsRedirectProperty(std::string_view key) {
  if (key == message::kPropertyDelayTimeLevel || key == message::kPropertyTimerOutMs) return true;
  for (std::string_view timer_key : kTimerRequestProperties) {
    if (key == timer_key) return true;
  }
  return false;
}

MessageRoute RouteOf(message::MessageExt* msg) {
  return MessageRoute{&msg->topic, &msg->queue_id, &msg->sys_flag, &msg->properties};
}

bool RedirectDelayed(const store::DelayLevelTable& levels, const MessageRoute& route) {
  if (!IsNotOrCommit(*route.sys_flag)) return false;
  std::optional<std::string_view> delay = route.properties->Get(message::kPropertyDelayTimeLevel);
  std::optional<int32_t> level = delay ? ParseInt32(*delay) : std::nullopt;
  if (!level || *level <= 0 || levels.max_level() == 0) return false;
  const int32_t clamped = levels.Clamp(*level);
  if (clamped != *level) {
    (void)route.properties->Set(message::kPropertyDelayTimeLevel, std::to_string(clamped));
  }
  SaveRealTopic(route);
  *route.topic = std::string(protocol::kScheduleTopic);
  *route.queue_id = store::DelayLevelToQueueId(clamped);
  return true;
}

void RedirectToHalf(const MessageRoute& route) {
  SaveRealTopic(route);
  *route.sys_flag =
      (*route.sys_flag & ~message::kTransactionTypeMask) | message::kTransactionNotType;
  *route.topic = std::string(protocol::kTransHalfTopic);
  *route.queue_id = 0;
}

Result<bool> RedirectTimer(int64_t now_ms, int64_t max_delay_ms, bool enabled,
                           const MessageRoute& route) {
  message::MessageProperties& props = *route.properties;
  if (!IsNotOrCommit(*route.sys_flag)) return false;
  std::optional<std::string_view> delay = props.Get(message::kPropertyDelayTimeLevel);
  std::optional<int32_t> level = delay ? ParseInt32(*delay) : std::nullopt;
  if (level && *level > 0) {
    EraseTimerRequest(&props);  // a DELAY level wins over the timer properties
    return false;
  }
  if (*route.topic == protocol::kTimerTopic || props.Has(message::kPropertyTimerOutMs))
    return false;

  std::optional<int64_t> deliver_ms;
  for (std::string_view key : kTimerRequestProperties) {
    std::optional<std::string_view> value = props.Get(key);
    if (!value) continue;
    std::optional<int64_t> number = ParseInt64(*value);
    if (!number) {
      return Status::InvalidArgument(
          fmt::format("timer message property {}='{}' is not a number", key, *value));
    }
    // Relative delays are clamped just past the limit first, so the sum cannot overflow
    // and an over-long delay is still refused below.
    const int64_t limit_ms = max_delay_ms + 1;
    if (key == message::kPropertyTimerDelaySec) {
      deliver_ms =
          now_ms + std::clamp<int64_t>(*number, -limit_ms / 1000, limit_ms / 1000 + 1) * 1000;
    } else if (key == message::kPropertyTimerDelayMs) {
      deliver_ms = now_ms + std::clamp<int64_t>(*number, -limit_ms, limit_ms);
    } else {
      deliver_ms = *number;
    }
    break;
  }
  if (!deliver_ms) return false;
  if (!enabled) {
    return Status::NotSupported(
        "timer messages are disabled on this broker (timerWheelEnable=false)");
  }
  if (*deliver_ms <= now_ms) return false;  // due already: stored as a plain message
  if (*deliver_ms - now_ms > max_delay_ms) {
    return Status::InvalidArgument(
        fmt::format("timer message delivery time {} is {} ms ahead, beyond timerMaxDelaySec ({} s)",
                    *deliver_ms, *deliver_ms - now_ms, max_delay_ms / 1000));
  }
  (void)props.Set(message::kPropertyTimerOutMs, std::to_string(*deliver_ms));
  SaveRealTopic(route);
  *route.topic = std::string(protocol::kTimerTopic);
  *route.queue_id = 0;
  return true;
}

Result<RealTarget> ParseRealTarget(const message::MessageProperties& props,
                                   std::string_view parked_in) {
  std::optional<std::string_view> topic = props.Get(message::kPropertyRealTopic);
  if (!topic || topic->empty()) {
    return Status::Corruption(
        fmt::format("message parked in {} has no REAL_TOPIC property", parked_in));
  }
  Status valid = ValidateMessageTopicName(*topic);
  if (!valid.ok()) {
    return Status::Corruption(fmt::format("message parked in {} has an unusable REAL_TOPIC: {}",
                                          parked_in, valid.message()));
  }
  if (protocol::IsParkingTopic(*topic)) {
    return Status::Corruption(fmt::format(
        "message parked in {} names the parking topic {} as its REAL_TOPIC", parked_in, *topic));
  }
  std::optional<std::string_view> qid = props.Get(message::kPropertyRealQueueId);
  std::optional<int32_t> queue_id = qid ? ParseInt32(*qid) : std::nullopt;
  if (!queue_id || *queue_id < 0 || *queue_id >= kMaxQueueNums) {
    return Status::Corruption(
        fmt::format("message parked in {} has REAL_QID '{}', not a queue id in [0, {})", parked_in,
                    qid.value_or(""), kMaxQueueNums));
  }
  return RealTarget{*topic, *queue_id};
}

Status RestoreRealTopic(const MessageRoute& route) {
  message::MessageProperties& props = *route.properties;
  APOGEE_ASSIGN_OR_RETURN(RealTarget target, ParseRealTarget(props, *route.topic));
  *route.topic = std::string(target.topic);
  *route.queue_id = target.queue_id;
  props.Erase(message::kPropertyDelayTimeLevel);
  EraseTimerRequest(&props);
  (void)props.Set(message::kPropertyWaitStoreMsgOk, "false");
  return Status::OK();
}

}  // namespace apogee::broker
