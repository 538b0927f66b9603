#include "broker/processors/send_message_back_processor.h"

#include <gtest/gtest.h>

#include "broker/processors/send_message_processor.h"
#include "message/message.h"
#include "message/message_id.h"
#include "message/message_record.h"
#include "protocol/response_code.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
using testing::BrokerHarness;
using testing::Call;
using testing::Ext;
using testing::SendRequest;

SendMessageBackProcessor::Deps BackDeps(const BrokerHarness& h) {
  return {h.config.get(), h.store.get(), h.groups.get(), h.topics.get(), h.context.stats.get()};
}

class SendMessageBackProcessorTest : public ::testing::Test {
 protected:
  SendMessageBackProcessorTest() : sender_(harness_.SendDeps()), back_(BackDeps(harness_)) {
    harness_.AddTopic("T", 4);
    SubscriptionGroupConfig g;
    g.group_name = "cg";
    g.retry_max_times = 2;
    EXPECT_TRUE(harness_.groups->UpdateSubscriptionGroupConfig(g).ok());
  }

  // Sends a message to T and returns its CommitLog offset.
  int64_t SendOriginal(const std::string& body) {
    auto r = Call(sender_, SendRequest("T", 1, body, "TagA"));
    EXPECT_TRUE(r && r->code == rc::kSuccess);
    return message::ParseOffsetMsgId(Ext(*r, "msgId"))->physical_offset;
  }

  protocol::RemotingCommand BackRequest(int64_t offset, int32_t delay_level,
                                        std::optional<int32_t> max = std::nullopt,
                                        std::string group = "cg") {
    protocol::ConsumerSendMsgBackRequestHeader h;
    h.offset = offset;
    h.group = std::move(group);
    h.delay_level = delay_level;
    h.origin_topic = "T";
    h.max_reconsume_times = max;
    protocol::RemotingCommand request = protocol::RemotingCommand::MakeRequest(36);
    request.version = 401;
    protocol::EncodeCustomHeader(h, &request);
    return request;
  }

  // The newest message of (topic, queue).
  message::MessageExt Last(const std::string& topic, int32_t queue_id) {
    harness_.WaitDispatched();
    const int64_t max = harness_.store->GetMaxOffsetInQueue(topic, queue_id);
    store::GetMessageResult r = harness_.store->GetMessages(topic, queue_id, max - 1, 1, 1 << 20);
    EXPECT_EQ(r.messages.size(), 1u) << topic << " " << queue_id;
    if (r.messages.empty()) return {};
    auto d = message::DecodeRecord(r.messages[0].data, static_cast<size_t>(r.messages[0].size));
    return *message::ToMessageExt(d.record);
  }

  BrokerHarness harness_;
  SendMessageProcessor sender_;
  SendMessageBackProcessor back_;
};

TEST_F(SendMessageBackProcessorTest, FirstFailureWaitsInLevelThreeForTheRetryTopic) {
  const int64_t offset = SendOriginal("payload");
  auto r = Call(back_, BackRequest(offset, 0));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  auto retry = harness_.topics->SelectTopicConfig("%RETRY%cg");
  ASSERT_TRUE(retry);
  EXPECT_EQ(retry->perm, protocol::kPermRead | protocol::kPermWrite);

  message::MessageExt m = Last("SCHEDULE_TOPIC_XXXX", 2);  // level 3 = 3 + 0 reconsumes
  EXPECT_EQ(m.body, "payload");
  EXPECT_EQ(m.reconsume_times, 1);
  EXPECT_EQ(m.properties.Get("DELAY"), "3");
  EXPECT_EQ(m.properties.Get("REAL_TOPIC"), "%RETRY%cg");
  EXPECT_EQ(m.properties.Get("RETRY_TOPIC"), "T");
  EXPECT_EQ(m.properties.Get("TAGS"), "TagA");
  EXPECT_EQ(m.properties.Get("WAIT"), "false");
  EXPECT_EQ(m.properties.Get("ORIGIN_MESSAGE_ID"),
            message::CreateOffsetMsgId(message::HostAddress::IPv4(127, 0, 0, 1, 10911), offset));
  EXPECT_EQ(m.born_timestamp, 1700000000000);

  // Its second failure (reconsumeTimes 1) waits one level more and keeps the origin id.
  auto r2 = Call(back_, BackRequest(m.commit_log_offset, 0));
  ASSERT_TRUE(r2);
  ASSERT_EQ(r2->code, rc::kSuccess);
  message::MessageExt m2 = Last("SCHEDULE_TOPIC_XXXX", 3);
  EXPECT_EQ(m2.reconsume_times, 2);
  EXPECT_EQ(m2.properties.Get("ORIGIN_MESSAGE_ID"), m.properties.Get("ORIGIN_MESSAGE_ID"));
  EXPECT_EQ(m2.properties.Get("RETRY_TOPIC"), "T");
}

