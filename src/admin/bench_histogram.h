// LatencyHistogram: latencies in microseconds in log-linear buckets (exact below 128 us,
// then 64 buckets per power of two, so any reported percentile is within 1.6% of the
// true value), for mqbench's per-second and final p50 / p99 / p99.9 / max.
// Not thread-safe: each sender keeps its own or records under BenchStats' lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace apogee::admin {

class LatencyHistogram {
 public:
  LatencyHistogram();

  void Record(int64_t micros);  // negative values count as 0
  void Merge(const LatencyHistogram& other);
  void Reset();

  int64_t count() const { return count_; }
  int64_t min() const { return count_ == 0 ? 0 : min_; }
  int64_t max() const { return max_; }
  double Mean() const { return count_ == 0 ? 0.0 : static_cast<double>(sum_) / count_; }

  // The smallest recorded-bucket value v with at least p% of the samples <= v, reported
  // as the bucket's upper bound but never above max(). 0 for an empty histogram.
  // p is clamped to [0, 100].
  int64_t Percentile(double p) const;

  // Bucket arithmetic, exposed for tests.
  static size_t BucketOf(int64_t micros);
  static int64_t BucketUpperBound(size_t bucket);

 private:
  std::vector<int64_t> buckets_;
  int64_t count_ = 0;
  int64_t sum_ = 0;
  int64_t min_ = 0;
  int64_t max_ = 0;
};

}  // namespace apogee::admin
