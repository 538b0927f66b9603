#include "broker/processors/send_message_processor.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "message/batch.h"
#include "message/message.h"
#include "message/message_format.h"
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
using testing::TestSettings;

class SendMessageProcessorTest : public ::testing::Test {
 protected:
  explicit SendMessageProcessorTest(BrokerSettings settings = TestSettings())
      : harness_(settings), processor_(harness_.SendDeps()) {}

  // The stored message at (topic, queue, offset).
  message::MessageExt Stored(const std::string& topic, int32_t queue_id, int64_t offset) {
    harness_.WaitDispatched();
    store::GetMessageResult r = harness_.store->GetMessages(topic, queue_id, offset, 1, 1 << 20);
    EXPECT_EQ(r.status, store::GetStatus::kFound);
    if (r.messages.empty()) return {};
    auto d = message::DecodeRecord(r.messages[0].data, r.messages[0].size);
    auto ext = message::ToMessageExt(d.record);
    EXPECT_TRUE(ext.ok());
    return *ext;
  }

  BrokerHarness harness_;
  SendMessageProcessor processor_;
};

TEST_F(SendMessageProcessorTest, SendV2StoresAndAnswersEveryHeaderField) {
  harness_.AddTopic("T", 4);
  auto r = Call(processor_, SendRequest("T", 2, "hello", "TagA"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  EXPECT_TRUE(r->IsResponse());
  EXPECT_EQ(r->opaque, 7);
  EXPECT_EQ(Ext(*r, "queueId"), "2");
  EXPECT_EQ(Ext(*r, "queueOffset"), "0");
  EXPECT_EQ(Ext(*r, "transactionId"),
            "7F0000010001000000000000000"
            "12");
  EXPECT_EQ(Ext(*r, "MSG_REGION"), "DefaultRegion");
  EXPECT_EQ(Ext(*r, "TRACE_ON"), "true");
  auto id = message::ParseOffsetMsgId(Ext(*r, "msgId"));
  ASSERT_TRUE(id.ok()) << Ext(*r, "msgId");
  EXPECT_EQ(id->store_host.ToString(), "127.0.0.1:10911");
  EXPECT_EQ(id->physical_offset, 0);

  message::MessageExt m = Stored("T", 2, 0);
  EXPECT_EQ(m.body, "hello");
  EXPECT_EQ(m.properties.Get("TAGS"), "TagA");
  EXPECT_EQ(m.properties.Get("CLUSTER"), "TestCluster");
  EXPECT_EQ(m.born_host.ToString(), "127.0.0.1:50123");

  // A second send gets the next queue offset and a later physical offset.
  auto r2 = Call(processor_, SendRequest("T", 2, "again"));
  ASSERT_TRUE(r2);
  EXPECT_EQ(Ext(*r2, "queueOffset"), "1");
  EXPECT_GT(message::ParseOffsetMsgId(Ext(*r2, "msgId"))->physical_offset, 0);
}

TEST_F(SendMessageProcessorTest, SendV1HeaderWorksToo) {
  harness_.AddTopic("T", 4);
  auto r = Call(processor_, SendRequest("T", 1, "v1", "", /*code=*/10));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  EXPECT_EQ(Stored("T", 1, 0).body, "v1");
}

TEST_F(SendMessageProcessorTest, GeneratesUniqKeyWhenAbsent) {
  harness_.AddTopic("T", 1);
  protocol::RemotingCommand request = SendRequest("T", 0, "x");
  request.ext_fields.Set("i", "TAGS\x01t\x02");
  auto r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Ext(*r, "transactionId").size(), 32u);
  EXPECT_EQ(Stored("T", 0, 0).properties.Get("UNIQ_KEY"), Ext(*r, "transactionId"));
}

TEST_F(SendMessageProcessorTest, NegativeQueueIdPicksAWritableQueue) {
  harness_.AddTopic("T", 3);
  for (int i = 0; i < 10; ++i) {
    auto r = Call(processor_, SendRequest("T", -1, "x"));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->code, rc::kSuccess);
    const int q = std::stoi(Ext(*r, "queueId"));
    EXPECT_GE(q, 0);
    EXPECT_LT(q, 3);
  }
}

