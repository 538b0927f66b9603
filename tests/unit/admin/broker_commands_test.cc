#include "admin/broker_commands.h"

#include <gtest/gtest.h>

#include "command_test_util.h"
#include "protocol/consume_stats_list.h"
#include "protocol/kv_table.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;
using testing::CommandHarness;

TEST(BrokerCommandsTest, BrokerStatusPrintsSortedKeys) {
  CommandHarness h;
  protocol::KVTable kv;
  kv.table = {{"putTps", "1.0 2.0 3.0"}, {"brokerVersionDesc", "V4_9_4"}};
  h.transport().OnBody(rc::kGetBrokerRuntimeInfo, protocol::EncodeKVTable(kv));
  auto res = h.Run({"brokerStatus", "-b", "x:1"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_EQ(res.out,
            "brokerVersionDesc               : V4_9_4\n"
            "putTps                          : 1.0 2.0 3.0\n");
}

TEST(BrokerCommandsTest, GetAndUpdateBrokerConfig) {
  CommandHarness h;
  h.transport().OnBody(rc::kGetBrokerConfig, "brokerName=broker-a\nflushDiskType=ASYNC_FLUSH\n");
  auto get = h.Run({"getBrokerConfig", "-b", "x:1"});
  ASSERT_EQ(get.exit_code, 0) << get.err;
  EXPECT_NE(get.out.find("brokerName                                        =  broker-a\n"), std::string::npos)
      << get.out;
  h.transport().OnBody(rc::kUpdateBrokerConfig, "");
  auto upd = h.Run({"updateBrokerConfig", "-c", "DefaultCluster", "-k", "maxMessageSize", "-v", "1024"});
  ASSERT_EQ(upd.exit_code, 0) << upd.err;
  auto calls = h.transport().CallsWithCode(rc::kUpdateBrokerConfig);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].request.body, "maxMessageSize=1024\n");
  EXPECT_EQ(upd.out, "update broker config success, 10.0.0.1:10911\n");
}

TEST(BrokerCommandsTest, RefusedUpdateFails) {
  CommandHarness h;
  h.transport().On(rc::kUpdateBrokerConfig, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kNoPermission, "read only key");
  });
  auto res = h.Run({"updateBrokerConfig", "-b", "x:1", "-k", "brokerName", "-v", "b"});
  EXPECT_EQ(res.exit_code, 1);
  EXPECT_NE(res.err.find("x:1 answered NO_PERMISSION (16): read only key"), std::string::npos) << res.err;
}

TEST(BrokerCommandsTest, BrokerConsumeStatsPrintsJavasColumns) {
  CommandHarness h;
  protocol::ConsumeStats stats;
  stats.offset_table[protocol::MessageQueue{"T", "broker-a", 1}] = {9, 4, 4, 1700000000000};
  stats.offset_table[protocol::MessageQueue{"T", "broker-a", 0}] = {10, 10, 10, 1700000001000};
  stats.offset_table[protocol::MessageQueue{"T", "broker-a", 2}] = {3, 0, 0, 0};  // never consumed
  protocol::ConsumeStatsList list;
  list.broker_addr = "x:1";
  list.groups.emplace_back("g1", std::vector<protocol::ConsumeStats>{stats});
  list.total_diff = 8;
  h.transport().OnBody(rc::kGetBrokerConsumeStats, protocol::EncodeConsumeStatsList(list));

  auto res = h.Run({"brokerConsumeStats", "-b", "x:1"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  // Java's printf: "%-32s  %-32s  %-32s  %-4s  %-20s  %-20s  %-20s  %s" for the header,
  // the topic in 64 columns in the rows; queues in order, queue 2 (never consumed) left out.
  auto left = [](const std::string& v, size_t width) { return v + std::string(width - v.size(), ' '); };
  auto row = [&](const std::string& qid, const std::string& broker_offset, const std::string& consumer_offset,
                 const std::string& diff, int64_t last) {
    return left("T", 64) + "  " + left("g1", 32) + "  " + left("broker-a", 32) + "  " + left(qid, 4) + "  " +
           left(broker_offset, 20) + "  " + left(consumer_offset, 20) + "  " + left(diff, 20) + "  " +
           FormatDate(last) + "\n";
  };
  EXPECT_EQ(res.out, left("#Topic", 32) + "  " + left("#Group", 32) + "  " + left("#Broker Name", 32) + "  " +
                         left("#QID", 4) + "  " + left("#Broker Offset", 20) + "  " + left("#Consumer Offset", 20) +
                         "  " + left("#Diff", 20) + "  #LastTime\n" + row("0", "10", "10", "0", 1700000001000) +
                         row("1", "9", "4", "5", 1700000000000) + "\nDiff Total: 8\n");
  auto calls = h.transport().CallsWithCode(rc::kGetBrokerConsumeStats);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, "x:1");
  EXPECT_EQ(calls[0].request.ext_fields.Get("isOrder"), std::optional<std::string_view>("false"));

  // -l 1 hides queue 0 (no lag); -o TRUE asks for ordered topics only.
  res = h.Run({"brokerConsumeStats", "-b", "x:1", "-l", "1", "-o", "TRUE"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_EQ(res.out.find(FormatDate(1700000001000)), std::string::npos) << res.out;
  EXPECT_NE(res.out.find(FormatDate(1700000000000)), std::string::npos) << res.out;
  calls = h.transport().CallsWithCode(rc::kGetBrokerConsumeStats);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[1].request.ext_fields.Get("isOrder"), std::optional<std::string_view>("true"));

  EXPECT_EQ(h.Run({"brokerConsumeStats"}).exit_code, 1);  // -b is required
  EXPECT_EQ(h.Run({"brokerConsumeStats", "-b", "x:1", "-t", "0"}).exit_code, 1);
}

}  // namespace
}  // namespace apogee::admin