TEST_F(SendMessageBackProcessorTest, AskedLevelIsUsed) {
  const int64_t offset = SendOriginal("x");
  auto r = Call(back_, BackRequest(offset, 1));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Last("SCHEDULE_TOPIC_XXXX", 0).properties.Get("DELAY"), "1");
}

TEST_F(SendMessageBackProcessorTest, MaxReconsumeTimesOrNegativeLevelGoesToTheDlq) {
  const int64_t offset = SendOriginal("doomed");
  auto r = Call(back_, BackRequest(offset, -1));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  auto dlq = harness_.topics->SelectTopicConfig("%DLQ%cg");
  ASSERT_TRUE(dlq);
  EXPECT_EQ(dlq->perm, protocol::kPermWrite);
  EXPECT_EQ(dlq->write_queue_nums, 1);
  message::MessageExt m = Last("%DLQ%cg", 0);
  EXPECT_EQ(m.body, "doomed");
  EXPECT_FALSE(m.properties.Has("DELAY"));
  EXPECT_EQ(m.reconsume_times, 1);

  // The header's maxReconsumeTimes (version >= V3_4_9): 0 reconsumes >= max 0.
  const int64_t second = SendOriginal("also doomed");
  r = Call(back_, BackRequest(second, 0, 0));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Last("%DLQ%cg", 0).body, "also doomed");
}

TEST_F(SendMessageBackProcessorTest, GroupRetryMaxTimesWhenTheHeaderHasNone) {
  const int64_t offset = SendOriginal("m");
  // Two send-backs (group retryMaxTimes 2) reach reconsumeTimes 2 ...
  ASSERT_EQ(Call(back_, BackRequest(offset, 1))->code, rc::kSuccess);
  int64_t next = Last("SCHEDULE_TOPIC_XXXX", 0).commit_log_offset;
  ASSERT_EQ(Call(back_, BackRequest(next, 1))->code, rc::kSuccess);
  next = Last("SCHEDULE_TOPIC_XXXX", 0).commit_log_offset;
  // ... so the third goes to the DLQ.
  ASSERT_EQ(Call(back_, BackRequest(next, 1))->code, rc::kSuccess);
  message::MessageExt m = Last("%DLQ%cg", 0);
  EXPECT_EQ(m.reconsume_times, 3);
}

TEST_F(SendMessageBackProcessorTest, Refusals) {
  auto r = Call(back_, BackRequest(987654321, 0));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSystemError);
  EXPECT_NE(r->remark.value_or("").find("look message by offset failed, 987654321"),
            std::string::npos)
      << r->remark.value_or("");

  SubscriptionGroupConfig none;
  none.group_name = "noretry";
  none.retry_queue_nums = 0;
  ASSERT_TRUE(harness_.groups->UpdateSubscriptionGroupConfig(none).ok());
  r = Call(back_, BackRequest(SendOriginal("y"), 0, std::nullopt, "noretry"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);  // dropped, as Java
  EXPECT_FALSE(harness_.topics->ContainsTopic("%RETRY%noretry"));

  protocol::RemotingCommand bad = BackRequest(0, 0);
  bad.ext_fields.Set("offset", "not-a-number");
  r = Call(back_, std::move(bad));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSystemError);
  EXPECT_NE(r->remark.value_or("").find("malformed"), std::string::npos);
}

class SendMessageBackStrictTest : public ::testing::Test {
 protected:
  static BrokerSettings Settings() {
    BrokerSettings s = testing::TestSettings();
    s.auto_create_subscription_group = false;
    return s;
  }
  BrokerHarness harness_{Settings()};
  SendMessageBackProcessor back_{BackDeps(harness_)};
};

TEST_F(SendMessageBackStrictTest, UnknownGroupIsRefused) {
  protocol::ConsumerSendMsgBackRequestHeader h;
  h.offset = 0;
  h.group = "ghost";
  protocol::RemotingCommand request = protocol::RemotingCommand::MakeRequest(36);
  protocol::EncodeCustomHeader(h, &request);
  auto r = Call(back_, std::move(request));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSubscriptionGroupNotExist);
  EXPECT_NE(r->remark.value_or("").find("ghost"), std::string::npos);
}

}  // namespace
}  // namespace apogee::broker
