// Counters of the CommitLog flush services, for the broker's Prometheus metrics: how long
// each flush of dirty pages took (msync/fdatasync of a mapped file, in microseconds) and
// how many SYNC_FLUSH requests one group commit answered. The store does not depend on
// the metrics module, so the buckets are kept here as plain relaxed atomics (the flush
// thread writes, a scrape reads; no lock, no allocation).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace apogee::store {

// One fixed-bucket distribution. Upper bounds are inclusive and ascending; the last slot
// counts values above every bound.
template <size_t N>
class FlushDistribution {
 public:
  explicit constexpr FlushDistribution(const std::array<int64_t, N>& bounds) : bounds_(bounds) {}

  void Record(int64_t value) {
    size_t i = 0;
    while (i < N && value > bounds_[i]) ++i;
    buckets_[i].fetch_add(1, std::memory_order_relaxed);
    sum_.fetch_add(value, std::memory_order_relaxed);
  }
  const std::array<int64_t, N>& bounds() const { return bounds_; }
  // Non-cumulative count of bucket `i` (i == N: above the last bound).
  int64_t bucket(size_t i) const { return buckets_[i].load(std::memory_order_relaxed); }
  int64_t sum() const { return sum_.load(std::memory_order_relaxed); }
  int64_t count() const {
    int64_t n = 0;
    for (const auto& b : buckets_) n += b.load(std::memory_order_relaxed);
    return n;
  }

 private:
  const std::array<int64_t, N> bounds_;
  std::array<std::atomic<int64_t>, N + 1> buckets_{};
  std::atomic<int64_t> sum_{0};
};

struct FlushStats {
  // Flush calls that wrote pages, in microseconds (100 us .. 1 s).
  FlushDistribution<12> sync_micros{
      {100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 1000000}};
  // SYNC_FLUSH requests answered by one group commit (1 .. 1024).
  FlushDistribution<11> group_commit_batch{{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}};
};

}  // namespace apogee::store