TEST_F(SendMessageProcessorTest, UnknownTopicIsCreatedFromTbw102) {
  auto r = Call(processor_, SendRequest("NewTopic", 0, "x"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  auto created = harness_.topics->SelectTopicConfig("NewTopic");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->write_queue_nums, 4);  // min(client's 4, TBW102's 8)
}

TEST_F(SendMessageProcessorTest, QueueIdBeyondTheTopicIsInvalid) {
  harness_.AddTopic("T", 4);
  auto r = Call(processor_, SendRequest("T", 4, "x"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kInvalidParameter);
  EXPECT_NE(r->remark->find("queueId[4]"), std::string::npos) << *r->remark;
  EXPECT_EQ(Ext(*r, "MSG_REGION"), "DefaultRegion");  // present on refusals too
}

TEST_F(SendMessageProcessorTest, IllegalTopicNameIsInvalid) {
  auto r = Call(processor_, SendRequest("bad topic!", 0, "x"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kInvalidParameter);
  EXPECT_NE(r->remark->find("bad topic!"), std::string::npos);
  r = Call(processor_, SendRequest(std::string(128, 'a'), 0, "x"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kInvalidParameter);
}

TEST_F(SendMessageProcessorTest, BrokerOnlyTopicsAreForbidden) {
  auto r = Call(processor_, SendRequest("SCHEDULE_TOPIC_XXXX", 0, "x"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kNoPermission);
  EXPECT_NE(r->remark->find("SCHEDULE_TOPIC_XXXX"), std::string::npos);
}

// Java's NOT_ALLOWED_SEND_TOPIC_SET plus every rmq_sys_ topic (the timer topic's
// REAL_TOPIC and TIMER_OUT_MS are trusted later), with Java's code and remark; the trace
// topic and BenchmarkTest stay open.
TEST_F(SendMessageProcessorTest, SystemTopicsOnlyTheBrokerWritesAreForbidden) {
  for (const char* topic :
       {"SCHEDULE_TOPIC_XXXX", "SCHEDULE_TOPIC_XXXX_V2", "RMQ_SYS_TRANS_HALF_TOPIC",
        "RMQ_SYS_TRANS_OP_HALF_TOPIC", "TRANS_CHECK_MAX_TIME_TOPIC", "SELF_TEST_TOPIC",
        "OFFSET_MOVED_EVENT", "rmq_sys_wheel_timer", "rmq_sys_anything"}) {
    auto r = Call(processor_, SendRequest(topic, 0, "x"));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, rc::kNoPermission) << topic;
    EXPECT_EQ(r->remark.value_or(""),
              std::string("Sending message to topic[") + topic + "] is forbidden.");
  }
  for (const char* topic : {"RMQ_SYS_TRACE_TOPIC", "BenchmarkTest"}) {
    auto r = Call(processor_, SendRequest(topic, 0, "x"));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, rc::kSuccess) << topic << ": " << r->remark.value_or("");
  }
  auto tbw = Call(processor_, SendRequest("TBW102", 0, "x"));
  ASSERT_TRUE(tbw);
  EXPECT_NE(tbw->code, rc::kSuccess);
}

// A sysFlag the store would keep but never deliver (negative, unknown bits, ROLLBACK) is
// refused instead of acknowledged.
TEST_F(SendMessageProcessorTest, InvalidSysFlagIsIllegal) {
  harness_.AddTopic("T", 1);
  for (const char* flag : {"-1", "12", "4096", "-2147483648"}) {
    protocol::RemotingCommand request = SendRequest("T", 0, "x");
    request.ext_fields.Set("f", flag);
    auto r = Call(processor_, std::move(request));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, rc::kMessageIllegal) << flag;
    EXPECT_NE(r->remark.value_or("").find("sysFlag"), std::string::npos) << *r->remark;
  }
  protocol::RemotingCommand ok = SendRequest("T", 0, "x");
  ok.ext_fields.Set("f", "2");  // MULTI_TAGS
  auto r = Call(processor_, std::move(ok));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
}

TEST_F(SendMessageProcessorTest, ReadOnlyTopicHasNoPermission) {
  harness_.AddTopic("RO", 2, protocol::kPermRead);
  auto r = Call(processor_, SendRequest("RO", 0, "x"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kNoPermission);
  EXPECT_NE(r->remark->find("RO"), std::string::npos);
}

TEST_F(SendMessageProcessorTest, BodyAboveMaxMessageSizeIsIllegal) {
  harness_.AddTopic("T", 1);
  auto r = Call(processor_, SendRequest("T", 0, std::string(64 * 1024 + 1, 'x')));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kMessageIllegal);
  EXPECT_NE(r->remark->find("65536"), std::string::npos) << *r->remark;
  auto ok = Call(processor_, SendRequest("T", 0, std::string(64 * 1024, 'x')));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->code, rc::kSuccess);
}

TEST_F(SendMessageProcessorTest, MalformedHeaderNamesTheField) {
  protocol::RemotingCommand request = SendRequest("T", 0, "x");
  request.ext_fields.Erase("b");
  auto r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSystemError);
  EXPECT_NE(r->remark->find("b"), std::string::npos);
  request = SendRequest("T", 0, "x");
  request.ext_fields.Set("e", "not-a-number");
  r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSystemError);
}

