#include "client/consumer_subscription.h"

#include <gtest/gtest.h>

#include "base/java_hash.h"

namespace apogee::client {
namespace {

TEST(ConsumerSubscriptionTest, StarAndEmptyTakeEverything) {
  for (std::string_view expr : {"*", "", "  *  "}) {
    auto sub = BuildSubscriptionData("T", expr, 123);
    ASSERT_TRUE(sub.ok());
    EXPECT_EQ(sub->sub_string, "*");
    EXPECT_TRUE(sub->tags_set.empty());
    EXPECT_TRUE(sub->code_set.empty());
    EXPECT_EQ(sub->sub_version, 123);
    EXPECT_EQ(sub->expression_type, "TAG");
    EXPECT_TRUE(SubscriptionMatchesTag(*sub, "", false));
    EXPECT_TRUE(SubscriptionMatchesTag(*sub, "x", true));
  }
}

TEST(ConsumerSubscriptionTest, TagsSplitTrimmedAndHashedAsJava) {
  auto sub = BuildSubscriptionData("T", " TagA ||TagB|| ", 1);
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(sub->sub_string, " TagA ||TagB|| ");
  EXPECT_EQ(sub->tags_set, (std::set<std::string>{"TagA", "TagB"}));
  // "TagA".hashCode() in Java = 2598919.
  EXPECT_EQ(JavaStringHashCode("TagA"), 2598919);
  EXPECT_EQ(sub->code_set,
            (std::set<int32_t>{JavaStringHashCode("TagA"), JavaStringHashCode("TagB")}));
  EXPECT_TRUE(SubscriptionMatchesTag(*sub, "TagA", true));
  EXPECT_FALSE(SubscriptionMatchesTag(*sub, "TagC", true));
  EXPECT_FALSE(SubscriptionMatchesTag(*sub, "", false));  // untagged messages are filtered out
}

TEST(ConsumerSubscriptionTest, BadInputs) {
  auto no_topic = BuildSubscriptionData("", "*", 1);
  ASSERT_FALSE(no_topic.ok());
  EXPECT_NE(no_topic.status().message().find("topic"), std::string::npos);
  auto no_tag = BuildSubscriptionData("T", "||", 1);
  ASSERT_FALSE(no_tag.ok());
  EXPECT_NE(no_tag.status().message().find("no tag"), std::string::npos);
}

}  // namespace
}  // namespace apogee::client
