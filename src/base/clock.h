// Wall and monotonic time, behind an interface so tests can drive time by hand.
#pragma once

#include <atomic>
#include <cstdint>

namespace apogee {

class Clock {
 public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch (Java's System.currentTimeMillis()).
  virtual int64_t NowMillis() const = 0;
  // Monotonic milliseconds, for timeouts and intervals.
  virtual int64_t SteadyMillis() const = 0;

  // The process-wide real clock.
  static Clock* Real();
};

// A clock that moves only when told to.
class ManualClock : public Clock {
 public:
  explicit ManualClock(int64_t start_millis = 1'700'000'000'000) : now_(start_millis) {}
  int64_t NowMillis() const override { return now_.load(); }
  int64_t SteadyMillis() const override { return now_.load(); }
  void Advance(int64_t millis) { now_.fetch_add(millis); }
  void Set(int64_t millis) { now_.store(millis); }

 private:
  std::atomic<int64_t> now_;
};

// Shorthands for the real clock.
int64_t NowMillis();
int64_t SteadyMillis();

}  // namespace apogee
