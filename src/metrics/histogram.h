// A fixed-bucket histogram whose Observe is a few relaxed atomic adds (safe on hot paths:
// no lock, no allocation). Bounds are upper bounds, ascending; values above the last fall
// in the implicit +Inf bucket.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace apogee::metrics {

struct HistogramSnapshot {
  std::vector<double> bounds;
  std::vector<int64_t> cumulative;  // per bound, then +Inf (== count)
  double sum = 0;
  int64_t count = 0;
};

class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds);
  Histogram(const Histogram&) = delete;
  Histogram& operator=(const Histogram&) = delete;

  void Observe(double value) { Observe(value, 1); }
  // `count` observations of `value` (a batch of equal-sized messages).
  void Observe(double value, int64_t count);
  // Buckets made cumulative, as Prometheus wants them.
  HistogramSnapshot Snapshot() const;
  const std::vector<double>& bounds() const { return bounds_; }

 private:
  const std::vector<double> bounds_;
  std::unique_ptr<std::atomic<int64_t>[]> buckets_;  // bounds_.size() + 1
  std::atomic<int64_t> count_{0};
  std::atomic<double> sum_{0};
};

}  // namespace apogee::metrics
