#include "broker/subscription_group_manager.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "base/clock.h"
#include "broker/broker_config.h"
#include "env/env.h"
#include "env/mem_env.h"

namespace apogee::broker {
namespace {

constexpr char kPath[] = "/store/config/subscriptionGroup.json";

BrokerSettings Settings() {
  BrokerSettings s;
  s.broker_name = "broker-a";
  s.broker_ip1 = "127.0.0.1";
  return s;
}

class SubscriptionGroupManagerTest : public ::testing::Test {
 protected:
  std::unique_ptr<SubscriptionGroupManager> NewManager() {
    return std::make_unique<SubscriptionGroupManager>(config_.get(), env_.get(), kPath, &clock_);
  }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  std::unique_ptr<BrokerConfig> config_ = std::make_unique<BrokerConfig>(Settings());
  ManualClock clock_{1700000000000};
};

TEST(SubscriptionGroupConfigJsonTest, RoundTripAndDefaults) {
  SubscriptionGroupConfig c;
  c.group_name = "group_a";
  c.retry_max_times = 3;
  c.consume_broadcast_enable = false;
  c.attributes["k"] = "v";
  std::string json = EncodeSubscriptionGroupConfig(c);
  EXPECT_EQ(json.find("{\"attributes\":{\"k\":\"v\"},\"brokerId\":0,"), 0u) << json;
  auto back = DecodeSubscriptionGroupConfig(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, c);

  SubscriptionGroupConfig d;
  d.group_name = "g";
  EXPECT_EQ(EncodeSubscriptionGroupConfig(d).find("attributes"), std::string::npos);
}

TEST(SubscriptionGroupConfigJsonTest, DecodesJavaAndLenientForms) {
  // 4.9 form, plus 5.x extras and values as strings, as fastjson accepts.
  auto c = DecodeSubscriptionGroupConfig(
      R"({"brokerId":0,"consumeBroadcastEnable":true,"consumeEnable":"false",)"
      R"("consumeFromMinEnable":true,"groupName":"g1","notifyConsumerIdsChangedEnable":true,)"
      R"("retryMaxTimes":"5","retryQueueNums":2,"whichBrokerWhenConsumeSlowly":1,)"
      R"("groupRetryPolicy":{"type":"CUSTOMIZED"},"subscriptionDataSet":[]})");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->group_name, "g1");
  EXPECT_FALSE(c->consume_enable);
  EXPECT_EQ(c->retry_max_times, 5);
  EXPECT_EQ(c->retry_queue_nums, 2);
  EXPECT_EQ(c->consume_timeout_minute, 15);

  auto missing = DecodeSubscriptionGroupConfig(R"({"retryMaxTimes":1})");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("groupName"), std::string::npos);
  auto bad = DecodeSubscriptionGroupConfig(R"({"groupName":"g","retryMaxTimes":"many"})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("retryMaxTimes"), std::string::npos);
  EXPECT_FALSE(DecodeSubscriptionGroupConfig("not json").ok());
}

TEST(GroupNameTest, Validation) {
  EXPECT_TRUE(ValidateGroupName("please_rename_unique_group_name_4").ok());
  EXPECT_TRUE(ValidateGroupName(std::string(255, 'g')).ok());
  EXPECT_FALSE(ValidateGroupName(std::string(256, 'g')).ok());
  EXPECT_FALSE(ValidateGroupName("").ok());
  Status s = ValidateGroupName("a:b");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'a:b'"), std::string::npos);
}

TEST_F(SubscriptionGroupManagerTest, SystemGroupsExist) {
  auto m = NewManager();
  EXPECT_TRUE(m->ContainsSubscriptionGroup("TOOLS_CONSUMER"));
  EXPECT_TRUE(m->ContainsSubscriptionGroup("SELF_TEST_C_GROUP"));
  EXPECT_TRUE(m->SelectSubscriptionGroupConfig("CID_ONSAPI_PULL")->consume_broadcast_enable);
  EXPECT_FALSE(m->SelectSubscriptionGroupConfig("TOOLS_CONSUMER")->consume_broadcast_enable);
}

TEST_F(SubscriptionGroupManagerTest, FindAutoCreatesWhenAllowed) {
  auto m = NewManager();
  EXPECT_FALSE(m->SelectSubscriptionGroupConfig("group_a"));
  auto v0 = m->data_version();
  auto c = m->FindSubscriptionGroupConfig("group_a");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->group_name, "group_a");
  EXPECT_EQ(c->retry_queue_nums, 1);
  EXPECT_EQ(c->retry_max_times, 16);
  EXPECT_TRUE(c->consume_enable);
  EXPECT_EQ(m->data_version().counter, v0.counter + 1);
  EXPECT_TRUE(env_->FileExists(kPath));
  // Found again, no new version.
  ASSERT_TRUE(m->FindSubscriptionGroupConfig("group_a"));
  EXPECT_EQ(m->data_version().counter, v0.counter + 1);
  // Illegal names are never created.
  EXPECT_FALSE(m->FindSubscriptionGroupConfig("bad group"));
}

