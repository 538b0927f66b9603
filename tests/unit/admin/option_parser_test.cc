#include "admin/option_parser.h"

#include <gtest/gtest.h>

namespace apogee::admin {
namespace {

CommandSpec TopicSpec() {
  return {"updateTopic",
          "Update or create topic.",
          {{"b", "brokerAddr", true, false, "create topic to which broker"},
           {"t", "topic", true, true, "topic name"},
           {"r", "readQueueNums", true, false, "set read queue nums"},
           {"o", "order", true, false, "set topic's order(true|false)"},
           {"", "attributes", true, false, "attribute(+a=b,+c=d,-e)"},
           {"l", "list", false, false, "list format"}}};
}

TEST(OptionParserTest, ShortAndLongFlags) {
  auto parsed = ParseOptions(TopicSpec(), {"-t", "T1", "--readQueueNums", "8", "-n", "127.0.0.1:9876"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->Get("topic"), "T1");
  EXPECT_EQ(*parsed->GetInt32("readQueueNums", 16), 8);
  EXPECT_EQ(parsed->Get("namesrvAddr"), "127.0.0.1:9876");
  EXPECT_FALSE(parsed->Has("brokerAddr"));
  EXPECT_EQ(parsed->Get("brokerAddr", "none"), "none");
}

TEST(OptionParserTest, EqualsFormAndLongOnlyOption) {
  auto parsed = ParseOptions(TopicSpec(), {"--topic=T2", "--attributes", "+a=b"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->Get("topic"), "T2");
  EXPECT_EQ(parsed->Get("attributes"), "+a=b");
}

TEST(OptionParserTest, SwitchHasNoValue) {
  auto parsed = ParseOptions(TopicSpec(), {"-t", "T", "-l"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(parsed->Has("list"));
  EXPECT_EQ(parsed->Get("list"), "true");
}

TEST(OptionParserTest, ValueMayStartWithDash) {
  CommandSpec spec{"resetOffsetByTime", "", {{"s", "timestamp", true, true, "ts"}}};
  auto parsed = ParseOptions(spec, {"-s", "-1"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed->GetInt64("timestamp", 0), -1);
}

TEST(OptionParserTest, ValuesAreTrimmed) {
  auto parsed = ParseOptions(TopicSpec(), {"-t", "  T3 "});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->Get("topic"), "T3");
}

TEST(OptionParserTest, MissingRequiredOptionNamesIt) {
  auto parsed = ParseOptions(TopicSpec(), {"-r", "4"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("updateTopic"), std::string::npos);
  EXPECT_NE(parsed.status().message().find("-t"), std::string::npos);
  EXPECT_NE(parsed.status().message().find("topic"), std::string::npos);
}

TEST(OptionParserTest, HelpSkipsTheRequiredCheck) {
  auto parsed = ParseOptions(TopicSpec(), {"-h"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(parsed->Has("help"));
}

TEST(OptionParserTest, UnknownFlagIsAnError) {
  auto parsed = ParseOptions(TopicSpec(), {"-t", "T", "-z", "1"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("-z"), std::string::npos) << parsed.status().message();
}

TEST(OptionParserTest, StrayPositionalIsAnError) {
  auto parsed = ParseOptions(TopicSpec(), {"-t", "T", "extra"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("extra"), std::string::npos) << parsed.status().message();
}

TEST(OptionParserTest, MissingValueIsAnError) {
  auto parsed = ParseOptions(TopicSpec(), {"-t"});
  EXPECT_FALSE(parsed.ok());
}

TEST(OptionParserTest, TypedGettersRejectGarbage) {
  auto parsed = ParseOptions(TopicSpec(), {"-t", "T", "-r", "eight", "-o", "yes"});
  ASSERT_TRUE(parsed.ok());
  auto r = parsed->GetInt32("readQueueNums", 16);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("readQueueNums"), std::string::npos);
  EXPECT_NE(r.status().message().find("eight"), std::string::npos);
  EXPECT_FALSE(parsed->GetBool("order", false).ok());
  EXPECT_EQ(*parsed->GetBool("missing", true), true);
}

TEST(OptionParserTest, UsageListsEveryOptionWithCommonOnes) {
  std::string usage = FormatUsage(TopicSpec());
  EXPECT_NE(usage.find("usage: mqadmin updateTopic"), std::string::npos);
  EXPECT_NE(usage.find("-t <arg>"), std::string::npos);  // required: no brackets
  EXPECT_NE(usage.find("[-b <arg>]"), std::string::npos);
  EXPECT_NE(usage.find("-b,--brokerAddr <arg>"), std::string::npos);
  EXPECT_NE(usage.find("--attributes <arg>"), std::string::npos);
  EXPECT_NE(usage.find("-n,--namesrvAddr <arg>"), std::string::npos);
  EXPECT_NE(usage.find("-h,--help"), std::string::npos);
  EXPECT_NE(usage.find("Update or create topic."), std::string::npos);
}

}  // namespace
}  // namespace apogee::admin
