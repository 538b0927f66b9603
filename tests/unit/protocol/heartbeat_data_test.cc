#include "protocol/heartbeat_data.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/java_hash.h"
#include "testutil/test_paths.h"

namespace apogee::protocol {
namespace {

// The HEART_BEAT bodies a real client sent, re-serialized from the fixture's bodyJson.
std::vector<std::string> FixtureHeartbeats(const std::string& file) {
  std::vector<std::string> bodies;
  std::ifstream in(::apogee::testing::FixturesDir() + "/client-requests/" + file);
  EXPECT_TRUE(in) << file;
  std::string line;
  while (std::getline(in, line)) {
    rapidjson::Document record;
    record.Parse(line.data(), line.size());
    if (record.HasParseError() || record["code"].GetInt() != 34) continue;
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    record["bodyJson"].Accept(writer);
    bodies.emplace_back(buffer.GetString(), buffer.GetSize());
  }
  return bodies;
}

TEST(HeartbeatDataTest, DecodesEveryAliOnsHeartbeat) {
  const std::vector<std::string> bodies = FixtureHeartbeats("ali-ons-3.12.0.jsonl");
  ASSERT_FALSE(bodies.empty());
  for (const std::string& body : bodies) {
    Result<HeartbeatData> data = DecodeHeartbeatData(body);
    ASSERT_TRUE(data.ok()) << data.status().ToString() << "\n" << body;
  }
  Result<HeartbeatData> data = DecodeHeartbeatData(bodies.front());
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->client_id, "127.0.0.1@24594");
  ASSERT_EQ(data->consumer_data_set.size(), 1u);
  const ConsumerData& consumer = data->consumer_data_set[0];
  EXPECT_EQ(consumer.group_name, "G1");
  EXPECT_EQ(consumer.consume_type, ConsumeType::kConsumePassively);
  EXPECT_EQ(consumer.message_model, MessageModel::kClustering);
  EXPECT_EQ(consumer.consume_from_where, ConsumeFromWhere::kConsumeFromFirstOffset);
  ASSERT_EQ(consumer.subscription_data_set.size(), 1u);
  const SubscriptionData& sub = consumer.subscription_data_set[0];
  EXPECT_EQ(sub.topic, "TopicTest");
  EXPECT_EQ(sub.sub_string, "*");
  EXPECT_EQ(sub.sub_version, 1795947434497);
  EXPECT_EQ(sub.expression_type, "TAG");  // absent in ali-ons' body
  EXPECT_TRUE(sub.tags_set.empty());
  ASSERT_EQ(data->producer_data_set.size(), 1u);
  EXPECT_EQ(data->producer_data_set[0].group_name, "PG1");
}

TEST(HeartbeatDataTest, DecodesEveryCppClientHeartbeat) {
  const std::vector<std::string> bodies = FixtureHeartbeats("rocketmq-client-cpp-1.2.jsonl");
  ASSERT_FALSE(bodies.empty());
  bool saw_consumer = false;
  bool saw_producer_only = false;
  for (const std::string& body : bodies) {
    Result<HeartbeatData> data = DecodeHeartbeatData(body);
    ASSERT_TRUE(data.ok()) << data.status().ToString() << "\n" << body;
    if (!data->consumer_data_set.empty()) {
      saw_consumer = true;
      const ConsumerData& consumer = data->consumer_data_set[0];
      // Ordinals: consumeType 1, messageModel 1, consumeFromWhere 0.
      EXPECT_EQ(consumer.consume_type, ConsumeType::kConsumePassively);
      EXPECT_EQ(consumer.message_model, MessageModel::kClustering);
      EXPECT_EQ(consumer.consume_from_where, ConsumeFromWhere::kConsumeFromLastOffset);
      ASSERT_EQ(consumer.subscription_data_set.size(), 2u);
      // subVersion arrived as the string "39797291".
      EXPECT_EQ(consumer.subscription_data_set[0].sub_version, 39797291);
      EXPECT_EQ(consumer.subscription_data_set[0].topic, "%RETRY%G1");
      EXPECT_EQ(consumer.subscription_data_set[0].expression_type, "TAG");
      EXPECT_TRUE(data->producer_data_set.empty());  // producerDataSet absent
    } else {
      saw_producer_only = true;
      ASSERT_EQ(data->producer_data_set.size(), 1u);
      EXPECT_EQ(data->producer_data_set[0].group_name, "smoke-p-1314");
    }
  }
  EXPECT_TRUE(saw_consumer);
  EXPECT_TRUE(saw_producer_only);
}

TEST(HeartbeatDataTest, DecodesJavaFiveBodyWithTagsAndCodes) {
  const std::string body =
      R"({"clientID":"10.0.0.7@12345","consumerDataSet":[{"consumeFromWhere":"CONSUME_FROM_TIMESTAMP",)"
      R"("consumeType":"CONSUME_ACTIVELY","groupName":"G","messageModel":"BROADCASTING",)"
      R"("subscriptionDataSet":[{"classFilterMode":false,"codeSet":[2653,2654],"expressionType":"TAG",)"
      R"("subString":"TagA || TagB","subVersion":1700000000000,"tagsSet":["TagA","TagB"],"topic":"T"}],)"
      R"("unitMode":true}],"heartbeatFingerprint":17,"producerDataSet":[{"groupName":"CLIENT_INNER_PRODUCER"}],)"
      R"("withoutSub":true})";
  Result<HeartbeatData> data = DecodeHeartbeatData(body);
  ASSERT_TRUE(data.ok()) << data.status().ToString();
  const ConsumerData& consumer = data->consumer_data_set.at(0);
  EXPECT_EQ(consumer.consume_type, ConsumeType::kConsumeActively);
  EXPECT_EQ(consumer.message_model, MessageModel::kBroadcasting);
  EXPECT_EQ(consumer.consume_from_where, ConsumeFromWhere::kConsumeFromTimestamp);
  EXPECT_TRUE(consumer.unit_mode);
  EXPECT_EQ(consumer.subscription_data_set.at(0).tags_set, (std::set<std::string>{"TagA", "TagB"}));
  EXPECT_EQ(consumer.subscription_data_set.at(0).code_set, (std::set<int32_t>{2653, 2654}));
  EXPECT_EQ(data->heartbeat_fingerprint, 17);
  EXPECT_TRUE(data->without_sub);
}

TEST(HeartbeatDataTest, EncodeRoundTripsWithJavaNamesAndAllArrays) {
  HeartbeatData data;
  data.client_id = "127.0.0.1@1";
  ConsumerData consumer;
  consumer.group_name = "G";
  consumer.consume_from_where = ConsumeFromWhere::kConsumeFromMaxOffset;
  SubscriptionData sub;
  sub.topic = "T";
  sub.sub_string = "a";
  sub.tags_set = {"a"};
  sub.code_set = {JavaStringHashCode("a")};
  sub.sub_version = 5;
  consumer.subscription_data_set.push_back(sub);
  data.consumer_data_set.push_back(consumer);
  const std::string json = EncodeHeartbeatData(data);
  EXPECT_NE(json.find(R"("consumeFromWhere":"CONSUME_FROM_MAX_OFFSET")"), std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("producerDataSet":[])"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("codeSet":[97])"), std::string::npos) << json;
  Result<HeartbeatData> back = DecodeHeartbeatData(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, data);
}

