// ScheduleMessageService: delivers delayed messages (Java's ScheduleMessageService;
// docs/protocol/store_ha.md §8.3). A message with DELAY level L waits in SCHEDULE_TOPIC_XXXX
// queue L-1; its ConsumeQueue tag code is its delivery time (the store computes it). Within
// a level the delivery times are in queue order, so one offset per level is the whole
// progress: DelayOffsetTable, persisted in delayOffset.json every flushDelayOffsetInterval
// and at shutdown.
//
// A job on the broker's Scheduler (quick lane: a delivery is a local put that never waits for
// a flush) delivers, for every level, each head message whose time has come (a time more
// than the level's delay in the future counts as now: the clock jumped back), restoring its
// real topic and queue, then runs again at the earliest next delivery time or when a new
// message arrives in the schedule topic (NotifyArrival), never polling. A refused put is
// retried after 100 ms. Nothing is delivered early; a crash re-delivers at most what was
// delivered since the last offset write (at least once, as Java).
//
// Thread-safety: NotifyArrival may be called from any thread (the store's reput thread);
// Start/Shutdown from one thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "base/clock.h"
#include "base/scheduler.h"
#include "base/status.h"
#include "broker/schedule/delay_offset_table.h"
#include "store/delay_level_table.h"

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::broker {

class ScheduleMessageService {
 public:
  // `store`, `offsets` and `clock` must outlive the service.
  ScheduleMessageService(store::MessageStore* store, store::DelayLevelTable levels,
                         DelayOffsetTable* offsets, int64_t flush_interval_ms,
                         const Clock* clock = Clock::Real());
  ~ScheduleMessageService();
  ScheduleMessageService(const ScheduleMessageService&) = delete;
  ScheduleMessageService& operator=(const ScheduleMessageService&) = delete;

  // Loads delayOffset.json, corrects every offset into its queue's [min, max] and starts
  // delivering on `scheduler` (which must outlive Shutdown()).
  Status Start(Scheduler* scheduler);
  // Stops delivering and writes delayOffset.json.
  Status Shutdown();
  // A message arrived in SCHEDULE_TOPIC_XXXX: re-check the due times now.
  void NotifyArrival() {
    if (delivering_.load(std::memory_order_acquire)) job_.RunNow();
  }

  // One pass over every level at time `now_ms`: delivers what is due and returns the
  // earliest time something else becomes due (INT64_MAX when every level is empty).
  // Exposed for tests; the job calls it.
  int64_t DeliverDue(int64_t now_ms);

  int64_t delivered_count() const { return delivered_.load(std::memory_order_relaxed); }

 private:
  // One run of the job: deliver what is due, write the offsets when flushDelayOffsetInterval
  // passed; returns the milliseconds until the next run.
  int64_t RunOnce();
  // Delivers the due head of one level; returns the next due time of that level.
  int64_t DeliverLevel(int32_t level, int64_t now_ms);

  store::MessageStore* store_;
  const store::DelayLevelTable levels_;
  DelayOffsetTable* offsets_;
  const int64_t flush_interval_ms_;
  const Clock* clock_;
  std::atomic<int64_t> delivered_{0};
  bool started_ = false;
  int64_t last_flush_ms_ = 0;  // the job's only (set in Start before it is scheduled)
  int64_t next_wait_ms_ = 0;   // the job's only: RunOnce's answer, read as its interval
  ScheduledJob job_;           // assigned in Start before delivering_ is set
  std::atomic<bool> delivering_{false};
};

}  // namespace apogee::broker
