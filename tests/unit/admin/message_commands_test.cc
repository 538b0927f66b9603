#include "admin/message_commands.h"

#include <gtest/gtest.h>

#include "command_test_util.h"
#include "message/message_format.h"
#include "message/message_id.h"
#include "message/message_record.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;
using testing::CommandHarness;
using testing::kBrokerAddr;

std::string Record(int32_t queue_id, int64_t queue_offset, int64_t phy, const std::string& keys,
                   const std::string& uniq, const std::string& body) {
  message::MessageProperties props;
  if (!keys.empty()) {
    EXPECT_TRUE(props.Set(message::kPropertyKeys, keys).ok());
  }
  EXPECT_TRUE(props.Set(message::kPropertyUniqClientMessageIdKeyIdx, uniq).ok());
  std::string encoded = props.Encode();
  message::RecordFields f;
  f.queue_id = queue_id;
  f.queue_offset = queue_offset;
  f.physical_offset = phy;
  f.born_timestamp = 1700000000000;
  f.store_timestamp = 1700000000001;
  f.born_host = message::HostAddress::IPv4(10, 0, 0, 9, 5555);
  f.store_host = message::HostAddress::IPv4(10, 0, 0, 1, 10911);
  f.topic = "T";
  f.body = body;
  f.properties = encoded;
  return *message::EncodeRecordToString(f);
}

TEST(MessageCommandsTest, QueryMsgByKeyKeepsOnlyExactKeyMatches) {
  CommandHarness h;
  h.transport().OnBody(rc::kQueryMessage, Record(1, 5, 0, "K1 other", "AAAA", "x") +
                                              Record(2, 6, 100, "K1x", "BBBB", "y"));
  auto res = h.Run({"queryMsgByKey", "-t", "T", "-k", "K1"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_NE(res.out.find("AAAA"), std::string::npos) << res.out;
  EXPECT_EQ(res.out.find("BBBB"), std::string::npos) << res.out;
  auto calls = h.transport().CallsWithCode(rc::kQueryMessage);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, kBrokerAddr);
  EXPECT_EQ(calls[0].request.ext_fields.Get("_UNIQUE_KEY_QUERY"), std::optional<std::string_view>("false"));
  EXPECT_EQ(calls[0].request.ext_fields.Get("maxNum"), std::optional<std::string_view>("64"));
}

TEST(MessageCommandsTest, QueryMsgByIdWithAnOffsetIdAsksTheStoreHost) {
  CommandHarness h;
  h.transport().OnBody(rc::kViewMessageById, Record(0, 3, 4096, "K", "CCCC", "hello"));
  std::string id = message::CreateOffsetMsgId(message::HostAddress::IPv4(10, 0, 0, 1, 10911), 4096);
  auto res = h.Run({"queryMsgById", "-i", id});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  auto calls = h.transport().CallsWithCode(rc::kViewMessageById);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, "10.0.0.1:10911");
  EXPECT_EQ(calls[0].request.ext_fields.Get("offset"), std::optional<std::string_view>("4096"));
  EXPECT_NE(res.out.find("Topic:               T\n"), std::string::npos) << res.out;
  EXPECT_NE(res.out.find("Queue Offset:        3\n"), std::string::npos);
  EXPECT_NE(res.out.find("Message Body:        hello\n"), std::string::npos);
}

TEST(MessageCommandsTest, QueryMsgByIdFallsBackToTheClientIdIndex) {
  CommandHarness h;
  h.transport().On(rc::kViewMessageById, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kSystemError, "bad offset");
  });
  const std::string uniq = "0A00000900002A9F0000000000000001";
  h.transport().OnBody(rc::kQueryMessage, Record(0, 3, 4096, "", uniq, "by-uniq"));
  auto no_topic = h.Run({"queryMsgById", "-i", "nothex"});
  EXPECT_EQ(no_topic.exit_code, 1);
  EXPECT_NE(no_topic.err.find("-t"), std::string::npos) << no_topic.err;
  auto res = h.Run({"queryMsgById", "-i", uniq, "-t", "T"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_NE(res.out.find("by-uniq"), std::string::npos);
  auto q = h.transport().CallsWithCode(rc::kQueryMessage);
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0].request.ext_fields.Get("_UNIQUE_KEY_QUERY"), std::optional<std::string_view>("true"));
}

TEST(MessageCommandsTest, ConsumeMessageWithGroupCommitsWhatItRead) {
  CommandHarness h;
  auto offset_answer = [](int64_t value) {
    return [value](const std::string&, const protocol::RemotingCommand& req) {
      auto r = protocol::RemotingCommand::MakeResponse(req, 0);
      r.ext_fields.Set("offset", std::to_string(value));
      r.has_ext_fields = true;
      return r;
    };
  };
  h.transport().On(rc::kQueryConsumerOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kQueryNotFound);
  });
  h.transport().On(rc::kGetMinOffset, offset_answer(0));
  h.transport().On(rc::kGetMaxOffset, [](const std::string&, const protocol::RemotingCommand& req) {
    auto r = protocol::RemotingCommand::MakeResponse(req, 0);
    bool q0 = req.ext_fields.Get("queueId") == std::optional<std::string_view>("0");
    r.ext_fields.Set("offset", q0 ? "2" : "0");
    r.has_ext_fields = true;
    return r;
  });
  h.transport().On(rc::kPullMessage, [](const std::string&, const protocol::RemotingCommand& req) {
    auto r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = Record(0, 0, 0, "", "U0", "m0") + Record(0, 1, 200, "", "U1", "m1");
    r.ext_fields.Set("nextBeginOffset", "2");
    r.ext_fields.Set("suggestWhichBrokerId", "0");
    r.ext_fields.Set("minOffset", "0");
    r.ext_fields.Set("maxOffset", "2");
    r.has_ext_fields = true;
    return r;
  });
  h.transport().OnBody(rc::kUpdateConsumerOffset, "");
  auto res = h.Run({"consumeMessage", "-t", "T", "-g", "G"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_NE(res.out.find("BODY: m0"), std::string::npos) << res.out;
  EXPECT_NE(res.out.find("BODY: m1"), std::string::npos);
  auto pulls = h.transport().CallsWithCode(rc::kPullMessage);
  ASSERT_EQ(pulls.size(), 1u);  // only queue 0 has messages
  EXPECT_EQ(pulls[0].request.ext_fields.Get("sysFlag"), std::optional<std::string_view>("4"));
  auto commits = h.transport().CallsWithCode(rc::kUpdateConsumerOffset);
  ASSERT_EQ(commits.size(), 1u);
  EXPECT_EQ(commits[0].request.ext_fields.Get("commitOffset"), std::optional<std::string_view>("2"));
}

TEST(MessageCommandsTest, SendMessageNeedsBrokerWithQueue) {
  CommandHarness h;
  auto res = h.Run({"sendMessage", "-t", "T", "-p", "x", "-i", "1"});
  EXPECT_EQ(res.exit_code, 1);
  EXPECT_NE(res.err.find("Broker name must be set"), std::string::npos) << res.err;
}

}  // namespace
}  // namespace apogee::admin
