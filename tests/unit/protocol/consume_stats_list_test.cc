#include "protocol/consume_stats_list.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(ConsumeStatsListTest, EncodesGroupsAroundTheirConsumeStatsAndTheTotals) {
  ConsumeStats stats;
  stats.offset_table[MessageQueue{"T", "broker-a", 0}] = OffsetWrapper{10, 4, 7, 0};
  stats.offset_table[MessageQueue{"T", "broker-a", 1}] = OffsetWrapper{5, 5, 5, 0};
  EXPECT_EQ(ComputeTotalDiff(stats), 6);
  EXPECT_EQ(ComputeInflightTotalDiff(stats), 3);

  ConsumeStatsList list;
  list.broker_addr = "127.0.0.1:10911";
  list.groups.emplace_back("g\"1", std::vector<ConsumeStats>{stats});
  list.groups.emplace_back("idle", std::vector<ConsumeStats>{});
  list.total_diff = 6;
  list.total_inflight_diff = 3;
  EXPECT_EQ(EncodeConsumeStatsList(list),
            "{\"brokerAddr\":\"127.0.0.1:10911\",\"consumeStatsList\":[{\"g\\\"1\":[" +
                EncodeConsumeStats(stats) +
                "]},{\"idle\":[]}],\"totalDiff\":6,\"totalInflightDiff\":3}");
  // Each group's stats decode with the ConsumeStats codec.
  auto decoded = DecodeConsumeStats(EncodeConsumeStats(stats));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, stats);
}

}  // namespace
}  // namespace apogee::protocol
