#include "admin/bench_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace apogee::admin {
namespace {

TEST(LatencyHistogramTest, EmptyIsZero) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0);
  EXPECT_EQ(h.Percentile(50), 0);
  EXPECT_EQ(h.max(), 0);
  EXPECT_EQ(h.Mean(), 0.0);
}

TEST(LatencyHistogramTest, SmallValuesAreExact) {
  LatencyHistogram h;
  for (int v = 1; v <= 100; ++v) h.Record(v);
  EXPECT_EQ(h.Percentile(50), 50);
  EXPECT_EQ(h.Percentile(99), 99);
  EXPECT_EQ(h.Percentile(100), 100);
  EXPECT_EQ(h.Percentile(0), 1);
  EXPECT_EQ(h.min(), 1);
  EXPECT_EQ(h.max(), 100);
  EXPECT_DOUBLE_EQ(h.Mean(), 50.5);
}

TEST(LatencyHistogramTest, BucketsCoverEveryValueWithBoundedError) {
  for (int64_t v : {0, 1, 127, 128, 129, 255, 256, 1000, 65'535, 1'000'000, 123'456'789}) {
    size_t b = LatencyHistogram::BucketOf(v);
    int64_t upper = LatencyHistogram::BucketUpperBound(b);
    EXPECT_GE(upper, v) << v;
    EXPECT_LE(upper - v, v / 60 + 1) << v;  // within ~1.6%
    if (b > 0) {
      EXPECT_LT(LatencyHistogram::BucketUpperBound(b - 1), v) << v;
    }
  }
}

TEST(LatencyHistogramTest, PercentilesMatchSortedSamplesWithinPrecision) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> dist(7.0, 1.0);  // ~1 ms median, long tail
  std::vector<int64_t> samples;
  LatencyHistogram h;
  for (int i = 0; i < 100'000; ++i) {
    int64_t v = static_cast<int64_t>(dist(rng));
    samples.push_back(v);
    h.Record(v);
  }
  std::sort(samples.begin(), samples.end());
  for (double p : {50.0, 90.0, 99.0, 99.9}) {
    size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * samples.size()));
    int64_t exact = samples[rank - 1];
    int64_t got = h.Percentile(p);
    EXPECT_GE(got, exact) << p;
    EXPECT_LE(got, exact + exact / 60 + 1) << p;
  }
  EXPECT_EQ(h.Percentile(100), samples.back());
  EXPECT_EQ(h.max(), samples.back());
}

TEST(LatencyHistogramTest, PercentileNeverExceedsMax) {
  LatencyHistogram h;
  h.Record(1000);  // bucket upper bound is above 1000
  EXPECT_EQ(h.Percentile(50), 1000);
  EXPECT_EQ(h.Percentile(99.9), 1000);
}

TEST(LatencyHistogramTest, MergeAndReset) {
  LatencyHistogram a, b;
  a.Record(10);
  a.Record(20);
  b.Record(5);
  b.Record(500);
  a.Merge(b);
  EXPECT_EQ(a.count(), 4);
  EXPECT_EQ(a.min(), 5);
  EXPECT_EQ(a.max(), 500);
  EXPECT_EQ(a.Percentile(50), 10);
  a.Reset();
  EXPECT_EQ(a.count(), 0);
  EXPECT_EQ(a.max(), 0);
  a.Record(-3);  // clock skew: counted as 0
  EXPECT_EQ(a.max(), 0);
  EXPECT_EQ(a.count(), 1);
}

}  // namespace
}  // namespace apogee::admin
