#include "broker/broker_runtime_info.h"

#include <gtest/gtest.h>

#include "base/clock.h"
#include "send_pull_test_util.h"

namespace apogee::broker {
namespace {

TEST(BrokerRuntimeStatsTest, CountsQueueAdvancesAfterTheFirstSighting) {
  ManualClock clock(1'000'000);
  BrokerRuntimeStats stats(&clock);
  stats.OnMessageArriving("T", 0, 5);  // baseline only: offsets before start are not puts
  EXPECT_EQ(stats.put_total(), 0);
  stats.OnMessageArriving("T", 0, 8);
  stats.OnMessageArriving("T", 1, 2);
  stats.OnMessageArriving("T", 1, 3);
  stats.OnMessageArriving("U", 0, 1);
  EXPECT_EQ(stats.put_total(), 4);
  // A recreated queue restarting below its last offset counts nothing, then resumes.
  stats.OnMessageArriving("T", 0, 1);
  stats.OnMessageArriving("T", 0, 2);
  EXPECT_EQ(stats.put_total(), 5);
}

TEST(BrokerRuntimeStatsTest, TpsOverWindows) {
  ManualClock clock(1'000'000);
  BrokerRuntimeStats stats(&clock);
  stats.OnMessageArriving("T", 0, 0);
  // 100 messages per second for 20 s.
  for (int s = 1; s <= 20; ++s) {
    clock.Advance(1000);
    stats.OnMessageArriving("T", 0, s * 100);
  }
  EXPECT_NEAR(stats.PutTps(10'000), 100.0, 0.01);
  // The 60 s window reaches back before start: measured since start (20 s).
  EXPECT_NEAR(stats.PutTps(60'000), 100.0, 0.01);
  clock.Advance(10'000);  // idle
  EXPECT_NEAR(stats.PutTps(10'000), 0.0, 0.01);
  EXPECT_NEAR(stats.PutTps(600'000), 2000.0 / 30.0, 0.01);
}

TEST(BrokerRuntimeStatsTest, OldSamplesArePrunedButTheBaselineKept) {
  ManualClock clock(0);
  BrokerRuntimeStats stats(&clock);
  stats.OnMessageArriving("T", 0, 0);
  for (int s = 1; s <= 1200; ++s) {
    clock.Advance(1000);
    stats.OnMessageArriving("T", 0, s);
  }
  EXPECT_NEAR(stats.PutTps(600'000), 1.0, 0.01);
  EXPECT_NEAR(stats.PutTps(10'000), 1.0, 0.01);
}

TEST(BrokerRuntimeInfoTest, Formats) {
  EXPECT_EQ(FormatTpsTriple(12, 10.5, 3.254), "12.00 10.50 3.25");
  EXPECT_EQ(FormatRuntime(((1 * 86400 + 2 * 3600 + 3 * 60) + 4) * 1000LL + 999),
            "[ 1 days, 2 hours, 3 minutes, 4 seconds ]");
  EXPECT_EQ(FormatRuntime(-5), "[ 0 days, 0 hours, 0 minutes, 0 seconds ]");
}

TEST(BrokerRuntimeInfoTest, TableHasEveryKeyClusterListParses) {
  testing::BrokerHarness harness;
  ManualClock clock(5'000);
  BrokerRuntimeStats stats(&clock);
  stats.OnMessageArriving("T", 0, 0);
  clock.Advance(2000);
  stats.OnMessageArriving("T", 0, 20);
  protocol::KVTable kv = BuildBrokerRuntimeInfo(harness.context, stats, harness.env.get());
  for (const char* key :
       {"brokerVersionDesc", "putTps", "getTransferedTps", "msgPutTotalTodayNow",
        "msgGetTotalTodayNow", "msgPutTotalTodayMorning", "msgGetTotalTodayMorning",
        "msgPutTotalYesterdayMorning", "msgGetTotalYesterdayMorning", "commitLogDiskRatio",
        "pageCacheLockTimeMills", "earliestMessageTimeStamp", "sendThreadPoolQueueSize",
        "sendThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueSize",
        "pullThreadPoolQueueHeadWaitTimeMills", "timerReadBehind", "timerOffsetBehind",
        "timerCongestNum", "timerEnqueueTps", "timerDequeueTps", "brokerActive"}) {
    EXPECT_EQ(kv.table.count(key), 1u) << key;
  }
  EXPECT_EQ(kv.table["brokerVersionDesc"], "V4_9_4");
  EXPECT_EQ(kv.table["msgPutTotalTodayNow"], "20");
  EXPECT_EQ(kv.table["putTps"], "10.00 10.00 10.00");
  EXPECT_EQ(kv.table["runtime"], "[ 0 days, 0 hours, 0 minutes, 2 seconds ]");
  EXPECT_EQ(kv.table["storeWritable"], "true");
  const double ratio = std::stod(kv.table["commitLogDiskRatio"]);
  EXPECT_GE(ratio, 0.0);
  EXPECT_LE(ratio, 1.0);
  EXPECT_EQ(BuildBrokerRuntimeInfo(harness.context, stats, nullptr).table["commitLogDiskRatio"], "-1");
}

}  // namespace
}  // namespace apogee::broker
