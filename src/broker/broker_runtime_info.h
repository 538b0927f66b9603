// GET_BROKER_RUNTIME_INFO (28): the KVTable `mqadmin clusterList` and `brokerStatus` read
// (Java's AdminBrokerProcessor.prepareRuntimeInfo plus StoreStatsService;
// docs/protocol/remoting.md §5.5.5). Every key clusterList parses is present, because the Java
// tool fails on a missing one.
//
// BrokerRuntimeStats counts stored messages from the store's dispatch notifications (the
// context's message-arriving hook): a queue's next offset moving from a to b is b - a
// puts. The first notification of a queue after start only sets its baseline, so the
// first dispatched batch of each queue is not counted. Totals are since broker start
// (Java keeps day boundaries; "...TodayMorning"/"...YesterdayMorning" are the start
// values here, 0). Pulls are not observed, so the get counters and getTransferedTps are
// reported as 0 until the pull path exports a counter. "getTransferedTps" is Java's
// spelling, which dashboards and mqadmin parse, so it is kept.
//
// Thread-safety: OnMessageArriving runs on the store's reput thread, the readers on the
// admin executor; one mutex.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "base/clock.h"
#include "protocol/kv_table.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;

class BrokerRuntimeStats {
 public:
  // `clock` must outlive this; its current time is the boot timestamp.
  explicit BrokerRuntimeStats(const Clock* clock);
  BrokerRuntimeStats(const BrokerRuntimeStats&) = delete;
  BrokerRuntimeStats& operator=(const BrokerRuntimeStats&) = delete;

  void OnMessageArriving(std::string_view topic, int32_t queue_id, int64_t next_queue_offset);

  int64_t put_total() const;
  // Messages per second over the last `window_ms` (or since start when shorter).
  double PutTps(int64_t window_ms) const;
  int64_t boot_timestamp() const { return boot_timestamp_; }
  const Clock* clock() const { return clock_; }

 private:
  // Keeps one sample per second for the longest window (600 s), plus one older baseline.
  void SampleLocked(int64_t now_ms);

  const Clock* clock_;
  const int64_t boot_timestamp_;
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int32_t>, int64_t, std::less<>> last_offsets_;  // guarded
  int64_t put_total_ = 0;                                  // guarded by mu_
  mutable std::deque<std::pair<int64_t, int64_t>> samples_;  // (ms, total), guarded by mu_
};

// Java's StoreStatsService format: the 10 s, 60 s and 600 s rates, space separated,
// two decimals ("12.00 10.50 3.25").
std::string FormatTpsTriple(double tps10, double tps60, double tps600);

// StoreStatsService.getFormatRuntime: "[ 0 days, 1 hours, 2 minutes, 3 seconds ]".
std::string FormatRuntime(int64_t elapsed_ms);

// The runtime-info table of this broker now. `env` is the one the store runs on (for the
// disk usage of storePathRootDir); null reports the ratio as -1.
protocol::KVTable BuildBrokerRuntimeInfo(const BrokerContext& context,
                                         const BrokerRuntimeStats& stats, env::Env* env);

}  // namespace apogee::broker
