// One counter of the broker's runtime statistics (Java's StatsItem): a running sum and a
// call count, both atomics, plus the snapshots that turn them into rates. Writers only
// add to the atomics (no lock, no allocation); the sampler and readers share the
// snapshot rings under a mutex.
//
// Snapshot rings, as Java keeps them: every 10 s for the last 10 minutes (the minute view
// and the 10 s / 1 min / 10 min rates), every 10 minutes for the last hour (7 points) and
// every hour for the last day (25 points). A new item starts with a zero snapshot at its
// creation, so its first messages already count in every window.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

namespace apogee::broker {

// Java's StatsSnapshot: sum over the view, rate per second, and sum per call.
struct StatsSnapshot {
  int64_t sum = 0;
  double tps = 0;
  double avgpt = 0;
};

class StatsItem {
 public:
  StatsItem(std::string key, int64_t now_ms);
  StatsItem(const StatsItem&) = delete;
  StatsItem& operator=(const StatsItem&) = delete;

  void Add(int64_t value, int64_t times) {
    value_.fetch_add(value, std::memory_order_relaxed);
    times_.fetch_add(times, std::memory_order_relaxed);
  }

  const std::string& key() const { return key_; }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }
  int64_t times() const { return times_.load(std::memory_order_relaxed); }

  // Takes the snapshots that are due at `now_ms`. Called every second or so.
  void Sample(int64_t now_ms);

  // Units per second over the last `window_ms` (at most 10 minutes): the live value
  // against the newest snapshot at or before the window's start (the oldest one when
  // the item is younger than the window).
  double Tps(int64_t now_ms, int64_t window_ms) const;

  // Java's getStatsDataInMinute / InHour / InDay: first to last snapshot of each view.
  StatsSnapshot Minute() const;
  StatsSnapshot Hour() const;
  StatsSnapshot Day() const;

 private:
  struct Point {
    int64_t ms;
    int64_t value;
    int64_t times;
  };
  struct Ring {
    int64_t spacing_ms;
    size_t capacity;
    std::deque<Point> points;
    void Offer(const Point& p);
  };
  static StatsSnapshot Between(const Point& first, const Point& last);
  static StatsSnapshot View(const std::deque<Point>& points, size_t last_n);

  const std::string key_;
  std::atomic<int64_t> value_{0};
  std::atomic<int64_t> times_{0};
  mutable std::mutex mu_;
  Ring fine_{10'000, 61, {}};     // guarded by mu_
  Ring hour_{600'000, 7, {}};     // guarded by mu_
  Ring day_{3'600'000, 25, {}};   // guarded by mu_
};

}  // namespace apogee::broker
