#include "protocol/topic_list.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(TopicListTest, GoldenAndRoundTrip) {
  TopicList list;
  list.topic_list = {"TopicTest", "%RETRY%G1", "TBW102"};
  EXPECT_EQ(EncodeTopicList(list), R"({"topicList":["%RETRY%G1","TBW102","TopicTest"]})");
  list.broker_addr = "10.0.0.5:10911";
  const std::string text = EncodeTopicList(list);
  EXPECT_EQ(text.rfind(R"({"brokerAddr":"10.0.0.5:10911","topicList":[)", 0), 0u);
  Result<TopicList> back = DecodeTopicList(text);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, list);
}

TEST(TopicListTest, LenientAndStrictWhereItMatters) {
  Result<TopicList> empty = DecodeTopicList("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->topic_list.empty());
  EXPECT_EQ(DecodeTopicList(R"({"topicList":[1,{}]})").status().message(),
            "TopicList.topicList[1]: expected a string, got an object");
}

}  // namespace
}  // namespace apogee::protocol
