// Message redirects of the put path: where a message is parked instead of its own topic,
// and how it is given back. Java spreads these over CommitLog.asyncPutMessage (DELAY),
// HookUtils (5.x timer properties), TransactionalMessageBridge.parseHalfMessageInner (half
// messages) and ScheduleMessageService.messageTimeup (restore); here they are one place
// used by SendMessageProcessor, the send-back processor, the schedule and timer services
// and the transaction family (docs/protocol/store_ha.md §8.3, §8.4).
//
// Each function rewrites only the routing parts of a message: topic, queue id, sysFlag
// and properties. The caller encodes the properties afterwards.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "message/properties.h"
#include "protocol/system_topics.h"

namespace apogee::message {
struct MessageExt;
}  // namespace apogee::message

namespace apogee::store {
class DelayLevelTable;
}  // namespace apogee::store

namespace apogee::broker {

// The routing parts of a message, as pointers into the caller's own fields.
struct MessageRoute {
  std::string* topic = nullptr;
  int32_t* queue_id = nullptr;
  int32_t* sys_flag = nullptr;
  message::MessageProperties* properties = nullptr;
};
// A route over a MessageExt's topic, queue_id, sys_flag and properties.
MessageRoute RouteOf(message::MessageExt* msg);

// Whether `key` is a property RedirectDelayed or RedirectTimer reads (DELAY, the timer
// request properties, TIMER_OUT_MS): a message without any of them is never redirected by
// them and keeps its properties as they are.
bool IsRedirectProperty(std::string_view key);

// Java's DELAY redirect: a NOT- or COMMIT-type message whose DELAY level is > 0 moves to
// SCHEDULE_TOPIC_XXXX, queue level - 1, with REAL_TOPIC / REAL_QID = its topic and queue;
// a level above the table's maximum is clamped (and DELAY rewritten). Returns true when
// the message was redirected. Prepared / rollback messages and levels <= 0 (or not a
// number) are left alone.
bool RedirectDelayed(const store::DelayLevelTable& levels, const MessageRoute& route);

// Java's parseHalfMessageInner for a prepared transaction message: REAL_TOPIC / REAL_QID
// saved, the sysFlag's transaction bits reset to NOT_TYPE (so the half message gets a
// ConsumeQueue entry), topic RMQ_SYS_TRANS_HALF_TOPIC, queue 0.
void RedirectToHalf(const MessageRoute& route);

// Timer messages (5.x TIMER_DELIVER_MS absolute, TIMER_DELAY_SEC / TIMER_DELAY_MS relative,
// ali-ons/ONS __STARTDELIVERTIME absolute; first present wins in that order):
//   * ignored when the message has a DELAY level > 0 (the TIMER_* / __STARTDELIVERTIME
//     properties are removed, as HookUtils.checkIfTimerMessage), when it is prepared or a
//     rollback, or when it already carries TIMER_OUT_MS (a delivered timer message);
//   * a delivery time <= now: nothing changes (delivered at once, as Java);
//   * otherwise: TIMER_OUT_MS = the exact delivery time (Apogee does not round down to a
//     precision tick, so nothing is delivered early), REAL_TOPIC / REAL_QID set, topic
//     rmq_sys_wheel_timer, queue 0. Returns true.
// InvalidArgument naming the property when a value is not a number, or when the delay
// exceeds `max_delay_ms` (Java's WHEEL_TIMER_MSG_ILLEGAL); NotSupported when timer
// messages are disabled (`enabled` false, Java's WHEEL_TIMER_NOT_ENABLE).
Result<bool> RedirectTimer(int64_t now_ms, int64_t max_delay_ms, bool enabled,
                           const MessageRoute& route);

// Where a parked message really belongs, from its REAL_TOPIC / REAL_QID, checked as the
// broker writes them: a topic a message may be stored under (ValidateMessageTopicName)
// that is not itself a parking topic, and a queue id in [0, kMaxQueueNums). Only the
// broker writes parking topics, so anything else is a record it did not write (an older
// version's, or a damaged one): Corruption naming the property and the value, and the
// caller drops the message instead of retrying it. `topic` views into `props`.
struct RealTarget {
  std::string_view topic;
  int32_t queue_id = 0;
};
Result<RealTarget> ParseRealTarget(const message::MessageProperties& props,
                                   std::string_view parked_in);

// The way back (ScheduleMessageService.messageTimeup, TimerMessageStore's convert): topic
// and queue from REAL_TOPIC / REAL_QID, DELAY and the timer request properties removed
// (REAL_* and TIMER_OUT_MS stay, as Java leaves them), WAIT=false. Corruption naming the
// property when REAL_TOPIC or REAL_QID is missing or not valid (ParseRealTarget).
Status RestoreRealTopic(const MessageRoute& route);

}  // namespace apogee::broker
