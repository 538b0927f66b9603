// Reading one stored message back by its CommitLog offset (Java's lookMessageByOffset),
// for the send-back processor and the schedule and timer services, which re-store it.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "message/message.h"

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::broker {

// The message at `phy_offset`, body kept as stored (still compressed when sysFlag bit 0
// is set, so it can be stored again unchanged). NotFound naming the offset when no record
// starts there; Corruption when it does not decode.
Result<message::MessageExt> LookMessageByOffset(const store::MessageStore& store,
                                                int64_t phy_offset);

}  // namespace apogee::broker

namespace apogee::store {
struct MessageRef;
}  // namespace apogee::store

namespace apogee::broker {

// What happened to a parked (scheduled or timer) message handed back to its real topic.
enum class DeliverOutcome {
  kDelivered,   // stored in its real topic and queue
  kDiscarded,   // never deliverable (bad REAL_TOPIC / REAL_QID, a parking topic, a record
                // the store refuses for good): skip it
  kRetryLater,  // the store refused the put for now (busy, not writable): try again later
};

// Java's ScheduleMessageService.messageTimeup + putMessage, shared with the timer
// service: decodes the parked record `ref`, restores its real topic and queue
// (RestoreRealTopic), and stores it there with WAIT=false. `why` (optional) gets a reason
// for kDiscarded / kRetryLater.
DeliverOutcome DeliverParkedMessage(store::MessageStore* store, const store::MessageRef& ref,
                                    std::string* why);

}  // namespace apogee::broker
