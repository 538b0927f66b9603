#include "admin/message_resend.h"

#include <gtest/gtest.h>

#include "fake_transport.h"
#include "protocol/request_code.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;

TEST(MessageResendTest, SendsTheRecordBackToTheGroupWithDelayLevelOne) {
  testing::FakeTransport t;
  t.On(rc::kConsumerSendMsgBack, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, 0);
  });
  MQAdminClient admin(&t);
  message::MessageExt msg;
  msg.topic = "Orders";
  msg.commit_log_offset = 777;
  msg.offset_msg_id = "OFFSETID";
  ASSERT_TRUE(ResendToGroup(&admin, "10.0.0.1:10911", msg, "G").ok());
  auto calls = t.CallsWithCode(rc::kConsumerSendMsgBack);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, "10.0.0.1:10911");
  const auto& f = calls[0].request.ext_fields;
  EXPECT_EQ(f.Get("offset"), std::optional<std::string_view>("777"));
  EXPECT_EQ(f.Get("delayLevel"), std::optional<std::string_view>("1"));
  EXPECT_EQ(f.Get("originTopic"), std::optional<std::string_view>("Orders"));
  EXPECT_EQ(f.Get("originMsgId"), std::optional<std::string_view>("OFFSETID"));  // no UNIQ_KEY: the offset id
  EXPECT_FALSE(f.Get("maxReconsumeTimes").has_value());  // the group's retryMaxTimes applies
}

TEST(MessageResendTest, RefusalCarriesTheRemarkAndAnEmptyGroupIsRefusedLocally) {
  testing::FakeTransport t;
  t.On(rc::kConsumerSendMsgBack, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kSubscriptionGroupNotExist,
                                                   "subscription group not exist, G");
  });
  MQAdminClient admin(&t);
  message::MessageExt msg;
  Status s = ResendToGroup(&admin, "10.0.0.1:10911", msg, "G");
  EXPECT_NE(s.message().find("subscription group not exist, G"), std::string::npos) << s.ToString();
  EXPECT_TRUE(ResendToGroup(&admin, "10.0.0.1:10911", msg, "").Is(StatusCode::kInvalidArgument));
  EXPECT_EQ(t.calls().size(), 1u);
}

}  // namespace
}  // namespace apogee::admin
