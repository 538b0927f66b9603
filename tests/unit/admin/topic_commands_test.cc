#include "admin/topic_commands.h"

#include <gtest/gtest.h>

#include "command_test_util.h"
#include "protocol/admin_bodies.h"
#include "protocol/admin_headers.h"
#include "protocol/topic_list.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;
using testing::CommandHarness;
using testing::kBrokerAddr;

TEST(TopicCommandsTest, UpdateTopicOnEveryMasterOfTheCluster) {
  CommandHarness h;
  h.transport().OnBody(rc::kUpdateAndCreateTopic, "");
  auto res = h.Run({"updateTopic", "-c", "DefaultCluster", "-t", "T1", "-r", "3", "-w", "5", "-p", "4"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  auto calls = h.transport().CallsWithCode(rc::kUpdateAndCreateTopic);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, kBrokerAddr);
  auto header = protocol::HeaderFromExtFields<protocol::CreateTopicRequestHeader>(calls[0].request.ext_fields);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->topic, "T1");
  EXPECT_EQ(header->read_queue_nums, 3);
  EXPECT_EQ(header->write_queue_nums, 5);
  EXPECT_EQ(header->perm, 4);
  EXPECT_EQ(header->default_topic, "TBW102");
  EXPECT_NE(res.out.find("create topic to 10.0.0.1:10911 success."), std::string::npos);
  EXPECT_NE(res.out.find("TopicConfig [topicName=T1, readQueueNums=3, writeQueueNums=5, perm=R--"),
            std::string::npos)
      << res.out;
}

TEST(TopicCommandsTest, UpdateTopicNeedsBrokerOrCluster) {
  CommandHarness h;
  auto res = h.Run({"updateTopic", "-t", "T1"});
  EXPECT_EQ(res.exit_code, 1);
  EXPECT_NE(res.err.find("--brokerAddr"), std::string::npos) << res.err;
  auto bad = h.Run({"updateTopic", "-b", "x:1", "-t", "T1", "-r", "many"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("readQueueNums"), std::string::npos) << bad.err;
}

TEST(TopicCommandsTest, TopicListPrintsOnePerLine) {
  CommandHarness h;
  protocol::TopicList list;
  list.topic_list = {"A", "B"};
  h.transport().OnBody(rc::kGetAllTopicListFromNameserver, protocol::EncodeTopicList(list));
  auto res = h.Run({"topicList"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_EQ(res.out, "A\nB\n");
}

TEST(TopicCommandsTest, TopicStatusTable) {
  CommandHarness h;
  protocol::TopicStatsTable stats;
  stats.offset_table[{"T", "broker-a", 1}] = {0, 7, 0};
  stats.offset_table[{"T", "broker-a", 0}] = {2, 10, 1700000000000};
  stats.topic_put_tps = 1.5;
  h.transport().OnBody(rc::kGetTopicStatsInfo, protocol::EncodeTopicStatsTable(stats));
  auto res = h.Run({"topicStatus", "-t", "T"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  std::istringstream lines(res.out);
  std::string header, q0, q1;
  std::getline(lines, header);
  std::getline(lines, q0);
  std::getline(lines, q1);
  EXPECT_EQ(header.substr(0, 40), "#Broker Name                      #QID  ");
  // "%-32s  %-4d  %-20d  %-20d    %s", sorted by queue id.
  const std::string pad24(24, ' ');
  EXPECT_EQ(q0.substr(0, 86), "broker-a" + pad24 + "  0     2" + std::string(19, ' ') + "  10" +
                                  std::string(18, ' ') + "    ");
  EXPECT_GT(q0.size(), 86u);  // the last-updated time follows
  EXPECT_EQ(q1, "broker-a" + pad24 + "  1     0" + std::string(19, ' ') + "  7" + std::string(19, ' ') + "    ");
  EXPECT_NE(res.out.find("Topic Put TPS: 1.5"), std::string::npos);
}

TEST(TopicCommandsTest, TopicRouteJsonAndList) {
  CommandHarness h;
  auto json = h.Run({"topicRoute", "-t", "T"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"brokerName\": \"broker-a\""), std::string::npos) << json.out;
  auto list = h.Run({"topicRoute", "-t", "T", "-l"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("{0=10.0.0.1:10911}"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("Total:"), std::string::npos);
}

TEST(TopicCommandsTest, TopicClusterListAndDeleteTopic) {
  CommandHarness h;
  auto clusters = h.Run({"topicClusterList", "-t", "T"});
  ASSERT_EQ(clusters.exit_code, 0) << clusters.err;
  EXPECT_EQ(clusters.out, "DefaultCluster\n");

  h.transport().OnBody(rc::kDeleteTopicInBroker, "");
  h.transport().OnBody(rc::kDeleteTopicInNamesrv, "");
  auto del = h.Run({"deleteTopic", "-t", "T", "-c", "DefaultCluster"});
  ASSERT_EQ(del.exit_code, 0) << del.err;
  EXPECT_EQ(h.transport().CallsWithCode(rc::kDeleteTopicInBroker).size(), 1u);
  ASSERT_EQ(h.transport().CallsWithCode(rc::kDeleteTopicInNamesrv).size(), 1u);
  EXPECT_EQ(h.transport().CallsWithCode(rc::kDeleteTopicInNamesrv)[0].addr, "ns1:9876");
  EXPECT_NE(del.out.find("delete topic [T] from NameServer success."), std::string::npos);
}

}  // namespace
}  // namespace apogee::admin
