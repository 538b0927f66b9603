#include "acl/plain_acl_config.h"

#include <gtest/gtest.h>

namespace apogee::acl {
namespace {

// RocketMQ 4.9's distribution/conf/plain_acl.yml, as operators copy it.
constexpr const char* kJavaSample = R"(
globalWhiteRemoteAddresses:
  - 10.10.103.*
  - 192.168.0.*

accounts:
  - accessKey: RocketMQ
    secretKey: 12345678
    whiteRemoteAddress:
    admin: false
    defaultTopicPerm: DENY
    defaultGroupPerm: SUB
    topicPerms:
      - topicA=DENY
      - topicB=PUB|SUB
      - topicC=SUB
    groupPerms:
      # the group should convert to retry topic
      - groupA=DENY
      - groupB=PUB|SUB
      - groupC=SUB

  - accessKey: rocketmq2
    secretKey: 12345678
    whiteRemoteAddress: 192.168.1.*
    # if it is admin, it could access all resources
    admin: true
)";

TEST(PlainAclConfigTest, ReadsJavaSample) {
  auto config = ParsePlainAclConfig(kJavaSample);
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  ASSERT_EQ(config->global_white_remote_addresses.size(), 2u);
  EXPECT_TRUE(config->global_white_remote_addresses[0].Matches("10.10.103.7"));
  ASSERT_EQ(config->accounts.size(), 2u);
  const Account& a = config->accounts.at("RocketMQ");
  EXPECT_EQ(a.secret_key, "12345678");
  EXPECT_FALSE(a.admin);
  EXPECT_EQ(a.default_topic_perm, kDeny);
  EXPECT_EQ(a.default_group_perm, kSub);
  EXPECT_EQ(a.resource_perms.at("topicA"), kDeny);
  EXPECT_EQ(a.resource_perms.at("topicB"), kPub | kSub);
  EXPECT_EQ(a.resource_perms.at("%RETRY%groupA"), kDeny);
  EXPECT_EQ(a.resource_perms.at("%RETRY%groupC"), kSub);
  EXPECT_FALSE(a.white_remote_address.Matches("127.0.0.1"));
  const Account& b = config->accounts.at("rocketmq2");
  EXPECT_TRUE(b.admin);
  EXPECT_EQ(b.default_topic_perm, kDeny);  // absent = DENY as Java
  EXPECT_TRUE(b.white_remote_address.Matches("192.168.1.9"));
}

TEST(PlainAclConfigTest, EmptyFileHasNoAccounts) {
  auto config = ParsePlainAclConfig("");
  ASSERT_TRUE(config.ok());
  EXPECT_TRUE(config->accounts.empty());
}

TEST(PlainAclConfigTest, RefusalsNameTheProblemButNeverTheSecret) {
  struct Case {
    const char* yaml;
    const char* expect;
  };
  const Case cases[] = {
      {"accounts:\n  - accessKey: short\n    secretKey: topsecret99\n", "longer than 6"},
      {"accounts:\n  - accessKey: longenough\n    secretKey: topsecret99\n    defaultTopicPerm: PUBSUB\n",
       "defaultTopicPerm 'PUBSUB'"},
      {"accounts:\n  - accessKey: longenough\n    secretKey: topsecret99\n    topicPerms: [a=PUB=SUB]\n",
       "topicPerms entry 'a=PUB=SUB'"},
      {"accounts:\n  - accessKey: longenough\n    secretKey: topsecret99\n    groupPerms: [g=ALL]\n",
       "groupPerms entry 'g=ALL'"},
      {"accounts:\n  - accessKey: longenough\n    secretKey: topsecret99\n  - accessKey: longenough\n    secretKey: topsecret99\n",
       "appears twice"},
      {"accounts:\n  - accessKey: longenough\n    secretKey: topsecret99\n    whiteRemoteAddress: 10.1-5.3.4\n",
       "10.1-5.3.4"},
      {"accounts:\n  - accessKey: longenough\n    secretKey: topsecret99\n    admin: yes please\n", "admin"},
      {"accounts: [\n", "not valid YAML"},
      {"accounts: 7\n", "accounts must be a list"},
      {"- a\n- b\n", "top level"},
  };
  for (const Case& c : cases) {
    auto config = ParsePlainAclConfig(c.yaml);
    ASSERT_FALSE(config.ok()) << c.yaml;
    EXPECT_NE(config.status().message().find(c.expect), std::string::npos)
        << config.status().message();
    EXPECT_EQ(config.status().message().find("topsecret99"), std::string::npos);
  }
}

}  // namespace
}  // namespace apogee::acl
