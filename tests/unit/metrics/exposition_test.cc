#include "metrics/exposition.h"

#include <gtest/gtest.h>

namespace apogee::metrics {
namespace {

TEST(PromWriterTest, FamiliesAndSamples) {
  std::string out;
  PromWriter w(&out);
  w.Family("rocketmq_messages_in_total", "counter", "messages stored");
  w.Sample("rocketmq_messages_in_total", {{"topic", "T"}, {"cluster", "C"}}, int64_t{42});
  w.Sample("up", {}, 1.5);
  EXPECT_EQ(out,
            "# HELP rocketmq_messages_in_total messages stored\n"
            "# TYPE rocketmq_messages_in_total counter\n"
            "rocketmq_messages_in_total{topic=\"T\",cluster=\"C\"} 42\n"
            "up 1.5\n");
}

TEST(PromWriterTest, LabelValuesAreEscaped) {
  std::string out;
  PromWriter w(&out);
  w.Sample("m", {{"k", "a\"b\\c\nd"}}, int64_t{1});
  EXPECT_EQ(out, "m{k=\"a\\\"b\\\\c\\nd\"} 1\n");
}

TEST(PromWriterTest, HistogramIsCumulativeWithInfSumAndCount) {
  Histogram h({1, 10});
  h.Observe(0.5);
  h.Observe(5);
  h.Observe(5);
  h.Observe(100);
  std::string out;
  PromWriter w(&out);
  w.Histogram("lat", {{"n", "x"}}, h.Snapshot());
  EXPECT_EQ(out,
            "lat_bucket{n=\"x\",le=\"1\"} 1\n"
            "lat_bucket{n=\"x\",le=\"10\"} 3\n"
            "lat_bucket{n=\"x\",le=\"+Inf\"} 4\n"
            "lat_sum{n=\"x\"} 110.5\n"
            "lat_count{n=\"x\"} 4\n");
}

}  // namespace
}  // namespace apogee::metrics
