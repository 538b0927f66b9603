#include "protocol/broker_stats_data.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(BrokerStatsDataTest, RoundTripsAndReadsJavasBody) {
  BrokerStatsData d;
  d.stats_minute = {120, 2.0, 1.5};
  d.stats_hour = {7200, 2.0, 1.0};
  d.stats_day = {0, 0, 0};
  auto back = DecodeBrokerStatsData(EncodeBrokerStatsData(d));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, d);
  // fastjson's form, numbers as Java prints them.
  auto java = DecodeBrokerStatsData(
      R"({"statsDay":{"avgpt":0.0,"sum":0,"tps":0.0},"statsHour":{"avgpt":1.0,"sum":30,"tps":0.5},)"
      R"("statsMinute":{"avgpt":1.0,"sum":3,"tps":0.05}})");
  ASSERT_TRUE(java.ok()) << java.status().ToString();
  EXPECT_EQ(java->stats_minute.sum, 3);
  EXPECT_DOUBLE_EQ(java->stats_minute.tps, 0.05);
  EXPECT_EQ(java->stats_hour.sum, 30);
}

TEST(BrokerStatsDataTest, BadBodiesAreCorruptionNamingTheField) {
  EXPECT_FALSE(DecodeBrokerStatsData("not json").ok());
  auto bad = DecodeBrokerStatsData(R"({"statsMinute":{"sum":1,"tps":"fast"}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().ToString().find("statsMinute.tps"), std::string::npos) << bad.status().ToString();
}

}  // namespace
}  // namespace apogee::protocol
