#include "admin/broker_commands.h"

#include <gtest/gtest.h>

#include "command_test_util.h"
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

}  // namespace
}  // namespace apogee::admin
