#include "admin/bench_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace apogee::admin {
namespace {

constexpr int kSubBits = 6;                       // 64 sub-buckets per power of two
constexpr int64_t kLinearLimit = 2 << kSubBits;   // values below 128 get their own bucket
constexpr int kMaxExponent = 40;                  // 2^47 us is over four years
constexpr size_t kBucketCount = kLinearLimit + kMaxExponent * (1 << kSubBits);

}  // namespace

LatencyHistogram::LatencyHistogram() : buckets_(kBucketCount, 0) {}

size_t LatencyHistogram::BucketOf(int64_t micros) {
  if (micros < kLinearLimit) return static_cast<size_t>(std::max<int64_t>(micros, 0));
  // micros >= 128: keep the top 7 bits (64..127) and count how far it was shifted.
  int shift = std::bit_width(static_cast<uint64_t>(micros)) - (kSubBits + 1);
  shift = std::min(shift, kMaxExponent);
  int64_t top = std::min<int64_t>(micros >> shift, (2 << kSubBits) - 1);
  return static_cast<size_t>(kLinearLimit + (shift - 1) * (1 << kSubBits) +
                             (top - (1 << kSubBits)));
}

int64_t LatencyHistogram::BucketUpperBound(size_t bucket) {
  if (bucket < static_cast<size_t>(kLinearLimit)) return static_cast<int64_t>(bucket);
  size_t rel = bucket - kLinearLimit;
  int shift = static_cast<int>(rel >> kSubBits) + 1;
  int64_t top = static_cast<int64_t>(rel & ((1 << kSubBits) - 1)) + (1 << kSubBits);
  return ((top + 1) << shift) - 1;
}

void LatencyHistogram::Record(int64_t micros) {
  micros = std::max<int64_t>(micros, 0);
  ++buckets_[BucketOf(micros)];
  if (count_ == 0 || micros < min_) min_ = micros;
  max_ = std::max(max_, micros);
  ++count_;
  sum_ += micros;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (size_t i = 0; i < buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
}

void LatencyHistogram::Reset() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  count_ = sum_ = min_ = max_ = 0;
}

int64_t LatencyHistogram::Percentile(double p) const {
  if (count_ == 0) return 0;
  p = std::clamp(p, 0.0, 100.0);
  // Rank of the sample that p% of the samples are at or below (at least the first).
  int64_t rank = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(p / 100.0 * count_)));
  int64_t seen = 0;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen >= rank) return std::clamp(BucketUpperBound(i), min(), max_);
  }
  return max_;
}

}  // namespace apogee::admin
