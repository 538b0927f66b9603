// The broker's runtime statistics (Java's BrokerStatsManager plus the counters of its
// StoreStatsService): per topic put counts and bytes, per topic@group get counts and
// bytes, broker-wide put / get-found / get-miss / transferred totals with 10 s, 1 min and
// 10 min rates, the totals at this and yesterday's midnight, and the put latency
// distribution. GET_BROKER_RUNTIME_INFO, GET_CONSUME_STATS (consumeTps),
// VIEW_BROKER_STATS_DATA, GET_BROKER_CONSUME_STATS and the Prometheus metrics read them.
//
// Hot paths: the send completion calls OnPut once, the pull processor OnGet once; each
// is a lock-free lookup (StatsItemSet) and relaxed atomic adds, no allocation after a
// key's first sighting. A job on the broker's Scheduler (Start/Shutdown) calls Tick every
// second.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/scheduler.h"
#include "broker/stats/stats_item_set.h"
#include "metrics/histogram.h"
#include "store/put_status.h"

namespace apogee::broker {

// Java's BrokerStatsManager set names (VIEW_BROKER_STATS_DATA's statsName).
inline constexpr std::string_view kTopicPutNums = "TOPIC_PUT_NUMS";
inline constexpr std::string_view kTopicPutSize = "TOPIC_PUT_SIZE";
inline constexpr std::string_view kGroupGetNums = "GROUP_GET_NUMS";
inline constexpr std::string_view kGroupGetSize = "GROUP_GET_SIZE";
inline constexpr std::string_view kSndbckPutNums = "SNDBCK_PUT_NUMS";

// StoreStatsService's put latency buckets, in milliseconds: [<=0ms], [0~10ms], ...,
// [10s~]; a latency falls in the first bucket whose upper bound it is below.
inline constexpr size_t kPutLatencyBuckets = 13;
inline constexpr std::array<int64_t, kPutLatencyBuckets - 1> kPutLatencyUpperMs = {
    1, 10, 50, 100, 200, 500, 1000, 2000, 3000, 4000, 5000, 10000};
extern const std::array<const char*, kPutLatencyBuckets> kPutLatencyBucketNames;
size_t PutLatencyBucket(int64_t latency_ms);

// A counter with the per-second snapshots of the last 10 minutes (StoreStatsService's
// putTimesList and friends).
class BrokerCounter {
 public:
  explicit BrokerCounter(int64_t now_ms);
  void Add(int64_t n) { total_.fetch_add(n, std::memory_order_relaxed); }
  int64_t total() const { return total_.load(std::memory_order_relaxed); }
  void Sample(int64_t now_ms);
  // Per second over the last `window_ms` (or since the first snapshot when younger).
  double Tps(int64_t now_ms, int64_t window_ms) const;

 private:
  std::atomic<int64_t> total_{0};
  mutable std::mutex mu_;
  std::deque<std::pair<int64_t, int64_t>> samples_;  // (ms, total), guarded by mu_
};

// Totals at the last two local midnights (Java's BrokerStats "...TodayMorning" and
// "...YesterdayMorning"): 0 until the broker has seen a midnight.
struct DayMarks {
  int64_t today_morning = 0;
  int64_t yesterday_morning = 0;
};

class BrokerStatsManager;

// What a send hands its store completion: the topic's counters (looked up before the put,
// so the completion needs no topic string) and the start time. A default one (no
// statistics wired, as in unit tests) records nothing. Copyable, no allocation.
class PutRecorder {
 public:
  PutRecorder() = default;
  // Counts a stored put (messages, bytes, latency) or a failed one.
  void Done(const store::PutResult& result) const;

 private:
  friend class BrokerStatsManager;
  BrokerStatsManager* owner_ = nullptr;
  StatsItem* nums_ = nullptr;
  StatsItem* size_ = nullptr;
  int64_t begin_ms_ = 0;
};

class BrokerStatsManager {
 public:
  // `clock` must outlive this; its current time is the boot timestamp.
  explicit BrokerStatsManager(const Clock* clock);
  ~BrokerStatsManager();
  BrokerStatsManager(const BrokerStatsManager&) = delete;
  BrokerStatsManager& operator=(const BrokerStatsManager&) = delete;

