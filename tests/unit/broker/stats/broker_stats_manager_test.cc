#include "broker/stats/broker_stats_manager.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "base/clock.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

TEST(BrokerStatsManagerTest, PutsCountPerTopicAndBrokerWide) {
  ManualClock clock(1'000'000);
  BrokerStatsManager stats(&clock);
  stats.OnPut("A", 1, 100, 0);
  stats.OnPut("A", 4, 400, 12);
  stats.OnPut("B", 1, 50, 7000);
  EXPECT_EQ(stats.puts().total(), 6);
  EXPECT_EQ(stats.put_bytes().total(), 550);
  const StatsItemSet* nums = stats.Set(kTopicPutNums);
  ASSERT_NE(nums, nullptr);
  ASSERT_NE(nums->Find("A"), nullptr);
  EXPECT_EQ(nums->Find("A")->value(), 5);
  EXPECT_EQ(nums->Find("A")->times(), 2);
  EXPECT_EQ(stats.Set(kTopicPutSize)->Find("B")->value(), 50);
  EXPECT_EQ(nums->Find("C"), nullptr);
  EXPECT_EQ(stats.Set("NO_SUCH_SET"), nullptr);

  const auto dist = stats.PutLatencyDistribution();
  EXPECT_EQ(dist[0], 1);   // [<=0ms]
  EXPECT_EQ(dist[2], 1);   // [10~50ms]
  EXPECT_EQ(dist[11], 1);  // [5~10s]
  EXPECT_EQ(stats.put_latency_max_ms(), 7000);
}

TEST(BrokerStatsManagerTest, LatencyBucketsAreJavas) {
  EXPECT_EQ(PutLatencyBucket(-1), 0u);
  EXPECT_EQ(PutLatencyBucket(0), 0u);
  EXPECT_EQ(PutLatencyBucket(9), 1u);
  EXPECT_EQ(PutLatencyBucket(10), 2u);
  EXPECT_EQ(PutLatencyBucket(999), 6u);
  EXPECT_EQ(PutLatencyBucket(1000), 7u);
  EXPECT_EQ(PutLatencyBucket(9999), 11u);
  EXPECT_EQ(PutLatencyBucket(10000), 12u);
  EXPECT_STREQ(kPutLatencyBucketNames[12], "[10s~]");
}

TEST(BrokerStatsManagerTest, GetsCountFoundPerGroupAndMissesBrokerWide) {
  ManualClock clock(0);
  BrokerStatsManager stats(&clock);
  stats.OnGet("T", "G1", true, 3, 300);
  stats.OnGet("T", "G1", true, 2, 200);
  stats.OnGet("T", "G2", true, 1, 100);
  stats.OnGet("T", "G1", false, 0, 0);
  EXPECT_EQ(stats.gets_found().total(), 3);
  EXPECT_EQ(stats.gets_missed().total(), 1);
  EXPECT_EQ(stats.transferred().total(), 6);
  EXPECT_EQ(stats.transferred_bytes().total(), 600);
  EXPECT_EQ(stats.Set(kGroupGetNums)->Find("T@G1")->value(), 5);
  EXPECT_EQ(stats.Set(kGroupGetSize)->Find("T@G2")->value(), 100);
}

TEST(BrokerStatsManagerTest, RatesOverTenSecondsOneMinuteAndTenMinutes) {
  ManualClock clock(0);
  BrokerStatsManager stats(&clock);
  // 10 messages per second for 20 minutes, then 100 per second for 10 seconds.
  for (int s = 1; s <= 1200; ++s) {
    stats.OnPut("T", 10, 10, 1);
    clock.Advance(1000);
    stats.Tick();
  }
  for (int s = 1; s <= 10; ++s) {
    stats.OnPut("T", 100, 100, 1);
    clock.Advance(1000);
    stats.Tick();
  }
  const int64_t now = clock.NowMillis();
  EXPECT_NEAR(stats.puts().Tps(now, 10'000), 100, 0.01);
  EXPECT_NEAR(stats.puts().Tps(now, 60'000), (50 * 10 + 10 * 100) / 60.0, 0.01);
  EXPECT_NEAR(stats.puts().Tps(now, 600'000), (590 * 10 + 10 * 100) / 600.0, 0.01);

  const StatsItem* item = stats.Set(kTopicPutNums)->Find("T");
  ASSERT_NE(item, nullptr);
  EXPECT_NEAR(item->Tps(now, 10'000), 100, 0.01);
  // The minute view: the snapshots of the last 60 s (every 10 s).
  const StatsSnapshot minute = item->Minute();
  EXPECT_EQ(minute.sum, 50 * 10 + 10 * 100);
  EXPECT_NEAR(minute.tps, minute.sum / 60.0, 0.01);
  EXPECT_NEAR(minute.avgpt, minute.sum / 60.0, 0.01);  // one call per second
  // The hour view spans what the broker saw (20 minutes, sampled every 10 minutes).
  EXPECT_EQ(item->Hour().sum, 1200 * 10);
  EXPECT_EQ(item->Day().sum, 0);  // no hourly snapshot yet besides the creation one
  EXPECT_NEAR(stats.GroupGetTps("T", "nobody"), 0, 1e-9);
}

TEST(BrokerStatsManagerTest, NewItemsCountFromTheirFirstMessage) {
  ManualClock clock(0);
  BrokerStatsManager stats(&clock);
  clock.Advance(5000);
  stats.OnGet("T", "G", true, 30, 30);
  clock.Advance(3000);
  EXPECT_NEAR(stats.Set(kGroupGetNums)->Find("T@G")->Tps(clock.NowMillis(), 60'000), 10, 0.01);
  stats.Tick();
  EXPECT_NEAR(stats.GroupGetTps("T", "G"), 10, 0.01);
}

TEST(BrokerStatsManagerTest, PutRecorderCountsStoredAndFailedPuts) {
  ManualClock clock(0);
  BrokerStatsManager stats(&clock);
  PutRecorder ok = stats.BeginPut("T");
  clock.Advance(25);
  store::PutResult stored;
  stored.status = store::PutStatus::kPutOk;
  stored.msg_num = 2;
  stored.wrote_bytes = 300;
  ok.Done(stored);
  store::PutResult failed;
  failed.status = store::PutStatus::kServiceNotAvailable;
  stats.BeginPut("T").Done(failed);
  PutRecorder().Done(stored);  // nothing wired: nothing recorded, no crash
  EXPECT_EQ(stats.puts().total(), 2);
  EXPECT_EQ(stats.put_bytes().total(), 300);
  EXPECT_EQ(stats.put_failed(), 1);
  EXPECT_EQ(stats.PutLatencyDistribution()[2], 1);  // 25 ms: [10~50ms]
}

TEST(BrokerStatsManagerTest, ManyKeysAndConcurrentWritersLoseNothing) {
  ManualClock clock(0);
  BrokerStatsManager stats(&clock);
  constexpr int kThreads = 4;
  constexpr int kTopics = 3000;  // grows the lookup table several times
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&stats] {
      for (int i = 0; i < kTopics; ++i) stats.OnPut("topic-" + std::to_string(i), 1, 1, 0);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(stats.Set(kTopicPutNums)->size(), static_cast<size_t>(kTopics));
  for (int i = 0; i < kTopics; i += 97) {
    const StatsItem* item = stats.Set(kTopicPutNums)->Find("topic-" + std::to_string(i));
    ASSERT_NE(item, nullptr) << i;
    EXPECT_EQ(item->value(), kThreads);
  }
  EXPECT_EQ(stats.puts().total(), kThreads * kTopics);
}

}  // namespace
}  // namespace apogee::broker
