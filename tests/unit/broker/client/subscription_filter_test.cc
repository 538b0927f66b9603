#include "broker/client/subscription_filter.h"

#include <gtest/gtest.h>

#include "base/java_hash.h"

namespace apogee::broker {
namespace {

TEST(SubscriptionFilterTest, StarAndEmptySubscribeToEverything) {
  for (const char* sub : {"*", ""}) {
    auto s = BuildSubscriptionData("T", sub, "");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->sub_string, "*");
    EXPECT_TRUE(s->tags_set.empty());
    EXPECT_EQ(s->expression_type, "TAG");
    EXPECT_EQ(MakeTagCodeFilter(std::make_shared<protocol::SubscriptionData>(*s)), nullptr);
  }
}

TEST(SubscriptionFilterTest, TagsAreSplitTrimmedAndHashedAsJava) {
  auto s = BuildSubscriptionData("T", " TagA || TagB ||| ||TagC", "TAG", 99);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->tags_set, (std::set<std::string>{"TagA", "TagB", "|", "TagC"}));
  EXPECT_EQ(s->code_set.count(JavaStringHashCode("TagA")), 1u);
  EXPECT_EQ(s->code_set.count(JavaStringHashCode("TagC")), 1u);
  EXPECT_EQ(s->sub_version, 99);
  EXPECT_EQ(s->topic, "T");
  // "TagA".hashCode() is a known Java value.
  EXPECT_EQ(JavaStringHashCode("TagA"), 2598919);
}

TEST(SubscriptionFilterTest, AnExpressionWithoutTagsIsAParseError) {
  auto s = BuildSubscriptionData("T", "||", "TAG");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("||"), std::string::npos);
}

TEST(SubscriptionFilterTest, Sql92IsKeptAsIs) {
  auto s = BuildSubscriptionData("T", "a > 5", "SQL92");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->expression_type, "SQL92");
  EXPECT_EQ(s->sub_string, "a > 5");
  EXPECT_TRUE(TagCodeMatches(*s, 1234));
}

TEST(SubscriptionFilterTest, FilterMatchesTagCodesAsInt32) {
  auto s = std::make_shared<protocol::SubscriptionData>(*BuildSubscriptionData("T", "TagA", ""));
  store::TagCodeFilter filter = MakeTagCodeFilter(s);
  ASSERT_NE(filter, nullptr);
  EXPECT_TRUE(filter(JavaStringHashCode("TagA")));
  EXPECT_FALSE(filter(JavaStringHashCode("TagB")));
  EXPECT_FALSE(filter(0));  // untagged messages do not match a tag list
  // A negative hash is stored sign-extended; it must still match.
  auto neg = std::make_shared<protocol::SubscriptionData>(*BuildSubscriptionData("T", "zzzzzz", ""));
  const int32_t code = JavaStringHashCode("zzzzzz");
  ASSERT_LT(code, 0);
  EXPECT_TRUE(MakeTagCodeFilter(neg)(static_cast<int64_t>(code)));
}

TEST(SubscriptionFilterTest, ClassFilterModeMatchesEverything) {
  protocol::SubscriptionData s = *BuildSubscriptionData("T", "TagA", "");
  s.class_filter_mode = true;
  EXPECT_TRUE(TagCodeMatches(s, 1));
  EXPECT_EQ(MakeTagCodeFilter(std::make_shared<protocol::SubscriptionData>(s)), nullptr);
}

}  // namespace
}  // namespace apogee::broker