TEST_F(SubscriptionGroupManagerTest, FindDoesNotCreateWhenDisabledExceptSystemGroups) {
  ASSERT_TRUE(config_->ApplyProperties({{"autoCreateSubscriptionGroup", "false"}}).ok());
  auto m = NewManager();
  EXPECT_FALSE(m->FindSubscriptionGroupConfig("group_a"));
  EXPECT_FALSE(m->ContainsSubscriptionGroup("group_a"));
  EXPECT_TRUE(m->FindSubscriptionGroupConfig("CID_RMQ_SYS_anything"));
}

TEST_F(SubscriptionGroupManagerTest, UpdateDeleteAndValidation) {
  auto m = NewManager();
  SubscriptionGroupConfig c;
  c.group_name = "g";
  c.consume_enable = false;
  c.retry_queue_nums = 2;
  ASSERT_TRUE(m->UpdateSubscriptionGroupConfig(c).ok());
  EXPECT_FALSE(m->SelectSubscriptionGroupConfig("g")->consume_enable);
  EXPECT_EQ(m->SelectSubscriptionGroupConfig("g")->retry_queue_nums, 2);

  SubscriptionGroupConfig bad = c;
  bad.group_name = "no spaces";
  EXPECT_TRUE(m->UpdateSubscriptionGroupConfig(bad).Is(StatusCode::kInvalidArgument));
  bad = c;
  bad.retry_queue_nums = -1;
  EXPECT_FALSE(m->UpdateSubscriptionGroupConfig(bad).ok());

  ASSERT_TRUE(m->DeleteSubscriptionGroupConfig("g").ok());
  EXPECT_FALSE(m->ContainsSubscriptionGroup("g"));
  Status again = m->DeleteSubscriptionGroupConfig("g");
  EXPECT_TRUE(again.IsNotFound());
  EXPECT_NE(again.message().find("[g]"), std::string::npos);
}

TEST_F(SubscriptionGroupManagerTest, PersistAndReload) {
  {
    auto m = NewManager();
    SubscriptionGroupConfig c;
    c.group_name = "kept";
    c.retry_max_times = 2;
    c.which_broker_when_consume_slowly = 3;
    ASSERT_TRUE(m->UpdateSubscriptionGroupConfig(c).ok());
    ASSERT_TRUE(m->FindSubscriptionGroupConfig("auto_one"));
  }
  auto m = NewManager();
  ASSERT_TRUE(m->Load().ok());
  auto kept = m->SelectSubscriptionGroupConfig("kept");
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->retry_max_times, 2);
  EXPECT_EQ(kept->which_broker_when_consume_slowly, 3);
  EXPECT_TRUE(m->ContainsSubscriptionGroup("auto_one"));
  EXPECT_TRUE(m->ContainsSubscriptionGroup("TOOLS_CONSUMER"));
  EXPECT_EQ(m->data_version().counter, 2);
  EXPECT_EQ(m->data_version().timestamp, 1700000000000);
}

TEST_F(SubscriptionGroupManagerTest, EncodeIsTheJavaWrapperShape) {
  auto m = NewManager();
  std::string json = m->Encode();
  EXPECT_EQ(json.find("{\"dataVersion\":{\"counter\":0,"), 0u) << json;
  EXPECT_NE(json.find("\"forbiddenTable\":{}"), std::string::npos);
  EXPECT_NE(json.find("\"subscriptionGroupTable\":{\"CID_ONS-HTTP-PROXY\":{"), std::string::npos)
      << json;
  // Decoding what we wrote gives the same table; Java's bare-key fastjson text is
  // accepted too.
  auto other = NewManager();
  ASSERT_TRUE(other->Decode(json).ok());
  EXPECT_EQ(other->AllSubscriptionGroups(), m->AllSubscriptionGroups());
  ASSERT_TRUE(
      other
          ->Decode(R"({"dataVersion":{"counter":3,"timestamp":5},)"
                   R"("subscriptionGroupTable":{"j":{"groupName":"j","retryQueueNums":1}}})")
          .ok());
  EXPECT_TRUE(other->ContainsSubscriptionGroup("j"));
  EXPECT_EQ(other->data_version().counter, 3);
  EXPECT_FALSE(other->Decode(R"({"subscriptionGroupTable":[]})").ok());
}

}  // namespace
}  // namespace apogee::broker
