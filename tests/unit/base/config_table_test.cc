#include "base/config_table.h"

#include <gtest/gtest.h>

namespace apogee {
namespace {

struct Sample {
  std::string name = "broker-a";
  int32_t port = 10911;
  int64_t big = 1;
  bool flag = false;
  std::string role = "ASYNC_MASTER";
  ConfigTable table;
  Sample() {
    table.Add("brokerName", &name, "name")
        .Add("listenPort", &port, "port", false, 0, 65535)
        .Add("big", &big, "big")
        .Add("autoCreateTopicEnable", &flag, "flag", true)
        .AddEnum("brokerRole", &role, {"ASYNC_MASTER", "SYNC_MASTER", "SLAVE"}, "role");
  }
};

TEST(ConfigTableTest, ParsesJavaProperties) {
  auto props = ParsePropertiesText(
      "# comment\n! also a comment\nbrokerName = broker-b \nlistenPort=10921\r\n\n"
      "autoCreateTopicEnable=TRUE\nbrokerRole=SYNC_MASTER\nmystery=1\n");
  ASSERT_TRUE(props.ok()) << props.status().ToString();
  Sample s;
  std::vector<std::string> unknown;
  ASSERT_TRUE(s.table.Apply(*props, &unknown).ok());
  EXPECT_EQ(s.name, "broker-b");
  EXPECT_EQ(s.port, 10921);
  EXPECT_TRUE(s.flag);
  EXPECT_EQ(s.role, "SYNC_MASTER");
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0], "mystery");
}

TEST(ConfigTableTest, BadValueNamesKeyAndValue) {
  Sample s;
  Status st = s.table.Set("listenPort", "ten");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("listenPort"), std::string::npos);
  EXPECT_NE(st.message().find("ten"), std::string::npos);
  EXPECT_FALSE(s.table.Set("listenPort", "70000").ok());
  EXPECT_FALSE(s.table.Set("brokerRole", "MASTER").ok());
  EXPECT_FALSE(s.table.Set("autoCreateTopicEnable", "yes").ok());
  EXPECT_TRUE(s.table.Set("nope", "1").IsNotFound());
}

TEST(ConfigTableTest, PrintsSortedProperties) {
  Sample s;
  std::string text = s.table.ToPropertiesText();
  EXPECT_EQ(text.find("autoCreateTopicEnable=false"), 0u);
  EXPECT_NE(text.find("listenPort=10911\n"), std::string::npos);
}

TEST(ConfigTableTest, RejectsLineWithoutEquals) {
  EXPECT_FALSE(ParsePropertiesText("justakey\n").ok());
}

}  // namespace
}  // namespace apogee
