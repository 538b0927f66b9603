#include "acl/access_validator.h"

#include <gtest/gtest.h>

#include "acl/signature.h"
#include "protocol/heartbeat_data.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"

namespace apogee::acl {
namespace {

namespace rq = protocol::request_code;

constexpr const char* kAcl = R"(
globalWhiteRemoteAddresses: ["127.0.0.9"]
accounts:
  - accessKey: userAccess
    secretKey: userSecret1
    defaultTopicPerm: DENY
    defaultGroupPerm: SUB
    topicPerms: [allowed=PUB|SUB, readonly=SUB]
    groupPerms: [blocked=DENY]
  - accessKey: adminAccess
    secretKey: adminSecret1
    admin: true
  - accessKey: trustedAccess
    secretKey: trustedSecret
    whiteRemoteAddress: 127.0.0.3
)";

const Credentials kUser{"userAccess", "userSecret1", std::nullopt, std::nullopt};
const Credentials kAdmin{"adminAccess", "adminSecret1", std::nullopt, std::nullopt};

class AccessValidatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto config = ParsePlainAclConfig(kAcl);
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    config_ = std::move(*config);
  }

  static protocol::RemotingCommand Send(std::string topic, bool v2 = false) {
    auto cmd = protocol::RemotingCommand::MakeRequest(v2 ? rq::kSendMessageV2 : rq::kSendMessage);
    const char* keys_v1[] = {"producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums",
                             "queueId", "sysFlag", "bornTimestamp", "flag"};
    const char* keys_v2[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    const char* values[] = {"PG", topic.c_str(), "TBW102", "4", "0", "0", "1", "0"};
    for (int i = 0; i < 8; ++i) cmd.ext_fields.Set(v2 ? keys_v2[i] : keys_v1[i], values[i]);
    cmd.body = "body";
    return cmd;
  }
  static protocol::RemotingCommand Pull(std::string topic, std::string group) {
    auto cmd = protocol::RemotingCommand::MakeRequest(rq::kPullMessage);
    cmd.ext_fields.Set("topic", topic);
    cmd.ext_fields.Set("consumerGroup", group);
    return cmd;
  }
  Status Check(protocol::RemotingCommand cmd, const Credentials* c = &kUser,
               AclScope scope = AclScope::kBroker, std::string_view from = "127.0.0.1:5555") {
    if (c) SignRequest(*c, &cmd);
    return ValidateRequest(config_, scope, from, cmd);
  }

  PlainAclConfig config_;
};

TEST_F(AccessValidatorTest, SignedSendWithPermissionPasses) {
  EXPECT_TRUE(Check(Send("allowed")).ok());
  EXPECT_TRUE(Check(Send("allowed", true)).ok());
}

