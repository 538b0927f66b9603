#include "admin/bench_stats.h"

#include <cstdio>
#include <string>

#include "protocol/json_util.h"

namespace apogee::admin {
namespace {

double Ms(int64_t micros) { return micros / 1000.0; }

std::string Printf(const char* format, auto... args) {
  char buf[512];
  int n = std::snprintf(buf, sizeof(buf), format, args...);
  return std::string(buf, n < 0 ? 0 : std::min<size_t>(static_cast<size_t>(n), sizeof(buf) - 1));
}

}  // namespace

void BenchStats::RecordSuccess(int64_t latency_micros, int64_t messages, int64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  interval_ok_ += messages;
  total_ok_ += messages;
  total_bytes_ += bytes;
  interval_latency_.Record(latency_micros);
  total_latency_.Record(latency_micros);
}

void BenchStats::RecordUnacked(int64_t messages, int64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  interval_ok_ += messages;
  total_ok_ += messages;
  total_bytes_ += bytes;
}

void BenchStats::RecordFailure(int64_t messages) {
  std::lock_guard<std::mutex> lock(mu_);
  interval_failed_ += messages;
  total_failed_ += messages;
}

int64_t BenchStats::total_ok() const {
  std::lock_guard<std::mutex> lock(mu_);
  return total_ok_;
}

int64_t BenchStats::total_failed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return total_failed_;
}

IntervalReport BenchStats::TakeInterval(int64_t now_micros) {
  std::lock_guard<std::mutex> lock(mu_);
  IntervalReport report;
  report.elapsed_seconds = (now_micros - start_micros_) / 1e6;
  report.interval_seconds = (now_micros - last_micros_) / 1e6;
  report.ok = interval_ok_;
  report.failed = interval_failed_;
  report.total_ok = total_ok_;
  report.total_failed = total_failed_;
  report.latency = interval_latency_;
  interval_ok_ = interval_failed_ = 0;
  interval_latency_.Reset();
  last_micros_ = now_micros;
  return report;
}

BenchSummary BenchStats::Summarize(const BenchParams& params, int64_t now_micros) const {
  std::lock_guard<std::mutex> lock(mu_);
  BenchSummary s;
  s.params = params;
  s.elapsed_seconds = (now_micros - start_micros_) / 1e6;
  s.ok = total_ok_;
  s.failed = total_failed_;
  s.bytes = total_bytes_;
  if (s.elapsed_seconds > 0) {
    s.tps = s.ok / s.elapsed_seconds;
    s.mib_per_second = s.bytes / s.elapsed_seconds / (1024.0 * 1024.0);
  }
  s.mean_ms = total_latency_.Mean() / 1000.0;
  s.p50_ms = Ms(total_latency_.Percentile(50));
  s.p99_ms = Ms(total_latency_.Percentile(99));
  s.p999_ms = Ms(total_latency_.Percentile(99.9));
  s.max_ms = Ms(total_latency_.max());
  return s;
}

std::string FormatIntervalLine(const IntervalReport& r, std::optional<int64_t> target_messages,
                               std::optional<double> target_seconds) {
  std::string line = Printf(
      "[%5.0fs] tps %9.1f  failed %lld  latency ms p50 %.3f p99 %.3f p99.9 %.3f max %.3f  | total %lld",
      r.elapsed_seconds, r.Tps(), static_cast<long long>(r.failed), Ms(r.latency.Percentile(50)),
      Ms(r.latency.Percentile(99)), Ms(r.latency.Percentile(99.9)), Ms(r.latency.max()),
      static_cast<long long>(r.total_ok));
  if (target_messages && *target_messages > 0) {
    line += Printf(" / %lld (%.0f%%)", static_cast<long long>(*target_messages),
                   100.0 * static_cast<double>(r.total_ok) / static_cast<double>(*target_messages));
  }
  if (target_seconds && *target_seconds > 0) {
    line += Printf("  %.0fs / %.0fs", r.elapsed_seconds, *target_seconds);
  }
  return line;
}

std::string FormatSummaryText(const BenchSummary& s) {
  const BenchParams& p = s.params;
  std::string out = "=== mqbench " + p.mode + " summary ===\n";
  out += Printf("topic %s  threads %d  size %d B", p.topic.c_str(), p.threads, p.message_size);
  if (p.mode == "producer") {
    out += Printf("  mode %s  batch %d  window %d", p.send_mode.c_str(), p.batch_size, p.async_window);
  }
  out += "\n";
  out += Printf("elapsed %.2f s  messages %lld  failed %lld\n", s.elapsed_seconds,
                static_cast<long long>(s.ok), static_cast<long long>(s.failed));
  out += Printf("TPS %.1f  throughput %.2f MiB/s\n", s.tps, s.mib_per_second);
  out += Printf("latency ms: mean %.3f  p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f\n", s.mean_ms,
                s.p50_ms, s.p99_ms, s.p999_ms, s.max_ms);
  return out;
}

std::string FormatSummaryJson(const BenchSummary& s) {
  protocol::json::StringBuffer buf;
  protocol::json::WriterTo<protocol::json::StringBuffer> w(buf);
  const BenchParams& p = s.params;
  w.StartObject();
  w.Key("mode");
  w.String(p.mode.c_str());
  if (p.mode == "producer") {
    w.Key("sendMode");
    w.String(p.send_mode.c_str());
    w.Key("batchSize");
    w.Int(p.batch_size);
    w.Key("asyncWindow");
    w.Int(p.async_window);
  }
  w.Key("topic");
  w.String(p.topic.c_str());
  w.Key("threads");
  w.Int(p.threads);
  w.Key("messageSize");
  w.Int(p.message_size);
  w.Key("elapsedSeconds");
  w.Double(s.elapsed_seconds);
  w.Key("messages");
  w.Int64(s.ok);
  w.Key("failed");
  w.Int64(s.failed);
  w.Key("bytes");
  w.Int64(s.bytes);
  w.Key("tps");
  w.Double(s.tps);
  w.Key("mibPerSecond");
  w.Double(s.mib_per_second);
  w.Key("latencyMs");
  w.StartObject();
  w.Key("mean");
  w.Double(s.mean_ms);
  w.Key("p50");
  w.Double(s.p50_ms);
  w.Key("p99");
  w.Double(s.p99_ms);
  w.Key("p999");
  w.Double(s.p999_ms);
  w.Key("max");
  w.Double(s.max_ms);
  w.EndObject();
  w.EndObject();
  return buf.GetString();
}

}  // namespace apogee::admin
