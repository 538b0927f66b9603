#include "base/runtime_config_keys.h"

#include <gtest/gtest.h>

namespace apogee {
namespace {

TEST(RuntimeConfigKeysTest, PathsAndCodeAreRefused) {
  for (const char* key : {"storePathCommitLog", "abortFile", "kvConfigPath", "storeCheckpointDir",
                          "rocketmqHome", "brokerConfigPath", "authenticationProviderClass",
                          "someCommand", "configStorePath"}) {
    EXPECT_NE(ForbiddenRuntimeConfigKeyReason(key), "") << key;
  }
}

TEST(RuntimeConfigKeysTest, SecurityRoleAndListenersAreRefused) {
  for (const char* key : {"aclEnable", "aclCredentialsFile", "aclFilePath", "brokerRole",
                          "brokerId", "brokerName", "brokerClusterName", "listenPort",
                          "bindAddress", "haListenPort", "namesrvListenPort", "brokerIP1",
                          "brokerIP2", "namesrvAddr", "haMasterAddress", "tls.server.mode",
                          "tls.test.mode.enable", "configBlackList"}) {
    const std::string reason = ForbiddenRuntimeConfigKeyReason(key);
    EXPECT_NE(reason, "") << key;
    EXPECT_NE(reason.find(key), std::string::npos) << reason;
  }
}

TEST(RuntimeConfigKeysTest, HarmlessKeysPass) {
  for (const char* key : {"brokerPermission", "defaultTopicQueueNums", "flushDiskType",
                          "enableTopicList", "orderMessageEnable", "maxMessageSize"}) {
    EXPECT_EQ(ForbiddenRuntimeConfigKeyReason(key), "") << key;
  }
}

}  // namespace
}  // namespace apogee
