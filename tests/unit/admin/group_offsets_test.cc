#include "admin/group_offsets.h"

#include <gtest/gtest.h>

#include "command_test_util.h"
#include "protocol/admin_bodies.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;
using testing::FakeTransport;
using testing::kBrokerAddr;

// A NameServer knowing broker-a (kBrokerAddr) serving topic T with 2 queues.
void AnswerRoute(FakeTransport& t) {
  t.On(rc::kGetRouteinfoByTopic, [](const std::string&, const protocol::RemotingCommand& req) {
    protocol::TopicRouteData route;
    route.queue_datas.push_back({"broker-a", 2, 2, 6, 0});
    route.broker_datas.push_back({"DefaultCluster", "broker-a", {{0, kBrokerAddr}}});
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeTopicRouteData(route, protocol::MapKeyStyle::kQuoted);
    return r;
  });
}

FakeTransport::Handler Offset(int64_t offset) {
  return [offset](const std::string&, const protocol::RemotingCommand& req) {
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.ext_fields.Set("offset", std::to_string(offset));
    return r;
  };
}

TEST(GroupOffsetsTest, MergedConsumeStatsAndTotalLag) {
  FakeTransport t;
  AnswerRoute(t);
  t.On(rc::kGetConsumeStats, [](const std::string&, const protocol::RemotingCommand& req) {
    protocol::ConsumeStats s;
    s.offset_table[{"T", "broker-a", 0}] = {10, 4, 0, 0};
    s.offset_table[{"T", "broker-a", 1}] = {7, 7, 0, 0};
    s.consume_tps = 1.5;
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeConsumeStats(s);
    return r;
  });
  MQAdminClient admin(&t);
  auto stats = MergedConsumeStats(&admin, "G", std::string("T"));
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->offset_table.size(), 2u);
  EXPECT_EQ(TotalLag(*stats), 6);
  EXPECT_DOUBLE_EQ(stats->consume_tps, 1.5);
}

TEST(GroupOffsetsTest, MergedConsumeStatsReportsTheErrorWhenNoMasterAnswers) {
  FakeTransport t;
  AnswerRoute(t);
  t.On(rc::kGetConsumeStats, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kSystemError,
                                                   "consumer group not exist");
  });
  MQAdminClient admin(&t);
  auto stats = MergedConsumeStats(&admin, "G", std::string("T"));
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find("consumer group not exist"), std::string::npos);
}

TEST(GroupOffsetsTest, ResetFallsBackToCommittingSearchedOffsetsWhenNobodyIsOnline) {
  FakeTransport t;
  AnswerRoute(t);
  t.On(rc::kInvokeBrokerToResetOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kConsumerNotOnline, "not online");
  });
  t.On(rc::kQueryConsumerOffset, Offset(5));
  t.On(rc::kSearchOffsetByTimestamp, Offset(8));
  t.On(rc::kUpdateConsumerOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, 0);
  });
  MQAdminClient admin(&t);
  // Not forced: 8 is ahead of the committed 5, so the offsets stay at 5.
  auto kept = ResetGroupOffsetsByTime(&admin, "G", "T", 1000, false);
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  ASSERT_EQ(kept->size(), 2u);
  EXPECT_EQ((*kept)[1].offset, 5);
  auto forced = ResetGroupOffsetsByTime(&admin, "G", "T", 1000, true);
  ASSERT_TRUE(forced.ok());
  EXPECT_EQ((*forced)[0].offset, 8);
  EXPECT_EQ((*forced)[0].broker_name, "broker-a");
  EXPECT_EQ(t.CallsWithCode(rc::kUpdateConsumerOffset).size(), 4u);
}

TEST(GroupOffsetsTest, ResetPassesOtherRefusalsThrough) {
  FakeTransport t;
  AnswerRoute(t);
  t.On(rc::kInvokeBrokerToResetOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kNoPermission, "no");
  });
  MQAdminClient admin(&t);
  auto r = ResetGroupOffsetsByTime(&admin, "G", "T", 1000, true);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().Is(StatusCode::kPermissionDenied)) << r.status().ToString();
  EXPECT_TRUE(t.CallsWithCode(rc::kUpdateConsumerOffset).empty());
}

}  // namespace
}  // namespace apogee::admin