TEST_F(SendMessageProcessorTest, StoreRefusingWritesIsServiceNotAvailable) {
  harness_.AddTopic("T", 1);
  harness_.store->Shutdown();
  auto r = Call(processor_, SendRequest("T", 0, "x"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kServiceNotAvailable);
  EXPECT_FALSE(r->remark.value_or("").empty());
  EXPECT_EQ(Ext(*r, "msgId"), "<absent>");
}

TEST_F(SendMessageProcessorTest, BatchByHeaderFlagStoresEveryMessage) {
  harness_.AddTopic("T", 2);
  std::vector<message::Message> msgs;
  for (int i = 0; i < 3; ++i) {
    message::Message m;
    m.topic = "T";
    m.body = "b" + std::to_string(i);
    (void)m.properties.Set("UNIQ_KEY", "ID" + std::to_string(i));
    msgs.push_back(m);
  }
  auto body = message::EncodeBatchBody(msgs);
  ASSERT_TRUE(body.ok());
  // The C++ client's form: code 310 with m=true.
  protocol::RemotingCommand request = SendRequest("T", 1, *body);
  request.ext_fields.Set("m", "true");
  auto r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  EXPECT_EQ(Ext(*r, "queueOffset"), "0");
  const std::string ids = Ext(*r, "msgId");
  EXPECT_EQ(std::count(ids.begin(), ids.end(), ','), 2);
  std::vector<std::string> id_list;
  for (size_t start = 0;;) {
    const size_t comma = ids.find(',', start);
    id_list.push_back(ids.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  ASSERT_EQ(id_list.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    message::MessageExt m = Stored("T", 1, i);
    EXPECT_EQ(m.body, "b" + std::to_string(i));
    EXPECT_EQ(m.offset_msg_id, id_list[i]);  // every id names its own record
    EXPECT_EQ(m.properties.Get("UNIQ_KEY"), "ID" + std::to_string(i));
    EXPECT_EQ(m.properties.Get("CLUSTER"), "TestCluster");
  }
}

TEST_F(SendMessageProcessorTest, BatchToRetryTopicAndMalformedBatchAreIllegal) {
  protocol::RemotingCommand request = SendRequest("%RETRY%g", 0, "garbage");
  request.ext_fields.Set("m", "true");
  auto r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kMessageIllegal);
  EXPECT_NE(r->remark->find("retry"), std::string::npos);

  harness_.AddTopic("T", 1);
  request = SendRequest("T", 0, "garbage");
  request.code = 320;
  request.ext_fields.Set("m", "true");
  r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kMessageIllegal);
  EXPECT_NE(r->remark->find("batch"), std::string::npos);
}

TEST_F(SendMessageProcessorTest, RetryTopicGoesToDlqAfterMaxReconsumeTimes) {
  protocol::RemotingCommand request = SendRequest("%RETRY%cg", 0, "retry me");
  request.version = 401;
  request.ext_fields.Set("j", "3");  // reconsumeTimes
  request.ext_fields.Set("l", "3");  // maxReconsumeTimes
  auto r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  EXPECT_TRUE(harness_.topics->ContainsTopic("%DLQ%cg"));
  EXPECT_EQ(Stored("%DLQ%cg", 0, 0).body, "retry me");

  request = SendRequest("%RETRY%cg", 0, "still retrying");
  request.version = 401;
  request.ext_fields.Set("j", "1");
  request.ext_fields.Set("l", "3");
  r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Stored("%RETRY%cg", 0, 0).body, "still retrying");
}

class SendWithoutAutoCreateTest : public SendMessageProcessorTest {
 protected:
  static BrokerSettings Settings() {
    BrokerSettings s = TestSettings();
    s.auto_create_topic_enable = false;
    s.auto_create_subscription_group = false;
    s.region_id = "EU";
    s.trace_on = false;
    return s;
  }
  SendWithoutAutoCreateTest() : SendMessageProcessorTest(Settings()) {}
};

