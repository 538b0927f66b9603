#include "admin/consumer_commands.h"

#include <gtest/gtest.h>

#include "command_test_util.h"
#include "protocol/admin_bodies.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;
using testing::CommandHarness;

TEST(ConsumerCommandsTest, ConsumerProgressShowsLagPerQueueAndTotals) {
  CommandHarness h;
  protocol::ConsumeStats stats;
  stats.offset_table[{"T", "broker-a", 0}] = {10, 7, 9, 0};
  stats.offset_table[{"T", "broker-a", 1}] = {5, 5, 5, 1700000000000};
  stats.consume_tps = 2.5;
  h.transport().OnBody(rc::kGetConsumeStats, protocol::EncodeConsumeStats(stats));
  auto res = h.Run({"consumerProgress", "-g", "G"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_NE(res.out.find("#Topic"), std::string::npos);
  EXPECT_NE(res.out.find("#Diff"), std::string::npos);
  // queue 0: broker 10, consumer 7 -> diff 3, inflight 2, never consumed -> N/A
  EXPECT_NE(res.out.find("0     10                    7                     3                    2"),
            std::string::npos)
      << res.out;
  EXPECT_NE(res.out.find("N/A"), std::string::npos);
  EXPECT_NE(res.out.find("Consume TPS: 2.50"), std::string::npos);
  EXPECT_NE(res.out.find("Consume Diff Total: 3"), std::string::npos);
  EXPECT_NE(res.out.find("Consume Inflight Total: 2"), std::string::npos);
  // No retry topic route in the fake: every master was asked.
  EXPECT_EQ(h.transport().CallsWithCode(rc::kGetConsumeStats).size(), 1u);
}

TEST(ConsumerCommandsTest, UpdateSubGroupSendsSettingsJson) {
  CommandHarness h;
  h.transport().OnBody(rc::kUpdateAndCreateSubscriptiongroup, "");
  auto res = h.Run({"updateSubGroup", "-b", "x:1", "-g", "G", "-r", "3", "-s", "false"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  auto calls = h.transport().CallsWithCode(rc::kUpdateAndCreateSubscriptiongroup);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, "x:1");
  EXPECT_NE(calls[0].request.body.find("\"groupName\":\"G\""), std::string::npos);
  EXPECT_NE(calls[0].request.body.find("\"retryMaxTimes\":3"), std::string::npos);
  EXPECT_NE(calls[0].request.body.find("\"consumeEnable\":false"), std::string::npos);
  EXPECT_NE(res.out.find("create subscription group to x:1 success."), std::string::npos);
}

TEST(ConsumerCommandsTest, ConsumerConnectionTable) {
  CommandHarness h;
  protocol::ConsumerConnection cc;
  cc.connection_set.push_back({"10.0.0.9@1", "10.0.0.9:5555", protocol::LanguageCode::kJava, 401});
  protocol::SubscriptionData sd;
  sd.topic = "T";
  sd.sub_string = "*";
  cc.subscription_table["T"] = sd;
  h.transport().OnBody(rc::kGetConsumerConnectionList, protocol::EncodeConsumerConnection(cc));
  auto res = h.Run({"consumerConnection", "-g", "G"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_NE(res.out.find("10.0.0.9@1"), std::string::npos);
  EXPECT_NE(res.out.find("V4_9_4"), std::string::npos);
  EXPECT_NE(res.out.find("Below is subscription:"), std::string::npos);
  EXPECT_NE(res.out.find("MessageModel: CLUSTERING"), std::string::npos) << res.out;
}

TEST(ConsumerCommandsTest, ProducerConnectionNumbersRows) {
  CommandHarness h;
  protocol::ProducerConnection pc;
  pc.connection_set.push_back({"p@1", "10.0.0.8:1", protocol::LanguageCode::kCpp, 333});
  h.transport().OnBody(rc::kGetProducerConnectionList, protocol::EncodeProducerConnection(pc));
  auto res = h.Run({"producerConnection", "-g", "PG", "-t", "T"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_EQ(res.out.substr(0, 6), "0001  ");
  EXPECT_NE(res.out.find("CPP"), std::string::npos);
  EXPECT_NE(res.out.find("V4_6_0"), std::string::npos);
}

TEST(ConsumerCommandsTest, VersionDesc) {
  EXPECT_EQ(VersionDesc(401), "V4_9_4");
  EXPECT_EQ(VersionDesc(12), "V12");
}

}  // namespace
}  // namespace apogee::admin
