#include "broker/stats/broker_runtime_info.h"

#include <gtest/gtest.h>

#include "base/clock.h"
#include "broker/stats/broker_stats_manager.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

TEST(BrokerRuntimeInfoTest, Formats) {
  EXPECT_EQ(FormatTpsTriple(12, 10.5, 3.254), "12.00 10.50 3.25");
  EXPECT_EQ(FormatRuntime(((1 * 86400 + 2 * 3600 + 3 * 60) + 4) * 1000LL + 999),
            "[ 1 days, 2 hours, 3 minutes, 4 seconds ]");
  EXPECT_EQ(FormatRuntime(-5), "[ 0 days, 0 hours, 0 minutes, 0 seconds ]");
}

TEST(BrokerRuntimeInfoTest, TableHasEveryKeyClusterListParsesWithTheCounters) {
  testing::BrokerHarness harness;
  ManualClock clock(5'000);
  BrokerStatsManager stats(&clock);
  clock.Advance(2000);
  stats.OnPut("T", 20, 2000, 3);
  stats.OnGet("T", "G", true, 8, 800);
  stats.OnGet("T", "G", false, 0, 0);
  protocol::KVTable kv = BuildBrokerRuntimeInfo(harness.context, stats, harness.env.get());
  for (const char* key :
       {"brokerVersionDesc", "putTps", "getTransferedTps", "msgPutTotalTodayNow",
        "msgGetTotalTodayNow", "msgPutTotalTodayMorning", "msgGetTotalTodayMorning",
        "msgPutTotalYesterdayMorning", "msgGetTotalYesterdayMorning", "commitLogDiskRatio",
        "pageCacheLockTimeMills", "earliestMessageTimeStamp", "sendThreadPoolQueueSize",
        "sendThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueSize",
        "pullThreadPoolQueueHeadWaitTimeMills", "timerReadBehind", "timerOffsetBehind",
        "timerCongestNum", "timerEnqueueTps", "timerDequeueTps", "brokerActive",
        "getFoundTps", "getMissTps", "getTotalTps", "putMessageDistributeTime"}) {
    EXPECT_EQ(kv.table.count(key), 1u) << key;
  }
  EXPECT_EQ(kv.table["brokerVersionDesc"], "V4_9_4");
  EXPECT_EQ(kv.table["msgPutTotalTodayNow"], "20");
  EXPECT_EQ(kv.table["msgGetTotalTodayNow"], "8");
  EXPECT_EQ(kv.table["putTps"], "10.00 10.00 10.00");
  EXPECT_EQ(kv.table["getTransferedTps"], "4.00 4.00 4.00");
  EXPECT_EQ(kv.table["getTotalTps"], "1.00 1.00 1.00");
  EXPECT_EQ(kv.table["putMessageSizeTotal"], "2000");
  EXPECT_EQ(kv.table["putMessageAverageSize"], "100");
  EXPECT_EQ(kv.table["putMessageEntireTimeMax"], "3");
  EXPECT_NE(kv.table["putMessageDistributeTime"].find("[0~10ms]:1 "), std::string::npos)
      << kv.table["putMessageDistributeTime"];
  EXPECT_EQ(kv.table["runtime"], "[ 0 days, 0 hours, 0 minutes, 2 seconds ]");
  EXPECT_EQ(kv.table["storeWritable"], "true");
  const double ratio = std::stod(kv.table["commitLogDiskRatio"]);
  EXPECT_GE(ratio, 0.0);
  EXPECT_LE(ratio, 1.0);
  EXPECT_EQ(BuildBrokerRuntimeInfo(harness.context, stats, nullptr).table["commitLogDiskRatio"], "-1");
}

}  // namespace
}  // namespace apogee::broker
