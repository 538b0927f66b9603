// DelayLevelTable: the delay levels of scheduled messages, parsed from the store setting
// messageDelayLevel ("1s 5s 10s 30s 1m ... 2h"; units s, m, h, d) as Java's
// ScheduleMessageService.parseDelayLevel does. Level L (1-based) waits DelayMillis(L).
//
// The store uses it to give a SCHEDULE_TOPIC_XXXX record its ConsumeQueue tag code (the
// delivery time, docs/protocol/store_ha.md §8.3); the broker's ScheduleMessageService uses the
// same table to know when a level's head is due.
//
// Immutable after Parse: safe to share between threads.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::store {

class DelayLevelTable {
 public:
  // An empty table (max_level() == 0): no level exists.
  DelayLevelTable() = default;

  // InvalidArgument naming the piece and the rule when a piece is not <digits><unit>,
  // the unit is not one of s m h d, or the table is empty.
  static Result<DelayLevelTable> Parse(std::string_view text);

  int32_t max_level() const { return static_cast<int32_t>(millis_.size()); }
  // Java clamps levels above the maximum to the maximum; 0 for a level < 1.
  int32_t Clamp(int32_t level) const;
  // The delay of `level` after Clamp; 0 for levels < 1.
  int64_t DelayMillis(int32_t level) const;

 private:
  std::vector<int64_t> millis_;  // index level - 1
};

// The queue of SCHEDULE_TOPIC_XXXX that holds a level (Java's delayLevel2QueueId).
inline int32_t DelayLevelToQueueId(int32_t level) { return level - 1; }
inline int32_t QueueIdToDelayLevel(int32_t queue_id) { return queue_id + 1; }

}  // namespace apogee::store
