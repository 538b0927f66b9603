#include "admin/namesrv_commands.h"

#include <gtest/gtest.h>

#include "command_test_util.h"
#include "protocol/namesrv_headers.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;
using testing::CommandHarness;

TEST(NamesrvCommandsTest, KvConfigGoesToEveryNameServer) {
  CommandHarness h;
  h.transport().OnBody(rc::kPutKvConfig, "");
  h.transport().OnBody(rc::kDeleteKvConfig, "");
  auto put = h.Run({"updateKvConfig", "-s", "NS", "-k", "K", "-v", "V"});
  ASSERT_EQ(put.exit_code, 0) << put.err;
  EXPECT_EQ(put.out, "create or update kv config to namespace success.\n");
  auto calls = h.transport().CallsWithCode(rc::kPutKvConfig);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, "ns1:9876");
  EXPECT_EQ(calls[0].request.ext_fields.Get("namespace"), std::optional<std::string_view>("NS"));
  EXPECT_EQ(calls[0].request.ext_fields.Get("value"), std::optional<std::string_view>("V"));
  auto del = h.Run({"deleteKvConfig", "-s", "NS", "-k", "K"});
  ASSERT_EQ(del.exit_code, 0) << del.err;
  EXPECT_EQ(del.out, "delete kv config from namespace success.\n");
}

TEST(NamesrvCommandsTest, WipeAndAddWritePermReportCounts) {
  CommandHarness h;
  h.transport().On(rc::kWipeWritePermOfBroker, [](const std::string&, const protocol::RemotingCommand& req) {
    auto r = protocol::RemotingCommand::MakeResponse(req, 0);
    protocol::EncodeCustomHeader(protocol::WipeWritePermOfBrokerResponseHeader{3}, &r);
    return r;
  });
  auto wipe = h.Run({"wipeWritePerm", "-b", "broker-a"});
  ASSERT_EQ(wipe.exit_code, 0) << wipe.err;
  EXPECT_EQ(wipe.out, "wipe write perm of broker[broker-a] in name server[ns1:9876] OK, 3\n");
  // addWritePerm has no fake handler: the failure is printed and the exit code is 1.
  auto add = h.Run({"addWritePerm", "-b", "broker-a"});
  EXPECT_EQ(add.exit_code, 1);
  EXPECT_EQ(add.out, "add write perm of broker[broker-a] in name server[ns1:9876] Failed\n");
  EXPECT_NE(add.err.find("REQUEST_CODE_NOT_SUPPORTED"), std::string::npos) << add.err;
}

}  // namespace
}  // namespace apogee::admin
