#include "admin/command_util.h"

#include <gtest/gtest.h>

#include "fake_transport.h"
#include "protocol/request_code.h"

namespace apogee::admin {
namespace {

TEST(CommandUtilTest, TopicConfigToStringAsJava) {
  protocol::TopicConfig c;
  c.topic_name = "T";
  c.read_queue_nums = 8;
  c.write_queue_nums = 4;
  EXPECT_EQ(TopicConfigToString(c),
            "TopicConfig [topicName=T, readQueueNums=8, writeQueueNums=4, perm=RW-, topicFilterType=SINGLE_TAG, "
            "topicSysFlag=0, order=false, attributes={}]");
}

TEST(CommandUtilTest, ParseAttributes) {
  auto a = ParseAttributes("+message.type=NORMAL, -queue.type");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->at("+message.type"), "NORMAL");
  EXPECT_EQ(a->at("-queue.type"), "");
  EXPECT_FALSE(ParseAttributes("message.type=NORMAL").ok());
  EXPECT_FALSE(ParseAttributes("+novalue").ok());
  EXPECT_FALSE(ParseAttributes("-k=v").ok());
  EXPECT_TRUE(ParseAttributes("")->empty());
}

TEST(CommandUtilTest, ParseTimestampArg) {
  EXPECT_EQ(*ParseTimestampArg("now", 1234), 1234);
  EXPECT_EQ(*ParseTimestampArg("1676730526212", 0), 1676730526212);
  EXPECT_EQ(*ParseTimestampArg("-1", 0), -1);
  auto date = ParseTimestampArg("2024-01-02#03:04:05:678", 0);
  ASSERT_TRUE(date.ok()) << date.status().ToString();
  EXPECT_EQ(*date % 1000, 678);
  EXPECT_EQ(*ParseTimestampArg("2024-01-02#03:04:06:678", 0) - *date, 1000);
  auto bad = ParseTimestampArg("yesterday", 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("yesterday"), std::string::npos);
}

TEST(CommandUtilTest, PrettyJsonIndents) {
  EXPECT_EQ(PrettyJson("{\"a\":1}"), "{\n  \"a\": 1\n}");
  EXPECT_EQ(PrettyJson("not json"), "not json");
}

TEST(CommandUtilTest, TargetBrokersFromFlagOrCluster) {
  testing::FakeTransport t;
  protocol::ClusterInfo info;
  info.broker_addr_table["b1"] = {"C", "b1", {{0, "a1:1"}, {1, "s1:1"}}};
  info.broker_addr_table["b2"] = {"C", "b2", {{1, "s2:1"}}};  // no master
  info.cluster_addr_table["C"] = {"b1", "b2"};
  t.OnBody(protocol::request_code::kGetBrokerClusterInfo, protocol::EncodeClusterInfo(info));
  t.On(protocol::request_code::kGetRouteinfoByTopic, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kTopicNotExist);
  });
  MQAdminClient admin(&t);
  ParsedOptions by_addr;
  by_addr.Set("brokerAddr", "x:1");
  EXPECT_EQ(*TargetBrokers(by_addr, &admin), std::vector<std::string>{"x:1"});
  ParsedOptions by_cluster;
  by_cluster.Set("clusterName", "C");
  EXPECT_EQ(*TargetBrokers(by_cluster, &admin), std::vector<std::string>{"a1:1"});
  ParsedOptions unknown;
  unknown.Set("clusterName", "Nope");
  EXPECT_TRUE(TargetBrokers(unknown, &admin).status().IsNotFound());
  auto neither = TargetBrokers(ParsedOptions{}, &admin);
  ASSERT_FALSE(neither.ok());
  EXPECT_NE(neither.status().message().find("--brokerAddr"), std::string::npos);
  EXPECT_EQ(*BrokerNameOfAddr(&admin, "s1:1"), "b1");
  EXPECT_FALSE(BrokerNameOfAddr(&admin, "zz:1").ok());
  // No retry topic route: every master the NameServer knows.
  auto group = MastersForGroup(&admin, "G");
  ASSERT_TRUE(group.ok()) << group.status().ToString();
  EXPECT_EQ(group->size(), 1u);
  EXPECT_EQ(group->at("b1"), "a1:1");
}

}  // namespace
}  // namespace apogee::admin
