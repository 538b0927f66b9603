// Redelivering one stored message to one consumer group (mqdashboard's "resend to group"),
// with a request every 4.x broker serves: CONSUMER_SEND_MSG_BACK, as if a member of the group
// had asked for a retry. The broker copies the record at its CommitLog offset into
// %RETRY%<group> with the given delay level; only that group's members consume it (each
// subscribes to its retry topic), with the original topic restored by the client. It counts
// as a reconsume: reconsumeTimes grows, and past the group's retryMaxTimes the message goes
// to %DLQ%<group> instead.
#pragma once

#include <string_view>

#include "admin/admin_client.h"
#include "base/status.h"
#include "message/message.h"

namespace apogee::admin {

// The delay level resends use: level 1 (1 s with the default messageDelayLevel), the
// shortest a retry can wait; level 0 would mean "3 + reconsumeTimes" (10 s or more).
inline constexpr int32_t kResendDelayLevel = 1;

// CONSUMER_SEND_MSG_BACK for `msg` (as read from the broker at `broker_addr`, which stores
// it) to `group`. The broker's refusal (e.g. SUBSCRIPTION_GROUP_NOT_EXIST) carries its remark.
Status ResendToGroup(MQAdminClient* admin, std::string_view broker_addr, const message::MessageExt& msg,
                     std::string_view group, Millis timeout = std::chrono::seconds(5));

}  // namespace apogee::admin
