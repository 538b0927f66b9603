// TimerMessageService: delivers timer messages, those with an arbitrary delivery time
// (5.x TIMER_DELIVER_MS / TIMER_DELAY_SEC / TIMER_DELAY_MS, ali-ons __STARTDELIVERTIME),
// at or after that time. Design and on-disk state: docs/format/timer_messages.md.
//
// The send path parks such a message in rmq_sys_wheel_timer queue 0 with TIMER_OUT_MS =
// the exact delivery time (message_redirect.h); the store gives its ConsumeQueue entry that
// time as tag code. Unlike a delay level, the queue is not in delivery order, so this
// service keeps an in-memory index of the undelivered entries ordered by (delivery time,
// queue offset), built by scanning the queue: at start from the persisted low-water mark,
// afterwards whenever a message arrives. A job on the broker's Scheduler (quick lane: a
// delivery is a local put that never waits for a flush) delivers every due entry (restoring
// the real topic, as the schedule service does) and runs again at the earliest delivery
// time or at the next arrival.
//
// Progress, in config/timerOffset.json (Apogee's own file): `commitOffset`, below which
// every entry was delivered, and `deliveredRanges`, the delivered queue offsets at or
// above it as [begin, end) ranges. Written every flushDelayOffsetInterval and at shutdown;
// a crash re-delivers at most what was delivered since the last write (at least once).
//
// Thread-safety: NotifyArrival from any thread; Start/Shutdown from one thread; the
// accessors for tests from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "base/clock.h"
#include "base/scheduler.h"
#include "base/status.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::broker {

class ConfigFile;

// The persisted progress (timerOffset.json): the low-water mark and the delivered queue
// offsets above it as an interval set. Not thread-safe (the service's thread owns it).
class TimerProgress {
 public:
  int64_t commit_offset() const { return commit_offset_; }
  const std::map<int64_t, int64_t>& delivered_ranges() const { return ranges_; }
  bool IsDelivered(int64_t offset) const;
  void MarkDelivered(int64_t offset);
  // Marks [begin, end) in O(log n + ranges merged), whatever its length: a range read back
  // from timerOffset.json may span billions of offsets.
  void MarkDeliveredRange(int64_t begin, int64_t end);
  // Moves the low-water mark up to `offset` (nothing below it is pending any more),
  // dropping the ranges below it.
  void AdvanceCommitOffset(int64_t offset);

  std::string Encode() const;
  // Corruption naming the field on anything malformed.
  Status Decode(std::string_view json);

 private:
  int64_t commit_offset_ = 0;
  std::map<int64_t, int64_t> ranges_;  // begin -> end (exclusive), disjoint, not adjacent
};

class TimerMessageService {
 public:
  // `store`, `env` and `clock` must outlive the service; `path` is timerOffset.json.
  TimerMessageService(store::MessageStore* store, env::Env* env, std::string path,
                      int64_t flush_interval_ms, const Clock* clock = Clock::Real());
  ~TimerMessageService();
  TimerMessageService(const TimerMessageService&) = delete;
  TimerMessageService& operator=(const TimerMessageService&) = delete;

  // Loads the progress, indexes the undelivered entries and starts delivering on
  // `scheduler` (which must outlive Shutdown()).
  Status Start(Scheduler* scheduler);
  // Stops and writes the progress.
  Status Shutdown();
  // A message arrived in the timer topic: index it now.
  void NotifyArrival() {
    if (delivering_.load(std::memory_order_acquire)) job_.RunNow();
  }

  // One pass at `now_ms`: index new entries, deliver the due ones; returns the next due
  // time (INT64_MAX when nothing is pending). Exposed for tests; the job calls it.
  int64_t ScanAndDeliver(int64_t now_ms);
  Status PersistProgress();

  size_t pending_count() const;
  int64_t delivered_count() const { return delivered_.load(std::memory_order_relaxed); }

 private:
  // One run of the job: ScanAndDeliver, the progress written when flushDelayOffsetInterval
  // passed; returns the milliseconds until the next run.
  int64_t RunOnce();
  void ScanNewEntries();                     // mu_ held
  int64_t DeliverDueLocked(int64_t now_ms);  // mu_ held

  store::MessageStore* store_;
  std::unique_ptr<ConfigFile> file_;
  const int64_t flush_interval_ms_;
  const Clock* clock_;
  mutable std::mutex mu_;
  TimerProgress progress_;                         // guarded by mu_
  int64_t scanned_to_ = 0;                         // guarded by mu_
  std::set<std::pair<int64_t, int64_t>> pending_;  // (deliver ms, queue offset); mu_
  std::set<int64_t> pending_offsets_;              // guarded by mu_
  bool dirty_ = false;                             // guarded by mu_
  std::atomic<int64_t> delivered_{0};
  bool started_ = false;
  int64_t last_flush_ms_ = 0;  // the job's only (set in Start before it is scheduled)
  int64_t next_wait_ms_ = 0;   // the job's only: RunOnce's answer, read as its interval
  ScheduledJob job_;           // assigned in Start before delivering_ is set
  std::atomic<bool> delivering_{false};
};

}  // namespace apogee::broker
