#include "dashboard/consumer_api.h"

#include <gtest/gtest.h>

#include "api_test_util.h"
#include "protocol/admin_bodies.h"
#include "protocol/topic_list.h"

namespace apogee::dashboard {
namespace {

namespace rc = protocol::request_code;
using testing::ApiHarness;
using testing::kMasterAddr;
using testing::Request;
using testing::Text;

// Queue q of T: broker offset 10 + q, consumer offset q (lag 10 each).
void AnswerConsumeStats(ApiHarness& h) {
  h.transport().On(rc::kGetConsumeStats, [](const std::string&, const protocol::RemotingCommand& req) {
    protocol::ConsumeStats s;
    for (int q = 0; q < 4; ++q) s.offset_table[{"T", "broker-a", q}] = {10 + q, q, 0, 1700000000000};
    s.consume_tps = 2.5;
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeConsumeStats(s);
    return r;
  });
}

void AnswerConnection(ApiHarness& h) {
  h.transport().On(rc::kGetConsumerConnectionList, [](const std::string&, const protocol::RemotingCommand& req) {
    protocol::ConsumerConnection cc;
    cc.connection_set.push_back({"10.0.0.9@1", "10.0.0.9:4000", protocol::LanguageCode::kJava, 401});
    protocol::SubscriptionData sd;
    sd.topic = "T";
    sd.sub_string = "TagA || TagB";
    cc.subscription_table["T"] = sd;
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeConsumerConnection(cc);
    return r;
  });
}

TEST(ConsumerApiTest, GroupShowsPerQueueLagTotalMembersAndSubscriptions) {
  ApiHarness h;
  AnswerConsumeStats(h);
  AnswerConnection(h);
  auto json = ConsumerJson(h.admin(), Request({{"group", "G"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto doc = testing::ParseJson(*json);
  EXPECT_EQ(Text(doc["lag"]), "40");
  EXPECT_EQ(Text(doc["consumeTps"]), "2.5");
  ASSERT_EQ(doc["queues"].Size(), 4u);
  EXPECT_EQ(Text(doc["queues"][2]["brokerOffset"]), "12");
  EXPECT_EQ(Text(doc["queues"][2]["consumerOffset"]), "2");
  EXPECT_EQ(Text(doc["queues"][2]["lag"]), "10");
  EXPECT_EQ(Text(doc["online"]), "true");
  EXPECT_EQ(Text(doc["members"][0]["clientId"]), "10.0.0.9@1");
  EXPECT_EQ(Text(doc["members"][0]["language"]), "JAVA");
  EXPECT_EQ(Text(doc["subscriptions"][0]["expression"]), "TagA || TagB");
  // No %DLQ%G route: no dead-letter queue, and that is not an error.
  EXPECT_EQ(Text(doc["dlqSize"]), "null");
  EXPECT_FALSE(doc.HasMember("dlqError"));
}

TEST(ConsumerApiTest, OfflineGroupStillShowsItsOffsets) {
  ApiHarness h;
  AnswerConsumeStats(h);
  h.transport().On(rc::kGetConsumerConnectionList, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kConsumerNotOnline,
                                                   "the consumer group[G] not online");
  });
  auto json = ConsumerJson(h.admin(), Request({{"group", "G"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto doc = testing::ParseJson(*json);
  EXPECT_EQ(Text(doc["online"]), "false");
  EXPECT_EQ(doc["members"].Size(), 0u);
  EXPECT_NE(Text(doc["connectionError"]).find("not online"), std::string::npos);
  EXPECT_EQ(Text(doc["lag"]), "40");
}

TEST(ConsumerApiTest, GroupsListComesFromRetryTopics) {
  ApiHarness h;
  AnswerConsumeStats(h);
  AnswerConnection(h);
  protocol::TopicList list;
  list.topic_list = {"T", "%RETRY%G", "%DLQ%G"};
  h.transport().OnBody(rc::kGetAllTopicListFromNameserver, protocol::EncodeTopicList(list));
  auto json = ConsumersJson(h.admin());
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto doc = testing::ParseJson(*json);
  ASSERT_EQ(doc["groups"].Size(), 1u);
  EXPECT_EQ(Text(doc["groups"][0]["group"]), "G");
  EXPECT_EQ(Text(doc["groups"][0]["lag"]), "40");
  EXPECT_EQ(Text(doc["groups"][0]["memberCount"]), "1");
  EXPECT_EQ(Text(doc["groups"][0]["online"]), "true");
}

TEST(ConsumerApiTest, ResetOnlineUsesTheBrokerSideReset) {
  ApiHarness h;
  h.transport().On(rc::kInvokeBrokerToResetOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    protocol::ResetOffsetBody b;
    b.offset_table[{"T", "broker-a", 0}] = 3;
    b.offset_table[{"T", "broker-a", 1}] = 5;
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeResetOffsetBody(b);
    return r;
  });
  auto json = ResetConsumerOffsets(h.admin(), Request({{"group", "G"}, {"topic", "T"}, {"timestamp", "1700000000000"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto calls = h.transport().CallsWithCode(rc::kInvokeBrokerToResetOffset);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, kMasterAddr);
  EXPECT_EQ(calls[0].request.ext_fields.Get("timestamp"), std::optional<std::string_view>("1700000000000"));
  EXPECT_EQ(calls[0].request.ext_fields.Get("isForce"), std::optional<std::string_view>("true"));
  auto doc = testing::ParseJson(*json);
  ASSERT_EQ(doc["offsets"].Size(), 2u);
  EXPECT_EQ(Text(doc["offsets"][1]["offset"]), "5");
}

TEST(ConsumerApiTest, ResetOfflineCommitsSearchedOffsetsQueueByQueue) {
  ApiHarness h;
  h.transport().On(rc::kInvokeBrokerToResetOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kConsumerNotOnline,
                                                   "Consumer not online, so can not reset offset");
  });
  h.transport().On(rc::kQueryConsumerOffset, testing::OffsetAnswer(9));
  h.transport().On(rc::kSearchOffsetByTimestamp, testing::OffsetAnswer(2));
  h.transport().On(rc::kUpdateConsumerOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, 0);
  });
  auto json = ResetConsumerOffsets(h.admin(), Request({{"group", "G"}, {"topic", "T"}, {"timestamp", "5"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto updates = h.transport().CallsWithCode(rc::kUpdateConsumerOffset);
  ASSERT_EQ(updates.size(), 4u);
  for (const auto& u : updates) EXPECT_EQ(u.request.ext_fields.Get("commitOffset"), std::optional<std::string_view>("2"));
  auto doc = testing::ParseJson(*json);
  EXPECT_EQ(doc["offsets"].Size(), 4u);
}

TEST(ConsumerApiTest, ResetNeedsGroupTopicAndANumericTimestamp) {
  ApiHarness h;
  EXPECT_TRUE(ResetConsumerOffsets(h.admin(), Request({{"topic", "T"}, {"timestamp", "1"}}))
                  .status()
                  .Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(ResetConsumerOffsets(h.admin(), Request({{"group", "G"}, {"topic", "T"}, {"timestamp", "yesterday"}}))
                  .status()
                  .Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(h.transport().calls().empty());
}

TEST(ConsumerApiTest, RedriveWithoutDlqIsNotFoundAndABadMaxCountIsRefused) {
  ApiHarness h;
  auto none = RedriveDeadLetters(h.admin(), Request({{"group", "G"}}));
  EXPECT_TRUE(none.status().IsNotFound()) << none.status().ToString();
  EXPECT_TRUE(RedriveDeadLetters(h.admin(), Request({{"group", "G"}, {"maxCount", "0"}}))
                  .status()
                  .Is(StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace apogee::dashboard
