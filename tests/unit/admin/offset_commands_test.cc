#include "admin/offset_commands.h"

#include <gtest/gtest.h>

#include "command_test_util.h"
#include "protocol/admin_bodies.h"
#include "protocol/admin_headers.h"
#include "protocol/client_headers.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;
using testing::CommandHarness;
using testing::kBrokerAddr;

TEST(OffsetCommandsTest, ResetOffsetByTimeAsksTheBroker) {
  CommandHarness h;
  h.transport().On(rc::kInvokeBrokerToResetOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    protocol::ResetOffsetBody body;
    body.offset_table[{"T", "broker-a", 0}] = 4;
    auto r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeResetOffsetBody(body);
    return r;
  });
  auto res = h.Run({"resetOffsetByTime", "-g", "G", "-t", "T", "-s", "1700000000000", "-f", "false"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  auto calls = h.transport().CallsWithCode(rc::kInvokeBrokerToResetOffset);
  ASSERT_EQ(calls.size(), 1u);
  auto header = protocol::HeaderFromExtFields<protocol::ResetOffsetRequestHeader>(calls[0].request.ext_fields);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->timestamp, 1700000000000);
  EXPECT_FALSE(header->is_force);
  EXPECT_NE(res.out.find("#brokerName"), std::string::npos);
  EXPECT_NE(res.out.find("broker-a"), std::string::npos);
}

TEST(OffsetCommandsTest, ResetOffsetOfflineGroupCommitsPerQueue) {
  CommandHarness h;
  h.transport().On(rc::kInvokeBrokerToResetOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kConsumerNotOnline, "offline");
  });
  auto offset_answer = [](int64_t value) {
    return [value](const std::string&, const protocol::RemotingCommand& req) {
      auto r = protocol::RemotingCommand::MakeResponse(req, 0);
      r.ext_fields.Set("offset", std::to_string(value));
      r.has_ext_fields = true;
      return r;
    };
  };
  h.transport().On(rc::kGetMaxOffset, offset_answer(10));
  h.transport().On(rc::kQueryConsumerOffset, offset_answer(8));
  h.transport().On(rc::kSearchOffsetByTimestamp, offset_answer(3));
  h.transport().OnBody(rc::kUpdateConsumerOffset, "");
  auto res = h.Run({"resetOffsetByTime", "-g", "G", "-t", "T", "-s", "5"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  auto updates = h.transport().CallsWithCode(rc::kUpdateConsumerOffset);
  ASSERT_EQ(updates.size(), 4u);  // the fake route has 4 queues
  EXPECT_EQ(updates[0].addr, kBrokerAddr);
  EXPECT_EQ(updates[0].request.ext_fields.Get("commitOffset"), std::optional<std::string_view>("3"));
  EXPECT_NE(res.out.find("#timestampOffset"), std::string::npos) << res.out;
}

TEST(OffsetCommandsTest, BadTimestampIsRejectedBeforeAnyRequest) {
  CommandHarness h;
  auto res = h.Run({"resetOffsetByTime", "-g", "G", "-t", "T", "-s", "soon"});
  EXPECT_EQ(res.exit_code, 1);
  EXPECT_NE(res.err.find("soon"), std::string::npos);
  EXPECT_TRUE(h.transport().calls().empty());
}

TEST(OffsetCommandsTest, CloneGroupOffset) {
  CommandHarness h;
  h.transport().OnBody(rc::kCloneGroupOffset, "");
  auto res = h.Run({"cloneGroupOffset", "-s", "A", "-d", "B", "-t", "T"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  auto calls = h.transport().CallsWithCode(rc::kCloneGroupOffset);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].request.ext_fields.Get("srcGroup"), std::optional<std::string_view>("A"));
  EXPECT_EQ(calls[0].request.ext_fields.Get("destGroup"), std::optional<std::string_view>("B"));
  EXPECT_NE(res.out.find("clone group offset success."), std::string::npos);
}

TEST(OffsetCommandsTest, RedriveDlqReportsCounts) {
  CommandHarness h;
  h.transport().On(rc::kApogeeRedriveDlqMessage, [](const std::string&, const protocol::RemotingCommand& req) {
    auto r = protocol::RemotingCommand::MakeResponse(req, 0);
    protocol::EncodeCustomHeader(protocol::RedriveDlqMessageResponseHeader{5, 1, 2, 8}, &r);
    return r;
  });
  auto res = h.Run({"redriveDlq", "-g", "G", "-b", "x:1", "-m", "10", "-t", "T"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  auto calls = h.transport().CallsWithCode(rc::kApogeeRedriveDlqMessage);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].request.ext_fields.Get("consumerGroup"), std::optional<std::string_view>("G"));
  EXPECT_EQ(calls[0].request.ext_fields.Get("maxCount"), std::optional<std::string_view>("10"));
  EXPECT_EQ(calls[0].request.ext_fields.Get("topic"), std::optional<std::string_view>("T"));
  EXPECT_NE(res.out.find("redrove 5 message(s) of %DLQ%G"), std::string::npos) << res.out;
  // Without -b the DLQ topic's route decides; the fake has none.
  auto no_dlq = h.Run({"redriveDlq", "-g", "G"});
  EXPECT_EQ(no_dlq.exit_code, 1);
  EXPECT_NE(no_dlq.err.find("has no dead-letter queue"), std::string::npos) << no_dlq.err;
  EXPECT_EQ(h.Run({"redriveDlq", "-g", "G", "-b", "x:1", "-m", "0"}).exit_code, 1);
}

}  // namespace
}  // namespace apogee::admin