TEST_F(AccessValidatorTest, DeniedTopicNamesThePermission) {
  Status s = Check(Send("other"));
  EXPECT_TRUE(s.Is(StatusCode::kPermissionDenied));
  EXPECT_NE(s.message().find("PUB permission for topic:other"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("userSecret1"), std::string::npos);
  EXPECT_FALSE(Check(Send("readonly", true)).ok());
}

TEST_F(AccessValidatorTest, UnsignedUnknownAndWrongSecretAreRefused) {
  Status none = Check(Send("allowed"), nullptr);
  EXPECT_NE(none.message().find("No accessKey"), std::string::npos);
  Credentials unknown{"nobodyHere", "userSecret1", std::nullopt, std::nullopt};
  EXPECT_NE(Check(Send("allowed"), &unknown).message().find("No acl config for nobodyHere"),
            std::string::npos);
  Credentials wrong{"userAccess", "userSecret2", std::nullopt, std::nullopt};
  Status s = Check(Send("allowed"), &wrong);
  EXPECT_NE(s.message().find("Check signature failed for accessKey=userAccess"), std::string::npos);
}

TEST_F(AccessValidatorTest, TamperingAfterSigningIsRefused) {
  auto cmd = Send("allowed");
  SignRequest(kUser, &cmd);
  cmd.body = "other body";
  EXPECT_FALSE(ValidateRequest(config_, AclScope::kBroker, "127.0.0.1:1", cmd).ok());
  auto cmd2 = Send("allowed");
  SignRequest(kUser, &cmd2);
  cmd2.ext_fields.Set("queueId", "3");
  EXPECT_FALSE(ValidateRequest(config_, AclScope::kBroker, "127.0.0.1:1", cmd2).ok());
}

TEST_F(AccessValidatorTest, PullNeedsSubOnTopicAndGroup) {
  EXPECT_TRUE(Check(Pull("allowed", "anyGroup")).ok());
  EXPECT_TRUE(Check(Pull("readonly", "anyGroup")).ok());
  Status blocked = Check(Pull("allowed", "blocked"));
  EXPECT_NE(blocked.message().find("group:blocked"), std::string::npos) << blocked.message();
  EXPECT_FALSE(Check(Pull("denied", "anyGroup")).ok());
  // A retry topic is its group: %RETRY%blocked is the group "blocked".
  EXPECT_FALSE(Check(Pull("%RETRY%blocked", "anyGroup")).ok());
  EXPECT_TRUE(Check(Pull("%RETRY%fine", "anyGroup")).ok());
}

TEST_F(AccessValidatorTest, SendToRetryTopicNeedsSubOnItsGroup) {
  EXPECT_TRUE(Check(Send("%RETRY%fine")).ok());
  Status s = Check(Send("%RETRY%blocked", true));
  EXPECT_NE(s.message().find("SUB permission for group:blocked"), std::string::npos) << s.message();
}

TEST_F(AccessValidatorTest, HeartbeatChecksEveryGroupAndSubscription) {
  protocol::HeartbeatData hb;
  hb.client_id = "c";
  protocol::ConsumerData consumer;
  consumer.group_name = "g1";
  protocol::SubscriptionData sub;
  sub.topic = "allowed";
  consumer.subscription_data_set.push_back(sub);
  hb.consumer_data_set.push_back(consumer);
  auto cmd = protocol::RemotingCommand::MakeRequest(rq::kHeartBeat);
  cmd.body = protocol::EncodeHeartbeatData(hb);
  EXPECT_TRUE(Check(cmd).ok());
  hb.consumer_data_set[0].subscription_data_set[0].topic = "denied";
  cmd.body = protocol::EncodeHeartbeatData(hb);
  EXPECT_FALSE(Check(cmd).ok());
  cmd.body = "{not json";
  EXPECT_FALSE(Check(cmd).ok());
}

TEST_F(AccessValidatorTest, AdminCodesNeedAdmin) {
  for (int32_t code : {rq::kUpdateAndCreateTopic, rq::kUpdateBrokerConfig, rq::kDeleteTopicInBroker,
                       rq::kUpdateAndCreateSubscriptiongroup, rq::kDeleteSubscriptiongroup,
                       rq::kInvokeBrokerToResetOffset}) {
    auto cmd = protocol::RemotingCommand::MakeRequest(code);
    cmd.ext_fields.Set("topic", "allowed");
    Status s = Check(cmd);
    EXPECT_NE(s.message().find("Need admin permission for request code=" + std::to_string(code)),
              std::string::npos)
        << s.message();
    EXPECT_TRUE(Check(cmd, &kAdmin).ok()) << code;
  }
}

TEST_F(AccessValidatorTest, UpdateConsumerOffsetNeedsSub) {
  auto cmd = protocol::RemotingCommand::MakeRequest(rq::kUpdateConsumerOffset);
  cmd.ext_fields.Set("consumerGroup", "g");
  cmd.ext_fields.Set("topic", "denied");
  EXPECT_FALSE(Check(cmd).ok());
  cmd.ext_fields.Set("topic", "readonly");
  EXPECT_TRUE(Check(cmd).ok());
}

TEST_F(AccessValidatorTest, WhiteAddressesSkipTheSignatureAsJava) {
  EXPECT_TRUE(Check(Send("whatever"), nullptr, AclScope::kBroker, "127.0.0.9:1").ok());
  // The account's own white address: only with its AccessKey.
  auto cmd = Send("whatever");
  cmd.ext_fields.Set("AccessKey", "trustedAccess");
  EXPECT_TRUE(ValidateRequest(config_, AclScope::kBroker, "127.0.0.3:7", cmd).ok());
  EXPECT_FALSE(ValidateRequest(config_, AclScope::kBroker, "127.0.0.4:7", cmd).ok());
}

TEST_F(AccessValidatorTest, NamesrvChecksOnlyMembershipAndConfigCodes) {
  auto route = protocol::RemotingCommand::MakeRequest(rq::kGetRouteinfoByTopic);
  route.ext_fields.Set("topic", "t");
  EXPECT_TRUE(Check(route, nullptr, AclScope::kNamesrv).ok());
  for (int32_t code : {rq::kRegisterBroker, rq::kUnregisterBroker, rq::kWipeWritePermOfBroker,
                       rq::kDeleteTopicInNamesrv, rq::kPutKvConfig, rq::kDeleteKvConfig,
                       rq::kUpdateNamesrvConfig}) {
    auto cmd = protocol::RemotingCommand::MakeRequest(code);
    cmd.ext_fields.Set("brokerName", "b");
    EXPECT_FALSE(Check(cmd, nullptr, AclScope::kNamesrv).ok()) << code;
    EXPECT_FALSE(Check(cmd, &kUser, AclScope::kNamesrv).ok()) << code;
    EXPECT_TRUE(Check(cmd, &kAdmin, AclScope::kNamesrv).ok()) << code;
  }
}

}  // namespace
}  // namespace apogee::acl
