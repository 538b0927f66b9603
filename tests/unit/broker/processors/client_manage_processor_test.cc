#include "broker/processors/client_manage_processor.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "broker/broker_config.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/producer_manager.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "env/env.h"
#include "env/mem_env.h"
#include "unit/broker/fake_client_channel.h"
#include "protocol/consumer_list_body.h"
#include "protocol/heartbeat_data.h"
#include "protocol/lock_batch_body.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/topic_config.h"
#include "testutil/test_paths.h"

namespace apogee::broker {
namespace {

using protocol::RemotingCommand;
namespace code = protocol::request_code;
namespace rc = protocol::response_code;

// The first HEART_BEAT request of a fixture file, with the client's language, version and
// body.
RemotingCommand FixtureHeartbeat(const std::string& file, bool with_consumer) {
  std::ifstream in(::apogee::testing::FixturesDir() + "/client-requests/" + file);
  EXPECT_TRUE(in) << file;
  std::string line;
  while (std::getline(in, line)) {
    rapidjson::Document record;
    record.Parse(line.data(), line.size());
    if (record.HasParseError() || record["code"].GetInt() != code::kHeartBeat) continue;
    if (record["bodyJson"].HasMember("consumerDataSet") != with_consumer) continue;
    RemotingCommand request = RemotingCommand::MakeRequest(code::kHeartBeat);
    request.language = protocol::LanguageFromName(record["language"].GetString());
    request.version = record["version"].GetInt();
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    record["bodyJson"].Accept(writer);
    request.body.assign(buffer.GetString(), buffer.GetSize());
    return request;
  }
  ADD_FAILURE() << "no HEART_BEAT in " << file;
  return RemotingCommand::MakeRequest(code::kHeartBeat);
}

RemotingCommand Heartbeat(const std::string& client_id, const std::string& group,
                          bool unit_mode = false) {
  protocol::HeartbeatData data;
  data.client_id = client_id;
  protocol::ConsumerData consumer;
  consumer.group_name = group;
  consumer.unit_mode = unit_mode;
  protocol::SubscriptionData sub;
  sub.topic = "T";
  sub.sub_string = "*";
  sub.sub_version = 1;
  consumer.subscription_data_set.push_back(sub);
  data.consumer_data_set.push_back(consumer);
  RemotingCommand request = RemotingCommand::MakeRequest(code::kHeartBeat);
  request.body = protocol::EncodeHeartbeatData(data);
  return request;
}

class ClientManageProcessorTest : public ::testing::Test {
 protected:
  explicit ClientManageProcessorTest(bool auto_create_group = true) {
    BrokerSettings settings;
    settings.broker_name = "broker-a";
    settings.broker_ip1 = "127.0.0.1";
    settings.auto_create_subscription_group = auto_create_group;
    config_ = std::make_unique<BrokerConfig>(settings);
    topics_ = std::make_unique<TopicConfigManager>(config_.get(), env_.get(),
                                                   "/store/config/topics.json", &clock_);
    groups_ = std::make_unique<SubscriptionGroupManager>(
        config_.get(), env_.get(), "/store/config/subscriptionGroup.json", &clock_);
    EXPECT_TRUE(topics_->Load().ok());
    EXPECT_TRUE(groups_->Load().ok());
    processor_ = std::make_unique<ClientManageProcessor>(config_.get(), &consumers_, &producers_,
                                                         groups_.get(), topics_.get());
  }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  ManualClock clock_;
  std::unique_ptr<BrokerConfig> config_;
  std::unique_ptr<TopicConfigManager> topics_;
  std::unique_ptr<SubscriptionGroupManager> groups_;
  ConsumerManager consumers_{&clock_, nullptr};
  ProducerManager producers_{&clock_};
  std::unique_ptr<ClientManageProcessor> processor_;
};

TEST_F(ClientManageProcessorTest, AliOnsHeartbeatRegistersEverything) {
  auto channel = test::MakeFakeChannel("127.0.0.1:35100");
  RemotingCommand response =
      processor_->HeartBeat(FixtureHeartbeat("ali-ons-3.12.0.jsonl", true), channel);
  EXPECT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
  EXPECT_FALSE(response.remark);
  EXPECT_GE(response.version, 401);  // clients cache it as the broker version (§3.3)

  EXPECT_EQ(consumers_.GetAllClientIds("G1"), (std::vector<std::string>{"127.0.0.1@24594"}));
  std::optional<ConsumerGroupSnapshot> group = consumers_.GetGroupSnapshot("G1");
  ASSERT_TRUE(group);
  EXPECT_EQ(group->consume_from_where, protocol::ConsumeFromWhere::kConsumeFromFirstOffset);
  EXPECT_EQ(group->connections.at(0).version, 121);
  EXPECT_EQ(group->connections.at(0).language, protocol::LanguageCode::kJava);
  ASSERT_NE(consumers_.FindSubscriptionData("G1", "TopicTest"), nullptr);

  std::optional<std::vector<ClientChannelInfo>> producers = producers_.GetConnections("PG1");
  ASSERT_TRUE(producers);
  EXPECT_EQ(producers->at(0).client_id, "127.0.0.1@24594");

  // Pitfall 15: the retry topic exists right after the heartbeat, with Java's perms and
  // the group's retryQueueNums (default 1).
  std::optional<protocol::TopicConfig> retry = topics_->SelectTopicConfig("%RETRY%G1");
  ASSERT_TRUE(retry);
  EXPECT_EQ(retry->read_queue_nums, 1);
  EXPECT_EQ(retry->write_queue_nums, 1);
  EXPECT_EQ(retry->perm, protocol::kPermRead | protocol::kPermWrite);
  EXPECT_TRUE(groups_->ContainsSubscriptionGroup("G1"));
}

TEST_F(ClientManageProcessorTest, CppHeartbeatWithOrdinalsRegisters) {
  auto channel = test::MakeFakeChannel("127.0.0.1:45566");
  RemotingCommand consumer =
      FixtureHeartbeat("rocketmq-client-cpp-1.2.jsonl", /*with_consumer=*/true);
  EXPECT_EQ(processor_->HeartBeat(consumer, channel).code, rc::kSuccess);
  std::optional<ConsumerGroupSnapshot> group = consumers_.GetGroupSnapshot("G1");
  ASSERT_TRUE(group);
  EXPECT_EQ(group->consume_type, protocol::ConsumeType::kConsumePassively);
  EXPECT_EQ(group->message_model, protocol::MessageModel::kClustering);
  EXPECT_EQ(group->connections.at(0).language, protocol::LanguageCode::kCpp);
  EXPECT_EQ(group->connections.at(0).client_id, "1314-127.0.0.1@smoke-c-1314");
  EXPECT_EQ(consumers_.FindSubscriptionData("G1", "TopicTest")->sub_version, 39797291);
  EXPECT_TRUE(topics_->ContainsTopic("%RETRY%G1"));

  auto producer_channel = test::MakeFakeChannel("127.0.0.1:40718");
  EXPECT_EQ(
      processor_
          ->HeartBeat(FixtureHeartbeat("rocketmq-client-cpp-1.2.jsonl", false), producer_channel)
          .code,
      rc::kSuccess);
  EXPECT_TRUE(producers_.GetConnections("smoke-p-1314"));
}

TEST_F(ClientManageProcessorTest, RetryTopicUsesTheGroupsRetryQueueNums) {
  SubscriptionGroupConfig config;
  config.group_name = "G3";
  config.retry_queue_nums = 3;
  ASSERT_TRUE(groups_->UpdateSubscriptionGroupConfig(config).ok());
  auto channel = test::MakeFakeChannel("10.0.0.1:1");
  EXPECT_EQ(processor_->HeartBeat(Heartbeat("c@1", "G3", /*unit_mode=*/true), channel).code,
            rc::kSuccess);
  std::optional<protocol::TopicConfig> retry = topics_->SelectTopicConfig("%RETRY%G3");
  ASSERT_TRUE(retry);
  EXPECT_EQ(retry->read_queue_nums, 3);
  EXPECT_EQ(retry->write_queue_nums, 3);
  EXPECT_EQ(retry->topic_sys_flag, 0x2);  // unit-mode group: FLAG_UNIT_SUB
}

class ClientManageProcessorNoAutoCreateTest : public ClientManageProcessorTest {
 protected:
  ClientManageProcessorNoAutoCreateTest() : ClientManageProcessorTest(false) {}
};

TEST_F(ClientManageProcessorNoAutoCreateTest, UnknownGroupRegistersButGetsNoRetryTopic) {
  auto channel = test::MakeFakeChannel("10.0.0.1:1");
  EXPECT_EQ(processor_->HeartBeat(Heartbeat("c@1", "Unknown"), channel).code, rc::kSuccess);
  EXPECT_FALSE(groups_->ContainsSubscriptionGroup("Unknown"));
  EXPECT_FALSE(topics_->ContainsTopic("%RETRY%Unknown"));
  EXPECT_EQ(consumers_.GetAllClientIds("Unknown"), (std::vector<std::string>{"c@1"}));
}

TEST_F(ClientManageProcessorTest, BadHeartbeatsAreSystemErrorsNamingTheProblem) {
  auto channel = test::MakeFakeChannel("10.0.0.1:1");
  RemotingCommand empty = RemotingCommand::MakeRequest(code::kHeartBeat);
  RemotingCommand response = processor_->HeartBeat(empty, channel);
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_EQ(response.remark, "HEART_BEAT without a body");

  RemotingCommand bad = RemotingCommand::MakeRequest(code::kHeartBeat);
  bad.body = R"({"clientID":"c","consumerDataSet":[{"groupName":"G","messageModel":"SOMETIMES"}]})";
  response = processor_->HeartBeat(bad, channel);
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_NE(response.remark.value_or("").find("messageModel"), std::string::npos);
  EXPECT_TRUE(consumers_.AllGroups().empty());

  RemotingCommand no_id = RemotingCommand::MakeRequest(code::kHeartBeat);
  no_id.body = R"({"producerDataSet":[{"groupName":"P"}]})";
  EXPECT_EQ(processor_->HeartBeat(no_id, channel).code, rc::kSystemError);
}

TEST_F(ClientManageProcessorTest, UnregisterClientLikeTheCppClient) {
  auto channel = test::MakeFakeChannel("10.0.0.1:1");
  RemotingCommand heartbeat = Heartbeat("c@1", "G");
  protocol::HeartbeatData data = *protocol::DecodeHeartbeatData(heartbeat.body);
  data.producer_data_set.push_back({"PG"});
  heartbeat.body = protocol::EncodeHeartbeatData(data);
  ASSERT_EQ(processor_->HeartBeat(heartbeat, channel).code, rc::kSuccess);

  // The C++ client sends consumerGroup "" when it has none: it must not touch group "".
  RemotingCommand unregister = RemotingCommand::MakeRequest(code::kUnregisterClient);
  unregister.has_ext_fields = true;
  unregister.ext_fields.Set("clientID", "c@1");
  unregister.ext_fields.Set("producerGroup", "PG");
  unregister.ext_fields.Set("consumerGroup", "");
  EXPECT_EQ(processor_->UnregisterClient(unregister, channel).code, rc::kSuccess);
  EXPECT_FALSE(producers_.GetConnections("PG"));
  EXPECT_EQ(consumers_.GetAllClientIds("G"), (std::vector<std::string>{"c@1"}));
  EXPECT_FALSE(groups_->ContainsSubscriptionGroup(""));

  unregister.ext_fields.Set("consumerGroup", "G");
  EXPECT_EQ(processor_->UnregisterClient(unregister, channel).code, rc::kSuccess);
  EXPECT_TRUE(consumers_.GetAllClientIds("G").empty());

  RemotingCommand missing = RemotingCommand::MakeRequest(code::kUnregisterClient);
  missing.has_ext_fields = true;
  missing.ext_fields.Set("producerGroup", "PG");
  RemotingCommand response = processor_->UnregisterClient(missing, channel);
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_EQ(response.remark, "the custom field clientID is null");
}

TEST_F(ClientManageProcessorTest, ConsumerListIsSortedAndErrorsLikeJava) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  processor_->HeartBeat(Heartbeat("10.0.0.2@z", "G"), b);
  processor_->HeartBeat(Heartbeat("10.0.0.1@a", "G"), a);
  RemotingCommand request = RemotingCommand::MakeRequest(code::kGetConsumerListByGroup);
  request.has_ext_fields = true;
  request.ext_fields.Set("consumerGroup", "G");
  RemotingCommand response = processor_->GetConsumerListByGroup(request);
  ASSERT_EQ(response.code, rc::kSuccess);
  EXPECT_EQ(response.body, R"({"consumerIdList":["10.0.0.1@a","10.0.0.2@z"]})");

