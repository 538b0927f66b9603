#include "protocol/topic_config.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(TopicConfigTest, DataVersionGoldenAndJava497Form) {
  DataVersion v{0, 1700000000000, 3};
  EXPECT_EQ(EncodeDataVersion(v), R"({"counter":3,"stateVersion":0,"timestamp":1700000000000})");
  // 4.9.7 writes no stateVersion; fastjson may put the AtomicLong counter in quotes.
  Result<DataVersion> old = DecodeDataVersion(R"({"counter":"3","timestamp":1700000000000})");
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ(*old, v);
}

TEST(TopicConfigTest, TopicConfigGoldenWithJavaDefaults) {
  TopicConfig config;
  config.topic_name = "TopicTest";
  EXPECT_EQ(EncodeTopicConfig(config),
            R"({"order":false,"perm":6,"readQueueNums":16,"topicFilterType":"SINGLE_TAG",)"
            R"("topicName":"TopicTest","topicSysFlag":0,"writeQueueNums":16})");
  Result<TopicConfig> back = DecodeTopicConfig(R"({"topicName":"TopicTest"})");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, config);
}

TEST(TopicConfigTest, AttributesRoundTrip) {
  TopicConfig config;
  config.topic_name = "T";
  config.order = true;
  config.attributes["+message.type"] = "NORMAL";
  Result<TopicConfig> back = DecodeTopicConfig(EncodeTopicConfig(config));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, config);
}

TEST(TopicConfigTest, TextFormAsJavaWritesIt) {
  TopicConfig config;
  config.topic_name = "TopicTest";
  config.read_queue_nums = 4;
  config.write_queue_nums = 8;
  config.perm = 6;
  EXPECT_EQ(EncodeTopicConfigText(config), "TopicTest 4 8 6 SINGLE_TAG");
  Result<TopicConfig> back = DecodeTopicConfigText("TopicTest 4 8 6 SINGLE_TAG");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, config);

  // 5.x appends the attributes JSON.
  config.attributes["a"] = "b c";
  EXPECT_EQ(EncodeTopicConfigText(config), R"(TopicTest 4 8 6 SINGLE_TAG {"a":"b c"})");
  back = DecodeTopicConfigText(EncodeTopicConfigText(config));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, config);
  back = DecodeTopicConfigText("T 1 1 6 MULTI_TAG {}");
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->attributes.empty());
}

// Fuzz finding (body_decode_fuzz, issue 12): " 0 8 6  {}" decoded with an empty filter type,
// which was written back as " 0 8 6 " and no longer decoded (the trailing field dropped).
TEST(TopicConfigTest, TextFormEmptyFilterTypeRoundTrips) {
  Result<TopicConfig> first = DecodeTopicConfigText(" 0 8 6  {}");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->topic_name, "");
  EXPECT_EQ(first->topic_filter_type, "SINGLE_TAG");
  Result<TopicConfig> second = DecodeTopicConfigText(EncodeTopicConfigText(*first));
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(*second, *first);

  TopicConfig empty_type;
  empty_type.topic_name = "T";
  empty_type.topic_filter_type.clear();
  EXPECT_EQ(EncodeTopicConfigText(empty_type), "T 16 16 6 SINGLE_TAG");
}

TEST(TopicConfigTest, TextFormErrors) {
  EXPECT_EQ(DecodeTopicConfigText("T 1 1 6").status().message(),
            "topic config text \"T 1 1 6\" has 4 fields, expected at least 5");
  EXPECT_NE(DecodeTopicConfigText("T x 1 6 SINGLE_TAG").status().message().find("non-numeric"),
            std::string::npos);
}

TEST(TopicConfigTest, WrapperRoundTripAndMapKeyFallback) {
  TopicConfigSerializeWrapper wrapper;
  wrapper.data_version = {1, 2, 3};
  TopicConfig a;
  a.topic_name = "A";
  a.perm = 7;
  wrapper.topic_config_table["A"] = a;
  TopicConfig retry;
  retry.topic_name = "%RETRY%G";
  retry.read_queue_nums = retry.write_queue_nums = 1;
  wrapper.topic_config_table["%RETRY%G"] = retry;
  Result<TopicConfigSerializeWrapper> back =
      DecodeTopicConfigSerializeWrapper(EncodeTopicConfigSerializeWrapper(wrapper));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, wrapper);

  Result<TopicConfigSerializeWrapper> keyed = DecodeTopicConfigSerializeWrapper(
      R"({"topicConfigTable":{"K":{"perm":2}},"mappingDataVersion":{}})");
  ASSERT_TRUE(keyed.ok());
  EXPECT_EQ(keyed->topic_config_table.at("K").topic_name, "K");
  EXPECT_EQ(keyed->topic_config_table.at("K").perm, 2);
}

}  // namespace
}  // namespace apogee::protocol
