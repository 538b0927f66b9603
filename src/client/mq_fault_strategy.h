// MQFaultStrategy: latency-based broker avoidance for producers (Java's MQFaultStrategy
// and LatencyFaultToleranceImpl). After each send the broker's latency maps to a period
// in which the broker is "not available":
//   latency >=   50  100  550  1000  2000  3000  15000 ms
//   pause    =    0    0  30 s  60 s  2 min 3 min 10 min
// and a failed send counts as 30 s of latency (10 minutes' pause). Queue choice then
// prefers available brokers, falling back to the least bad one.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "apogee/message_queue.h"
#include "base/clock.h"
#include "client/topic_publish_info.h"

namespace apogee::client {

inline constexpr std::array<int64_t, 7> kLatencyMax = {50, 100, 550, 1000, 2000, 3000, 15000};
inline constexpr std::array<int64_t, 7> kNotAvailableDuration = {0,      0,      30000, 60000,
                                                                 120000, 180000, 600000};
// The latency a failed send is charged with ("isolation").
inline constexpr int64_t kIsolationLatencyMs = 30000;

// The pause after a send that took `latency_ms` (Java's computeNotAvailableDuration).
int64_t ComputeNotAvailableDuration(int64_t latency_ms);

class MQFaultStrategy {
 public:
  explicit MQFaultStrategy(const Clock* clock = Clock::Real()) : clock_(clock) {}

  void set_enabled(bool enabled) { enabled_ = enabled; }
  bool enabled() const { return enabled_; }

  // The queue for the next attempt; `last_broker_name` is the broker of the previous
  // failed attempt ("" on the first). Disabled: round-robin avoiding the last broker.
  MessageQueue SelectOneMessageQueue(const TopicPublishInfo& info,
                                     std::string_view last_broker_name);
  // Records a send's latency; `isolation` for a failure. No-op when disabled.
  void UpdateFaultItem(const std::string& broker_name, int64_t latency_ms, bool isolation);
  bool IsAvailable(std::string_view broker_name) const;

 private:
  struct FaultItem {
    int64_t current_latency = 0;
    int64_t start_timestamp = 0;  // available again from this time on
  };
  // The least bad broker (Java's pickOneAtLeast): sorted by available, then latency, then
  // start time; one of the better half, rotating.
  std::optional<std::string> PickOneAtLeast();

  const Clock* clock_;
  bool enabled_ = false;
  mutable std::mutex mu_;
  std::map<std::string, FaultItem, std::less<>> items_;  // guarded by mu_
  uint32_t which_item_worst_ = 0;                        // guarded by mu_
};

}  // namespace apogee::client