TEST_F(SendWithoutAutoCreateTest, UnknownTopicDoesNotExist) {
  auto r = Call(processor_, SendRequest("Missing", 0, "x"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kTopicNotExist);
  EXPECT_NE(r->remark->find("Missing"), std::string::npos);
  EXPECT_EQ(Ext(*r, "MSG_REGION"), "EU");
  EXPECT_EQ(Ext(*r, "TRACE_ON"), "false");
}

TEST_F(SendWithoutAutoCreateTest, RetryTopicOfUnknownGroupIsRefused) {
  harness_.AddTopic("%RETRY%nogroup", 1);
  auto r = Call(processor_, SendRequest("%RETRY%nogroup", 0, "x"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSubscriptionGroupNotExist);
  EXPECT_NE(r->remark->find("nogroup"), std::string::npos);
}

// ---- redirects (message_redirect.h) ----------------------------------------------------

protocol::RemotingCommand WithProperty(protocol::RemotingCommand request, std::string_view key,
                                       std::string_view value) {
  std::string_view props_key = request.code == 10 ? "properties" : "i";
  message::MessageProperties props =
      message::MessageProperties::Decode(request.ext_fields.Get(props_key).value_or(""));
  EXPECT_TRUE(props.Set(key, value).ok());
  request.ext_fields.Set(props_key, props.Encode());
  return request;
}

TEST_F(SendMessageProcessorTest, DelayedMessageIsParkedInTheLevelQueue) {
  harness_.AddTopic("T", 4);
  auto r = Call(processor_, WithProperty(SendRequest("T", 2, "later", "TagA"), "DELAY", "3"));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  EXPECT_EQ(Ext(*r, "queueId"), "2");  // the producer's queue, as Java answers
  EXPECT_EQ(harness_.store->GetMaxOffsetInQueue("T", 2), 0);
  message::MessageExt m = Stored("SCHEDULE_TOPIC_XXXX", 2, 0);
  EXPECT_EQ(m.body, "later");
  EXPECT_EQ(m.properties.Get("REAL_TOPIC"), "T");
  EXPECT_EQ(m.properties.Get("REAL_QID"), "2");
  EXPECT_EQ(m.properties.Get("DELAY"), "3");
}

TEST_F(SendMessageProcessorTest, DelayLevelAboveTheMaximumIsClamped) {
  harness_.AddTopic("T", 4);
  auto r = Call(processor_, WithProperty(SendRequest("T", 0, "x"), "DELAY", "99"));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Stored("SCHEDULE_TOPIC_XXXX", 17, 0).properties.Get("DELAY"), "18");
}

TEST_F(SendMessageProcessorTest, PreparedMessageGoesToTheHalfTopic) {
  harness_.AddTopic("T", 4);
  protocol::RemotingCommand request = WithProperty(SendRequest("T", 1, "half"), "TRAN_MSG", "true");
  request.ext_fields.Set("f", std::to_string(message::kTransactionPreparedType));  // sysFlag
  auto r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  message::MessageExt m = Stored("RMQ_SYS_TRANS_HALF_TOPIC", 0, 0);
  EXPECT_EQ(m.sys_flag & message::kTransactionTypeMask, message::kTransactionNotType);
  EXPECT_EQ(m.properties.Get("REAL_TOPIC"), "T");
  EXPECT_EQ(m.properties.Get("REAL_QID"), "1");
}

TEST_F(SendMessageProcessorTest, TimerMessageIsParkedWithItsDeliveryTime) {
  harness_.AddTopic("T", 4);
  const int64_t before = NowMillis();
  auto r = Call(processor_, WithProperty(SendRequest("T", 3, "timed"), "TIMER_DELAY_SEC", "60"));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  message::MessageExt m = Stored("rmq_sys_wheel_timer", 0, 0);
  int64_t out = std::stoll(std::string(m.properties.Get("TIMER_OUT_MS").value_or("0")));
  EXPECT_GE(out, before + 60000);
  EXPECT_LE(out, NowMillis() + 60000);
  EXPECT_EQ(m.properties.Get("REAL_TOPIC"), "T");
  EXPECT_EQ(m.properties.Get("REAL_QID"), "3");
}

TEST_F(SendMessageProcessorTest, TimerBeyondTheMaximumOrMalformedIsIllegal) {
  harness_.AddTopic("T", 4);
  auto r = Call(processor_, WithProperty(SendRequest("T", 0, "x"), "TIMER_DELAY_SEC", "999999999"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kMessageIllegal);
  EXPECT_NE(r->remark.value_or("").find("timerMaxDelaySec"), std::string::npos);
  r = Call(processor_, WithProperty(SendRequest("T", 0, "x"), "__STARTDELIVERTIME", "tomorrow"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kMessageIllegal);
  EXPECT_NE(r->remark.value_or("").find("__STARTDELIVERTIME"), std::string::npos);
}

TEST_F(SendMessageProcessorTest, RetryMessagePastTheMaxGoesToTheDlqUndelayed) {
  protocol::RemotingCommand request =
      WithProperty(SendRequest("%RETRY%cg", 0, "dead"), "DELAY", "5");
  request.version = 401;
  request.ext_fields.Set("j", "4");
  request.ext_fields.Set("l", "4");
  auto r = Call(processor_, std::move(request));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  message::MessageExt m = Stored("%DLQ%cg", 0, 0);
  EXPECT_EQ(m.body, "dead");
  EXPECT_FALSE(m.properties.Has("DELAY"));
}
}  // namespace
}  // namespace apogee::broker