  request.ext_fields.Set("consumerGroup", "Nobody");
  response = processor_->GetConsumerListByGroup(request);
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_EQ(response.remark, "no consumer for this group, Nobody");

  RemotingCommand no_header = RemotingCommand::MakeRequest(code::kGetConsumerListByGroup);
  no_header.has_ext_fields = true;
  no_header.ext_fields.Set("other", "x");
  response = processor_->GetConsumerListByGroup(no_header);
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_EQ(response.remark, "the custom field consumerGroup is null");
}

RemotingCommand LockRequest(int32_t request_code, const std::string& client_id,
                            std::set<protocol::MessageQueue> queues) {
  protocol::LockBatchRequestBody body;
  body.consumer_group = "G";
  body.client_id = client_id;
  body.mq_set = std::move(queues);
  RemotingCommand request = RemotingCommand::MakeRequest(request_code);
  request.body = protocol::EncodeLockBatchRequestBody(body);
  return request;
}

std::set<protocol::MessageQueue> Locked(const RemotingCommand& response) {
  EXPECT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
  Result<protocol::LockBatchResponseBody> body =
      protocol::DecodeLockBatchResponseBody(response.body);
  EXPECT_TRUE(body.ok());
  return body.ok() ? body->lock_ok_mq_set : std::set<protocol::MessageQueue>{};
}

TEST_F(ClientManageProcessorTest, LocksContestedByTwoClientsAndExpiry) {
  const protocol::MessageQueue q0{"T", "broker-a", 0};
  const protocol::MessageQueue q1{"T", "broker-a", 1};
  EXPECT_EQ(Locked(processor_->LockBatchMq(LockRequest(code::kLockBatchMq, "c1", {q0, q1}))),
            (std::set<protocol::MessageQueue>{q0, q1}));
  EXPECT_TRUE(
      Locked(processor_->LockBatchMq(LockRequest(code::kLockBatchMq, "c2", {q0, q1}))).empty());
  EXPECT_EQ(processor_->UnlockBatchMq(LockRequest(code::kUnlockBatchMq, "c1", {q1})).code,
            rc::kSuccess);
  EXPECT_EQ(Locked(processor_->LockBatchMq(LockRequest(code::kLockBatchMq, "c2", {q0, q1}))),
            (std::set<protocol::MessageQueue>{q1}));
  clock_.Advance(60'001);  // c1 stopped re-locking q0
  EXPECT_EQ(Locked(processor_->LockBatchMq(LockRequest(code::kLockBatchMq, "c2", {q0, q1}))),
            (std::set<protocol::MessageQueue>{q0, q1}));

  RemotingCommand garbage = RemotingCommand::MakeRequest(code::kLockBatchMq);
  garbage.body = "[]";
  EXPECT_EQ(processor_->LockBatchMq(garbage).code, rc::kSystemError);
}

RemotingCommand CheckRequest(const std::string& expression_type) {
  protocol::CheckClientRequestBody body;
  body.client_id = "c";
  body.group = "G";
  protocol::SubscriptionData sub;
  sub.topic = "T";
  sub.sub_string = "a > 1";
  sub.expression_type = expression_type;
  body.subscription_data = sub;
  RemotingCommand request = RemotingCommand::MakeRequest(code::kCheckClientConfig);
  request.body = protocol::EncodeCheckClientRequestBody(body);
  return request;
}

TEST_F(ClientManageProcessorTest, CheckClientConfig) {
  EXPECT_EQ(processor_->CheckClientConfig(CheckRequest("TAG")).code, rc::kSuccess);
  RemotingCommand response = processor_->CheckClientConfig(CheckRequest("SQL92"));
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_EQ(response.remark, "The broker does not support consumer to filter message by SQL92");
  EXPECT_EQ(
      processor_->CheckClientConfig(RemotingCommand::MakeRequest(code::kCheckClientConfig)).code,
      rc::kSystemError);

  BrokerSettings settings = config_->Snapshot();
  settings.enable_property_filter = true;  // a start-up key, not reloadable
  BrokerConfig filtering(settings);
  ClientManageProcessor processor(&filtering, &consumers_, &producers_, groups_.get(),
                                  topics_.get());
  EXPECT_EQ(processor.CheckClientConfig(CheckRequest("TAG")).code, rc::kSuccess);
  response = processor.CheckClientConfig(CheckRequest("SQL92"));
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_NE(response.remark.value_or("").find("not implemented"), std::string::npos);
  EXPECT_EQ(processor.CheckClientConfig(CheckRequest("JAVASCRIPT")).code,
            rc::kSubscriptionParseFailed);
}

}  // namespace
}  // namespace apogee::broker
