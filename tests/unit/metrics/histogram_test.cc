#include "metrics/histogram.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace apogee::metrics {
namespace {

TEST(HistogramTest, BoundsAreInclusiveUpperBounds) {
  Histogram h({10, 20});
  h.Observe(10);   // le=10
  h.Observe(10.5);  // le=20
  h.Observe(21);   // +Inf
  HistogramSnapshot s = h.Snapshot();
  EXPECT_EQ(s.cumulative, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(s.count, 3);
  EXPECT_DOUBLE_EQ(s.sum, 41.5);
}

TEST(HistogramTest, BatchObservationsAndConcurrentWriters) {
  Histogram h({100});
  h.Observe(50, 4);
  h.Observe(50, 0);  // ignored
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&h] {
      for (int i = 0; i < 10000; ++i) h.Observe(200);
    });
  }
  for (auto& t : threads) t.join();
  HistogramSnapshot s = h.Snapshot();
  EXPECT_EQ(s.cumulative[0], 4);
  EXPECT_EQ(s.count, 40004);
  EXPECT_DOUBLE_EQ(s.sum, 200 + 40000 * 200.0);
}

}  // namespace
}  // namespace apogee::metrics