  // ---- hot paths ----
  // Starts timing a put to `topic`; the store completion calls Done on the result.
  PutRecorder BeginPut(std::string_view topic);
  // A put that stored `msgs` messages of `bytes` bytes, `latency_ms` after the request
  // started (flush and replication waits included).
  void OnPut(std::string_view topic, int32_t msgs, int64_t bytes, int64_t latency_ms);
  void OnPutFailed() { put_failed_.fetch_add(1, std::memory_order_relaxed); }
  // A read for a pull: found (messages returned) or missed. Found reads count per
  // topic@group.
  void OnGet(std::string_view topic, std::string_view group, bool found, int32_t msgs,
             int64_t bytes);
  // A message a consumer sent back (CONSUMER_SEND_MSG_BACK), per topic@group.
  void OnSendBack(std::string_view topic, std::string_view group);

  // ---- sampling ----
  void Tick();
  // One Tick per second on `scheduler`'s quick lane (it must outlive Shutdown()).
  void Start(Scheduler* scheduler);
  void Shutdown();  // cancels the sampling; idempotent

  // ---- readers ----
  const Clock* clock() const { return clock_; }
  int64_t boot_timestamp() const { return boot_timestamp_; }
  const BrokerCounter& puts() const { return puts_; }
  const BrokerCounter& put_bytes() const { return put_bytes_; }
  const BrokerCounter& gets_found() const { return gets_found_; }
  const BrokerCounter& gets_missed() const { return gets_missed_; }
  const BrokerCounter& transferred() const { return transferred_; }
  const BrokerCounter& transferred_bytes() const { return transferred_bytes_; }
  int64_t put_failed() const { return put_failed_.load(std::memory_order_relaxed); }
  DayMarks put_marks() const;
  DayMarks get_marks() const;
  std::array<int64_t, kPutLatencyBuckets> PutLatencyDistribution() const;
  int64_t put_latency_max_ms() const { return put_latency_max_.load(std::memory_order_relaxed); }
  // Stored message sizes (RocketMQ 5.1's rocketmq_message_size buckets) and put latency in
  // ms, for the Prometheus metrics.
  metrics::HistogramSnapshot MessageSizeHistogram() const { return message_size_.Snapshot(); }
  metrics::HistogramSnapshot PutLatencyHistogram() const { return put_latency_hist_.Snapshot(); }

  // A set by Java name (kTopicPutNums, ...), or null for an unknown name.
  const StatsItemSet* Set(std::string_view name) const;
  // The one-minute rate of GROUP_GET_NUMS "topic@group" (Java's tpsGroupGetNums, which
  // reads the 10 s snapshots; this one is live, so a console sees a new consumer at once).
  double GroupGetTps(std::string_view topic, std::string_view group) const;

 private:
  friend class PutRecorder;
  void RecordPut(StatsItem* nums, StatsItem* size, int32_t msgs, int64_t bytes,
                 int64_t latency_ms);

  const Clock* clock_;
  const int64_t boot_timestamp_;
  BrokerCounter puts_;
  BrokerCounter put_bytes_;
  BrokerCounter gets_found_;
  BrokerCounter gets_missed_;
  BrokerCounter transferred_;
  BrokerCounter transferred_bytes_;
  std::atomic<int64_t> put_failed_{0};
  std::array<std::atomic<int64_t>, kPutLatencyBuckets> put_latency_{};
  std::atomic<int64_t> put_latency_max_{0};
  metrics::Histogram message_size_{{1024, 4096, 512 * 1024, 1024 * 1024, 2 * 1024 * 1024, 4 * 1024 * 1024}};
  metrics::Histogram put_latency_hist_{{1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000}};
  StatsItemSet topic_put_nums_{std::string(kTopicPutNums)};
  StatsItemSet topic_put_size_{std::string(kTopicPutSize)};
  StatsItemSet group_get_nums_{std::string(kGroupGetNums)};
  StatsItemSet group_get_size_{std::string(kGroupGetSize)};
  StatsItemSet sndbck_put_nums_{std::string(kSndbckPutNums)};

  mutable std::mutex day_mu_;
  int64_t last_day_ = -1;  // local day number of the last Tick, guarded by day_mu_
  DayMarks put_marks_;     // guarded by day_mu_
  DayMarks get_marks_;     // guarded by day_mu_

  ScheduledJob sampler_;  // "BrokerStatsSampler"
};

// Null-safe hooks for the processors (a processor built without statistics, as in most
// unit tests, records nothing).
PutRecorder BeginPut(BrokerStatsManager* stats, std::string_view topic);
void RecordGet(BrokerStatsManager* stats, std::string_view topic, std::string_view group,
               bool found, int32_t msgs, int64_t bytes);

}  // namespace apogee::broker