TEST(HeartbeatDataTest, RejectsUnknownEnumNameAndOrdinalOutOfRange) {
  Result<HeartbeatData> bad_name = DecodeHeartbeatData(
      R"({"clientID":"c","consumerDataSet":[{"groupName":"G","consumeType":"CONSUME_SOMETIMES"}]})");
  ASSERT_FALSE(bad_name.ok());
  EXPECT_NE(bad_name.status().message().find("consumerDataSet[0].consumeType"), std::string::npos)
      << bad_name.status().ToString();
  EXPECT_NE(bad_name.status().message().find("CONSUME_SOMETIMES"), std::string::npos);

  Result<HeartbeatData> bad_ordinal = DecodeHeartbeatData(
      R"({"clientID":"c","consumerDataSet":[{"groupName":"G","messageModel":2}]})");
  ASSERT_FALSE(bad_ordinal.ok());
  EXPECT_NE(bad_ordinal.status().message().find("out of range"), std::string::npos);
}

TEST(HeartbeatDataTest, RejectsWrongShapes) {
  EXPECT_FALSE(DecodeHeartbeatData("not json").ok());
  EXPECT_FALSE(DecodeHeartbeatData(R"({"clientID":"c","consumerDataSet":{}})").ok());
  EXPECT_FALSE(DecodeHeartbeatData(R"({"clientID":"c","consumerDataSet":[7]})").ok());
  Result<HeartbeatData> bad_version = DecodeHeartbeatData(
      R"({"clientID":"c","consumerDataSet":[{"groupName":"G","subscriptionDataSet":[{"topic":"T","subVersion":"soon"}]}]})");
  ASSERT_FALSE(bad_version.ok());
  EXPECT_NE(bad_version.status().message().find("subVersion"), std::string::npos);
}

TEST(HeartbeatDataTest, MissingArraysAreEmpty) {
  Result<HeartbeatData> data = DecodeHeartbeatData(R"({"clientID":"c"})");
  ASSERT_TRUE(data.ok());
  EXPECT_TRUE(data->consumer_data_set.empty());
  EXPECT_TRUE(data->producer_data_set.empty());
}

TEST(HeartbeatDataTest, EnumNames) {
  EXPECT_EQ(ConsumeTypeName(ConsumeType::kConsumePop), "CONSUME_POP");
  EXPECT_EQ(MessageModelName(MessageModel::kBroadcasting), "BROADCASTING");
  EXPECT_EQ(ConsumeFromWhereName(ConsumeFromWhere::kConsumeFromLastOffsetAndFromMinWhenBootFirst),
            "CONSUME_FROM_LAST_OFFSET_AND_FROM_MIN_WHEN_BOOT_FIRST");
  EXPECT_TRUE(IsTagExpressionType(""));
  EXPECT_TRUE(IsTagExpressionType("TAG"));
  EXPECT_FALSE(IsTagExpressionType("SQL92"));
}

TEST(HeartbeatDataTest, SubscriptionDataAlone) {
  SubscriptionData sub;
  sub.topic = "T";
  sub.sub_string = "*";
  sub.sub_version = 9;
  Result<SubscriptionData> back = DecodeSubscriptionData(EncodeSubscriptionData(sub));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, sub);
}

TEST(HeartbeatDataTest, CheckClientRequestBody) {
  Result<CheckClientRequestBody> body = DecodeCheckClientRequestBody(
      R"({"clientId":"c1","group":"G","subscriptionData":{"topic":"T","subString":"a > 1","expressionType":"SQL92"}})");
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(body->client_id, "c1");
  EXPECT_EQ(body->group, "G");
  ASSERT_TRUE(body->subscription_data);
  EXPECT_EQ(body->subscription_data->expression_type, "SQL92");
  Result<CheckClientRequestBody> back =
      DecodeCheckClientRequestBody(EncodeCheckClientRequestBody(*body));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, *body);
  EXPECT_FALSE(DecodeCheckClientRequestBody(R"({"subscriptionData":[]})").ok());
}

}  // namespace
}  // namespace apogee::protocol
