// BenchStats: what mqbench counts while it runs (successes, failures, bytes, latency) and
// how it reports them: one line per second and a final summary as text or JSON.
// Record* may be called from any thread; TakeInterval / Summarize from one reporter.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "admin/bench_histogram.h"

namespace apogee::admin {

// What one reporting interval (normally a second) saw.
struct IntervalReport {
  double elapsed_seconds = 0;   // since the run started, at the end of the interval
  double interval_seconds = 0;  // length of this interval
  int64_t ok = 0;               // messages acknowledged (sent) or received in the interval
  int64_t failed = 0;
  int64_t total_ok = 0;  // since the start
  int64_t total_failed = 0;
  LatencyHistogram latency;  // microseconds

  double Tps() const { return interval_seconds > 0 ? ok / interval_seconds : 0; }
};

// The run's parameters as printed in the summary.
struct BenchParams {
  std::string mode;       // "producer" / "consumer"
  std::string send_mode;  // "sync" / "async" / "oneway" (producer)
  std::string topic;
  int threads = 1;
  int message_size = 0;
  int batch_size = 1;
  int async_window = 1;
};

struct BenchSummary {
  BenchParams params;
  double elapsed_seconds = 0;
  int64_t ok = 0;
  int64_t failed = 0;
  int64_t bytes = 0;
  double tps = 0;
  double mib_per_second = 0;
  double mean_ms = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  double p999_ms = 0;
  double max_ms = 0;
};

class BenchStats {
 public:
  // `start_micros` is the run's start on the caller's monotonic clock.
  explicit BenchStats(int64_t start_micros) : start_micros_(start_micros), last_micros_(start_micros) {}

  // `messages` acknowledged together (a batch) after `latency_micros`, carrying `bytes`.
  void RecordSuccess(int64_t latency_micros, int64_t messages, int64_t bytes);
  // A one-way send has no latency to record.
  void RecordUnacked(int64_t messages, int64_t bytes);
  void RecordFailure(int64_t messages);

  int64_t total_ok() const;
  int64_t total_failed() const;

  // The interval since the previous call (or the start), ending at `now_micros`.
  IntervalReport TakeInterval(int64_t now_micros);
  // Everything since the start, ending at `now_micros`.
  BenchSummary Summarize(const BenchParams& params, int64_t now_micros) const;

 private:
  mutable std::mutex mu_;
  const int64_t start_micros_;
  int64_t last_micros_;
  int64_t interval_ok_ = 0;
  int64_t interval_failed_ = 0;
  int64_t total_ok_ = 0;
  int64_t total_failed_ = 0;
  int64_t total_bytes_ = 0;
  LatencyHistogram interval_latency_;
  LatencyHistogram total_latency_;
};

// "[   3s] tps 12345.0  failed 0  latency ms p50 0.412 p99 1.203 p99.9 3.104 max 5.020  |
//  total 37012 / 100000 (37%)" — the part after '|' shows progress against whichever of
// `target_messages` / `target_seconds` is set.
std::string FormatIntervalLine(const IntervalReport& report, std::optional<int64_t> target_messages,
                               std::optional<double> target_seconds);

// Multi-line human summary.
std::string FormatSummaryText(const BenchSummary& summary);
// One JSON object (compact) with every summary field; latencies in milliseconds.
std::string FormatSummaryJson(const BenchSummary& summary);

}  // namespace apogee::admin
