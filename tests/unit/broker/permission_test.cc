#include "broker/permission.h"

#include <gtest/gtest.h>

#include "broker/broker_config.h"
#include "protocol/perm_name.h"

namespace apogee::broker {
namespace {

using protocol::kPermInherit;
using protocol::kPermRead;
using protocol::kPermWrite;

BrokerSettings Settings(int32_t broker_perm) {
  BrokerSettings s;
  s.broker_ip1 = "10.0.0.7";
  s.listen_port = 10911;
  s.broker_permission = broker_perm;
  return s;
}

protocol::TopicConfig Topic(const std::string& name, int32_t perm) {
  protocol::TopicConfig c;
  c.topic_name = name;
  c.perm = perm;
  return c;
}

TEST(PermissionTest, SendAllowedOnWritableBrokerAndTopic) {
  EXPECT_TRUE(CheckSendPermission(Settings(6), Topic("T", 6)).ok());
  EXPECT_TRUE(CheckSendPermission(Settings(6), Topic("T", kPermWrite)).ok());
}

TEST(PermissionTest, SendToReadOnlyTopicNamesTheTopic) {
  Status s = CheckSendPermission(Settings(6), Topic("OrdersRO", kPermRead));
  ASSERT_TRUE(s.Is(StatusCode::kPermissionDenied));
  EXPECT_EQ(s.message(), "the topic[OrdersRO] sending message is forbidden");
}

TEST(PermissionTest, SendToWipedBrokerNamesTheBroker) {
  Status s = CheckSendPermission(Settings(kPermRead), Topic("T", 6));
  ASSERT_TRUE(s.Is(StatusCode::kPermissionDenied));
  EXPECT_EQ(s.message(), "the broker[10.0.0.7:10911] sending message is forbidden");
}

TEST(PermissionTest, PullChecksReadBits) {
  EXPECT_TRUE(CheckPullPermission(Settings(6), Topic("T", kPermRead)).ok());
  // A write-wiped broker still serves reads.
  EXPECT_TRUE(CheckPullPermission(Settings(kPermRead), Topic("T", 6)).ok());
  Status topic = CheckPullPermission(Settings(6), Topic("W", kPermWrite));
  EXPECT_EQ(topic.message(), "the topic[W] pulling message is forbidden");
  Status broker = CheckPullPermission(Settings(kPermWrite), Topic("T", 6));
  EXPECT_EQ(broker.message(), "the broker[10.0.0.7:10911] pulling message is forbidden");
}

TEST(PermissionTest, EffectiveTopicPermFollowsBroker) {
  EXPECT_EQ(EffectiveTopicPerm(6, 7), 7);
  EXPECT_EQ(EffectiveTopicPerm(kPermRead, 6), kPermRead);
  EXPECT_EQ(EffectiveTopicPerm(kPermRead, kPermRead | kPermInherit), kPermRead);
  EXPECT_EQ(EffectiveTopicPerm(0, 6), 0);
}

}  // namespace
}  // namespace apogee::broker
