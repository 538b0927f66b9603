#include "admin/bench_stats.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <thread>
#include <vector>

namespace apogee::admin {
namespace {

TEST(BenchStatsTest, IntervalsResetButTotalsAccumulate) {
  BenchStats stats(1'000'000);
  // Below 128 us the histogram is exact, so the summary's numbers are too.
  stats.RecordSuccess(100, 1, 1024);
  stats.RecordSuccess(120, 4, 4096);
  stats.RecordFailure(2);
  IntervalReport first = stats.TakeInterval(2'000'000);
  EXPECT_DOUBLE_EQ(first.elapsed_seconds, 1.0);
  EXPECT_DOUBLE_EQ(first.interval_seconds, 1.0);
  EXPECT_EQ(first.ok, 5);
  EXPECT_EQ(first.failed, 2);
  EXPECT_DOUBLE_EQ(first.Tps(), 5.0);
  EXPECT_EQ(first.latency.count(), 2);
  EXPECT_EQ(first.latency.max(), 120);

  stats.RecordUnacked(3, 300);
  IntervalReport second = stats.TakeInterval(2'500'000);
  EXPECT_EQ(second.ok, 3);
  EXPECT_EQ(second.failed, 0);
  EXPECT_EQ(second.total_ok, 8);
  EXPECT_EQ(second.total_failed, 2);
  EXPECT_DOUBLE_EQ(second.Tps(), 6.0);
  EXPECT_EQ(second.latency.count(), 0);

  BenchSummary s = stats.Summarize({"producer", "sync", "T", 2, 1024, 1, 1}, 3'000'000);
  EXPECT_DOUBLE_EQ(s.elapsed_seconds, 2.0);
  EXPECT_EQ(s.ok, 8);
  EXPECT_EQ(s.failed, 2);
  EXPECT_EQ(s.bytes, 1024 + 4096 + 300);
  EXPECT_DOUBLE_EQ(s.tps, 4.0);
  EXPECT_DOUBLE_EQ(s.max_ms, 0.12);
  EXPECT_DOUBLE_EQ(s.p50_ms, 0.1);
  EXPECT_DOUBLE_EQ(s.mean_ms, 0.11);
}

TEST(BenchStatsTest, ConcurrentRecordsAreAllCounted) {
  BenchStats stats(0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10'000; ++i) stats.RecordSuccess(i % 100, 1, 10);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(stats.total_ok(), 40'000);
  EXPECT_EQ(stats.TakeInterval(1'000'000).latency.count(), 40'000);
}

TEST(BenchStatsTest, IntervalLineShowsRatesPercentilesAndProgress) {
  BenchStats stats(0);
  for (int i = 1; i <= 1000; ++i) stats.RecordSuccess(i % 100 + 1, 1, 1);
  IntervalReport r = stats.TakeInterval(1'000'000);
  std::string line = FormatIntervalLine(r, 4000, std::nullopt);
  EXPECT_NE(line.find("tps    1000.0"), std::string::npos) << line;
  EXPECT_NE(line.find("p50 0.050"), std::string::npos) << line;
  EXPECT_NE(line.find("p99 0.099"), std::string::npos) << line;
  EXPECT_NE(line.find("max 0.100"), std::string::npos) << line;
  EXPECT_NE(line.find("total 1000 / 4000 (25%)"), std::string::npos) << line;
  std::string timed = FormatIntervalLine(r, std::nullopt, 10.0);
  EXPECT_NE(timed.find("1s / 10s"), std::string::npos) << timed;
}

TEST(BenchStatsTest, SummaryAsTextAndJson) {
  BenchStats stats(0);
  stats.RecordSuccess(2000, 10, 10240);
  BenchSummary s = stats.Summarize({"producer", "async", "BenchTopic", 4, 1024, 10, 64}, 2'000'000);
  std::string text = FormatSummaryText(s);
  EXPECT_NE(text.find("TPS 5.0"), std::string::npos) << text;
  EXPECT_NE(text.find("mode async"), std::string::npos) << text;
  EXPECT_NE(text.find("p99.9 2.000"), std::string::npos) << text;

  rapidjson::Document doc;
  doc.Parse(FormatSummaryJson(s).c_str());
  ASSERT_FALSE(doc.HasParseError());
  EXPECT_STREQ(doc["mode"].GetString(), "producer");
  EXPECT_STREQ(doc["sendMode"].GetString(), "async");
  EXPECT_STREQ(doc["topic"].GetString(), "BenchTopic");
  EXPECT_EQ(doc["threads"].GetInt(), 4);
  EXPECT_EQ(doc["messages"].GetInt64(), 10);
  EXPECT_DOUBLE_EQ(doc["tps"].GetDouble(), 5.0);
  EXPECT_DOUBLE_EQ(doc["latencyMs"]["p50"].GetDouble(), 2.0);
  EXPECT_DOUBLE_EQ(doc["latencyMs"]["max"].GetDouble(), 2.0);
}

}  // namespace
}  // namespace apogee::admin
