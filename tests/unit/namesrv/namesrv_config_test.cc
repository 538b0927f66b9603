#include "namesrv/namesrv_config.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/string_util.h"
#include "testutil/test_util.h"

namespace apogee::namesrv {
namespace {

TEST(NamesrvConfigTest, DefaultsMatchRocketMQ) {
  NamesrvConfig config;
  NamesrvSettings s = config.Snapshot();
  EXPECT_EQ(s.listen_port, 9876);
  EXPECT_EQ(s.scan_not_active_broker_interval, 5000);
  EXPECT_EQ(s.broker_channel_expired_time, 120000);
  EXPECT_FALSE(s.order_message_enable);
  EXPECT_TRUE(s.return_order_topic_config_to_broker);
  EXPECT_TRUE(s.enable_all_topic_list);
  EXPECT_TRUE(EndsWith(s.kv_config_path, "/namesrv/kvConfig.json")) << s.kv_config_path;
}

TEST(NamesrvConfigTest, LoadsJavaPropertiesFileAndReportsUnknownKeys) {
  testing::TempDir dir;
  std::string path = dir.Join("namesrv.conf");
  std::ofstream(path) << "listenPort=19876\nkvConfigPath=" << dir.Join("kv.json")
                      << "\norderMessageEnable=true\nbrokerChannelExpiredTime=3000\n"
                      << "someFutureKey=1\n";
  NamesrvConfig config;
  std::vector<std::string> unknown;
  ASSERT_TRUE(config.LoadFile(path, &unknown).ok());
  NamesrvSettings s = config.Snapshot();
  EXPECT_EQ(s.listen_port, 19876);
  EXPECT_EQ(s.kv_config_path, dir.Join("kv.json"));
  EXPECT_TRUE(s.order_message_enable);
  EXPECT_EQ(s.broker_channel_expired_time, 3000);
  ASSERT_EQ(unknown, std::vector<std::string>{"someFutureKey"});
}

TEST(NamesrvConfigTest, BadValueNamesKeyAndChangesNothing) {
  NamesrvConfig config;
  Status s = config.ApplyProperties({{"listenPort", "70000"}, {"clusterTest", "true"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("listenPort"), std::string::npos) << s.ToString();
  EXPECT_EQ(config.Snapshot().listen_port, 9876);
  EXPECT_FALSE(config.Snapshot().cluster_test);
}

TEST(NamesrvConfigTest, MissingFileIsAnError) {
  NamesrvConfig config;
  Status s = config.LoadFile("/nonexistent/namesrv.conf");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent/namesrv.conf"), std::string::npos);
}

TEST(NamesrvConfigTest, RuntimeUpdateAcceptsWhitelistedKeys) {
  NamesrvConfig config;
  ASSERT_TRUE(
      config.UpdateAtRuntime({{"orderMessageEnable", "true"}, {"enableTopicList", "false"}}).ok());
  EXPECT_TRUE(config.Snapshot().order_message_enable);
  EXPECT_FALSE(config.Snapshot().enable_topic_list);
}

TEST(NamesrvConfigTest, RuntimeUpdateRefusesPathsPortsAndBlackList) {
  for (const char* key : {"kvConfigPath", "configStorePath", "rocketmqHome", "configBlackList",
                          "listenPort", "bindAddress", "defaultThreadPoolNums", "aclEnable",
                          "aclFilePath", "needWaitForService", "waitSecondsForService"}) {
    NamesrvConfig config;
    std::string before = config.ToPropertiesText();
    // A whitelisted key in the same request must not be applied either.
    Status s = config.UpdateAtRuntime({{key, "1"}, {"orderMessageEnable", "true"}});
    ASSERT_TRUE(s.Is(StatusCode::kPermissionDenied)) << key << ": " << s.ToString();
    EXPECT_NE(s.message().find(key), std::string::npos);
    EXPECT_EQ(config.ToPropertiesText(), before) << key;
  }
}

TEST(NamesrvConfigTest, RuntimeUpdateHonoursConfiguredBlackList) {
  NamesrvConfig config;
  ASSERT_TRUE(config.ApplyProperties({{"configBlackList", "orderMessageEnable"}}).ok());
  EXPECT_TRUE(config.UpdateAtRuntime({{"orderMessageEnable", "true"}})
                  .Is(StatusCode::kPermissionDenied));
  EXPECT_TRUE(config.UpdateAtRuntime({{"noSuchKey", "1"}}).Is(StatusCode::kInvalidArgument));
}

TEST(NamesrvConfigTest, PropertiesTextListsEveryKeySorted) {
  NamesrvConfig config;
  std::string text = config.ToPropertiesText();
  EXPECT_NE(text.find("listenPort=9876\n"), std::string::npos);
  EXPECT_NE(text.find("brokerChannelExpiredTime=120000\n"), std::string::npos);
  EXPECT_LT(text.find("bindAddress="), text.find("listenPort="));
  auto keys = config.RuntimeUpdatableKeys();
  EXPECT_NE(std::find(keys.begin(), keys.end(), "orderMessageEnable"), keys.end());
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "kvConfigPath"), keys.end());
  // Start-up only: at run time they made every route query fail (issue 16).
  for (const char* key : {"needWaitForService", "waitSecondsForService", "aclEnable", "aclFilePath"}) {
    EXPECT_EQ(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
  }
}

}  // namespace
}  // namespace apogee::namesrv
