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

TEST(ConsumeStatsListTest, DecodesWhatTheBrokerSends) {
  ConsumeStats stats;
  stats.offset_table[MessageQueue{"T", "broker-a", 0}] = OffsetWrapper{10, 4, 7, 1700000000123};
  stats.offset_table[MessageQueue{"U", "broker-a", 3}] = OffsetWrapper{5, 5, 5, 0};
  stats.consume_tps = 2.5;
  ConsumeStatsList list;
  list.broker_addr = "127.0.0.1:10911";
  list.groups.emplace_back("g1", std::vector<ConsumeStats>{stats, ConsumeStats{}});
  list.groups.emplace_back("idle", std::vector<ConsumeStats>{});
  list.total_diff = 6;
  list.total_inflight_diff = 3;
  auto decoded = DecodeConsumeStatsList(EncodeConsumeStatsList(list));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->broker_addr, list.broker_addr);
  EXPECT_EQ(decoded->total_diff, 6);
  EXPECT_EQ(decoded->total_inflight_diff, 3);
  ASSERT_EQ(decoded->groups.size(), 2u);
  EXPECT_EQ(decoded->groups[0].first, "g1");
  ASSERT_EQ(decoded->groups[0].second.size(), 2u);
  EXPECT_EQ(decoded->groups[0].second[0], stats);
  EXPECT_TRUE(decoded->groups[0].second[1].offset_table.empty());
  EXPECT_EQ(decoded->groups[1].first, "idle");
  EXPECT_TRUE(decoded->groups[1].second.empty());
}

TEST(ConsumeStatsListTest, RefusesMalformedBodiesNamingTheField) {
  for (const char* body : {"[]", "{\"consumeStatsList\":{}}", "{\"consumeStatsList\":[1]}",
                           "{\"consumeStatsList\":[{\"g\":{}}]}",
                           "{\"consumeStatsList\":[{\"g\":[7]}]}",
                           "{\"consumeStatsList\":[{\"g\":[{\"offsetTable\":{\"x\":1}}]}]}"}) {
    auto decoded = DecodeConsumeStatsList(body);
    EXPECT_FALSE(decoded.ok()) << body;
  }
}

}  // namespace
}  // namespace apogee::protocol
