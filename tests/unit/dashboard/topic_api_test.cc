#include "dashboard/topic_api.h"

#include <gtest/gtest.h>

#include "api_test_util.h"
#include "protocol/admin_bodies.h"
#include "protocol/system_topics.h"
#include "protocol/topic_list.h"

namespace apogee::dashboard {
namespace {

namespace rc = protocol::request_code;
using testing::ApiHarness;
using testing::kMasterAddr;
using testing::Request;
using testing::Text;

TEST(TopicApiTest, TopicKindSeparatesRetryDlqAndSystemTopics) {
  protocol::ClusterInfo info;
  info.cluster_addr_table["DefaultCluster"] = {"broker-a"};
  info.broker_addr_table["broker-a"] = {};
  EXPECT_EQ(TopicKind("Orders", info), "NORMAL");
  EXPECT_EQ(TopicKind("%RETRY%G", info), "RETRY");
  EXPECT_EQ(TopicKind("%DLQ%G", info), "DLQ");
  EXPECT_EQ(TopicKind("TBW102", info), "SYSTEM");
  EXPECT_EQ(TopicKind("SCHEDULE_TOPIC_XXXX", info), "SYSTEM");
  EXPECT_EQ(TopicKind("RMQ_SYS_TRANS_HALF_TOPIC", info), "SYSTEM");
  EXPECT_EQ(TopicKind("DefaultCluster", info), "SYSTEM");
  EXPECT_EQ(TopicKind("broker-a", info), "SYSTEM");
}

// The SYSTEM kind is RocketMQ's TopicValidator.isSystemTopic (protocol::IsSystemTopic) plus
// the cluster and broker names, as the Java console gets them from the NameServer: the
// listed RMQ_SYS_* topics and any lower-case "rmq_sys_" topic are system topics, an
// unlisted upper-case "RMQ_SYS_" name is an ordinary one.
TEST(TopicApiTest, TopicKindUsesTheProtocolsSystemTopicList) {
  protocol::ClusterInfo info;
  for (std::string_view t : protocol::kSystemTopics) EXPECT_EQ(TopicKind(t, info), "SYSTEM") << t;
  EXPECT_EQ(TopicKind("RMQ_SYS_TRACE_TOPIC", info), "SYSTEM");
  EXPECT_EQ(TopicKind("rmq_sys_wheel_timer", info), "SYSTEM");
  EXPECT_EQ(TopicKind("rmq_sys_anything", info), "SYSTEM");
  EXPECT_EQ(TopicKind("RMQ_SYS_ORDERS", info), "NORMAL");
  EXPECT_EQ(TopicKind("BenchmarkTest2", info), "NORMAL");
}

TEST(TopicApiTest, TopicsListsNamesWithKindsAndClusters) {
  ApiHarness h;
  protocol::TopicList list;
  list.topic_list = {"A", "%RETRY%G", "TBW102"};
  h.transport().OnBody(rc::kGetAllTopicListFromNameserver, protocol::EncodeTopicList(list));
  auto json = TopicsJson(h.admin());
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto doc = testing::ParseJson(*json);
  EXPECT_EQ(Text(doc["clusters"][0]), "DefaultCluster");
  ASSERT_EQ(doc["topics"].Size(), 3u);
  EXPECT_EQ(Text(doc["topics"][0]["name"]), "%RETRY%G");
  EXPECT_EQ(Text(doc["topics"][0]["kind"]), "RETRY");
  EXPECT_EQ(Text(doc["topics"][1]["name"]), "A");
  EXPECT_EQ(Text(doc["topics"][1]["kind"]), "NORMAL");
  EXPECT_EQ(Text(doc["topics"][2]["kind"]), "SYSTEM");
}

TEST(TopicApiTest, TopicShowsRouteQueuesAndGroups) {
  ApiHarness h;
  h.transport().On(rc::kGetTopicStatsInfo, [](const std::string&, const protocol::RemotingCommand& req) {
    protocol::TopicStatsTable t;
    for (int q = 0; q < 4; ++q) t.offset_table[{"T", "broker-a", q}] = {q, 10 + q, 1700000000000};
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeTopicStatsTable(t);
    return r;
  });
  protocol::GroupList groups;
  groups.group_list = {"G1"};
  h.transport().OnBody(rc::kQueryTopicConsumeByWho, protocol::EncodeGroupList(groups));
  auto json = TopicJson(h.admin(), Request({{"topic", "T"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto doc = testing::ParseJson(*json);
  EXPECT_EQ(Text(doc["queueDatas"][0]["readQueueNums"]), "4");
  EXPECT_EQ(Text(doc["queueDatas"][0]["permText"]), "RW-");
  EXPECT_EQ(Text(doc["brokerDatas"][0]["brokerAddrs"]["0"]), kMasterAddr);
  ASSERT_EQ(doc["queues"].Size(), 4u);
  EXPECT_EQ(Text(doc["queues"][3]["minOffset"]), "3");
  EXPECT_EQ(Text(doc["queues"][3]["maxOffset"]), "13");
  EXPECT_EQ(Text(doc["messages"]), "40");  // (10-0) + (11-1) + (12-2) + (13-3)
  EXPECT_EQ(Text(doc["groups"][0]), "G1");
  // Stats come from the master only.
  for (const auto& call : h.transport().CallsWithCode(rc::kGetTopicStatsInfo)) EXPECT_EQ(call.addr, kMasterAddr);
  EXPECT_TRUE(TopicJson(h.admin(), Request({})).status().Is(StatusCode::kInvalidArgument));
}

TEST(TopicApiTest, UpdateCreatesOnEveryMasterWithTheGivenQueuesAndPerm) {
  ApiHarness h;
  h.transport().On(rc::kUpdateAndCreateTopic, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, 0);
  });
  auto json = UpdateTopic(h.admin(), Request({{"topic", "T"}, {"cluster", "DefaultCluster"}, {"readQueueNums", "4"},
                                              {"writeQueueNums", "2"}, {"perm", "4"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto calls = h.transport().CallsWithCode(rc::kUpdateAndCreateTopic);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, kMasterAddr);
  const auto& f = calls[0].request.ext_fields;
  EXPECT_EQ(f.Get("topic"), std::optional<std::string_view>("T"));
  EXPECT_EQ(f.Get("readQueueNums"), std::optional<std::string_view>("4"));
  EXPECT_EQ(f.Get("writeQueueNums"), std::optional<std::string_view>("2"));
  EXPECT_EQ(f.Get("perm"), std::optional<std::string_view>("4"));
  auto doc = testing::ParseJson(*json);
  EXPECT_EQ(Text(doc["brokers"][0]), kMasterAddr);
}

TEST(TopicApiTest, UpdateWithoutClusterUsesTheOnlyOne) {
  ApiHarness h;
  h.transport().On(rc::kUpdateAndCreateTopic, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, 0);
  });
  ASSERT_TRUE(UpdateTopic(h.admin(), Request({{"topic", "T"}})).ok());
  EXPECT_EQ(h.transport().CallsWithCode(rc::kUpdateAndCreateTopic).size(), 1u);
}

TEST(TopicApiTest, UpdateRefusedByTheBrokerCarriesItsRemark) {
  ApiHarness h;
  h.transport().On(rc::kUpdateAndCreateTopic, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kSystemError,
                                                   "the topic name 'bad topic' contains illegal characters");
  });
  auto json = UpdateTopic(h.admin(), Request({{"topic", "bad topic"}}));
  ASSERT_FALSE(json.ok());
  EXPECT_NE(json.status().message().find("illegal characters"), std::string::npos) << json.status().ToString();
  EXPECT_NE(json.status().message().find(kMasterAddr), std::string::npos);
}

TEST(TopicApiTest, UpdateRefusesBadQueueCountsBeforeAskingAnyone) {
  ApiHarness h;
  EXPECT_TRUE(UpdateTopic(h.admin(), Request({{"topic", "T"}, {"readQueueNums", "0"}}))
                  .status()
                  .Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(UpdateTopic(h.admin(), Request({{"topic", "T"}, {"perm", "rw"}})).status().Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(UpdateTopic(h.admin(), Request({{"readQueueNums", "4"}})).status().Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(h.transport().CallsWithCode(rc::kUpdateAndCreateTopic).empty());
}

TEST(TopicApiTest, DeleteAsksTheMastersThenTheNameServers) {
  ApiHarness h;
  auto ok = [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, 0);
  };
  h.transport().On(rc::kDeleteTopicInBroker, ok);
  h.transport().On(rc::kDeleteTopicInNamesrv, ok);
  ASSERT_TRUE(DeleteTopic(h.admin(), Request({{"topic", "T"}, {"cluster", "DefaultCluster"}})).ok());
  ASSERT_EQ(h.transport().CallsWithCode(rc::kDeleteTopicInBroker).size(), 1u);
  EXPECT_EQ(h.transport().CallsWithCode(rc::kDeleteTopicInBroker)[0].addr, kMasterAddr);
  EXPECT_EQ(h.transport().CallsWithCode(rc::kDeleteTopicInNamesrv).size(), 1u);
}

}  // namespace
}  // namespace apogee::dashboard
