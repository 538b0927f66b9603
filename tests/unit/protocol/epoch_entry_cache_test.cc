#include "protocol/epoch_entry_cache.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(EpochEntryCacheTest, EncodesWithSortedKeysAndRoundTrips) {
  EpochEntryCache c{"DefaultCluster", "broker-a", 1, {{1, 0, 4096}, {2, 4096, EpochEntryJson::kOpenEnd}}, 9000};
  const std::string json = EncodeEpochEntryCache(c);
  EXPECT_EQ(json,
            R"({"brokerId":1,"brokerName":"broker-a","clusterName":"DefaultCluster","epochList":[)"
            R"({"endOffset":4096,"epoch":1,"startOffset":0},)"
            R"({"endOffset":9223372036854775807,"epoch":2,"startOffset":4096}],"maxOffset":9000})");
  auto back = DecodeEpochEntryCache(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->broker_name, "broker-a");
  EXPECT_EQ(back->cluster_name, "DefaultCluster");
  EXPECT_EQ(back->broker_id, 1);
  EXPECT_EQ(back->max_offset, 9000);
  EXPECT_EQ(back->epoch_list, c.epoch_list);
}

TEST(EpochEntryCacheTest, JavaToString) {
  EXPECT_EQ(EpochEntryToString({3, 10, 20}), "EpochEntry{epoch=3, startOffset=10, endOffset=20}");
}

TEST(EpochEntryCacheTest, BadBodiesAreRefused) {
  EXPECT_FALSE(DecodeEpochEntryCache("[]").ok());
  EXPECT_FALSE(DecodeEpochEntryCache(R"({"epochList":[1]})").ok());
  EXPECT_FALSE(DecodeEpochEntryCache(R"({"epochList":[{"startOffset":1}]})").ok()) << "epoch missing";
  EXPECT_FALSE(DecodeEpochEntryCache(R"({"epochList":[{"epoch":"x","startOffset":1}]})").ok());
  auto empty = DecodeEpochEntryCache("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->epoch_list.empty());
}

}  // namespace
}  // namespace apogee::protocol
