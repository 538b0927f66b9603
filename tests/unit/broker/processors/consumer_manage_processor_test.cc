#include "broker/processors/consumer_manage_processor.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "broker/client/consumer_offset_manager.h"
#include "broker/processors/send_message_processor.h"
#include "protocol/consumer_headers.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using testing::BrokerHarness;
using testing::Call;
using testing::Ext;
using testing::FakeChannel;
using testing::SendRequest;
using testing::TestSettings;

template <typename H>
protocol::RemotingCommand Request(int32_t code, const H& header) {
  protocol::RemotingCommand request = protocol::RemotingCommand::MakeRequest(code);
  protocol::EncodeCustomHeader(header, &request);
  return request;
}

protocol::QueryConsumerOffsetRequestHeader Query(const std::string& topic, int32_t queue_id) {
  protocol::QueryConsumerOffsetRequestHeader h;
  h.consumer_group = "CG";
  h.topic = topic;
  h.queue_id = queue_id;
  return h;
}

protocol::UpdateConsumerOffsetRequestHeader Update(const std::string& topic, int32_t queue_id,
                                                   int64_t offset) {
  protocol::UpdateConsumerOffsetRequestHeader h;
  h.consumer_group = "CG";
  h.topic = topic;
  h.queue_id = queue_id;
  h.commit_offset = offset;
  return h;
}

class ConsumerManageProcessorTest : public ::testing::Test {
 protected:
  explicit ConsumerManageProcessorTest(BrokerSettings settings = TestSettings())
      : harness_(settings),
        offsets_(std::make_shared<ConsumerOffsetManager>(harness_.env.get(),
                                                         "/store/config/co.json")),
        processor_({harness_.store.get(), offsets_.get(), harness_.groups.get(),
                    harness_.topics.get()}),
        sender_(harness_.SendDeps()) {
    harness_.AddTopic("T", 2);
  }
  void Send(int32_t queue_id) {
    auto r = Call(sender_, SendRequest("T", queue_id, "x"));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->code, rc::kSuccess);
  }

  BrokerHarness harness_;
  std::shared_ptr<ConsumerOffsetManager> offsets_;
  ConsumerManageProcessor processor_;
  SendMessageProcessor sender_;
};

TEST_F(ConsumerManageProcessorTest, NewGroupOnAYoungQueueStartsAtZero) {
  Send(0);
  harness_.WaitDispatched();
  auto r = Call(processor_, Request(req::kQueryConsumerOffset, Query("T", 0)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Ext(*r, "offset"), "0");
  // An empty queue counts as "in memory" too (4.9.x).
  r = Call(processor_, Request(req::kQueryConsumerOffset, Query("T", 1)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
}

TEST_F(ConsumerManageProcessorTest, SetZeroIfNotFoundFalseAnswersQueryNotFound) {
  auto h = Query("T", 0);
  h.set_zero_if_not_found = false;
  auto r = Call(processor_, Request(req::kQueryConsumerOffset, h));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kQueryNotFound);
  EXPECT_NE(r->remark->find("CG"), std::string::npos);
}

TEST_F(ConsumerManageProcessorTest, UpdateThenQuery) {
  auto r = Call(processor_, Request(req::kUpdateConsumerOffset, Update("T", 1, 42)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
  r = Call(processor_, Request(req::kQueryConsumerOffset, Query("T", 1)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Ext(*r, "offset"), "42");
}

TEST_F(ConsumerManageProcessorTest, OnewayUpdateIsStoredAndNotAnswered) {
  auto channel = std::make_shared<FakeChannel>();
  protocol::RemotingCommand request = Request(req::kUpdateConsumerOffset, Update("T", 0, 7));
  request.flag |= protocol::kFlagOneway;
  remoting::Responder responder(channel, request);
  processor_.ProcessRequest(std::move(request), responder);
  EXPECT_EQ(offsets_->QueryOffset("CG", "T", 0), 7);
  EXPECT_EQ(channel->ResponseCount(), 0u);
}

TEST_F(ConsumerManageProcessorTest, UpdateErrorPaths) {
  auto r = Call(processor_, Request(req::kUpdateConsumerOffset, Update("Nope", 0, 1)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kTopicNotExist);
  EXPECT_NE(r->remark->find("Nope"), std::string::npos);
  r = Call(processor_, Request(req::kUpdateConsumerOffset, Update("T", -1, 1)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kInvalidParameter);
  // A queue the topic does not have, and offsets below -1, are refused (nothing stored).
  r = Call(processor_, Request(req::kUpdateConsumerOffset, Update("T", 2147483647, 1)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kInvalidParameter);
  EXPECT_NE(r->remark->find("2147483647"), std::string::npos) << *r->remark;
  r = Call(processor_, Request(req::kUpdateConsumerOffset, Update("T", 2, 1)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kInvalidParameter);
  r = Call(processor_, Request(req::kUpdateConsumerOffset, Update("T", 0, INT64_MIN)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kInvalidParameter);
  EXPECT_NE(r->remark->find("commitOffset"), std::string::npos) << *r->remark;
  r = Call(processor_, Request(req::kUpdateConsumerOffset, Update("T", 0, -2)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kInvalidParameter);
  protocol::RemotingCommand malformed = Request(req::kUpdateConsumerOffset, Update("T", 0, 1));
  malformed.ext_fields.Erase("commitOffset");
  r = Call(processor_, std::move(malformed));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSystemError);
  EXPECT_NE(r->remark->find("commitOffset"), std::string::npos);
  EXPECT_EQ(offsets_->AllOffsets().size(), 0u);
}

// ali-ons persists -1 for a queue it has no offset for: accepted, as Java does.
TEST_F(ConsumerManageProcessorTest, MinusOneIsAcceptedAsNoOffset) {
  auto r = Call(processor_, Request(req::kUpdateConsumerOffset, Update("T", 1, -1)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
}

TEST_F(ConsumerManageProcessorTest, QueueOffsetsAndTimes) {
  harness_.AddTopic("T", 2);
  const int64_t before = NowMillis();
  for (int i = 0; i < 3; ++i) Send(1);
  harness_.WaitDispatched();
  protocol::GetMaxOffsetRequestHeader max;
  max.topic = "T";
  max.queue_id = 1;
  auto r = Call(processor_, Request(req::kGetMaxOffset, max));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Ext(*r, "offset"), "3");

  protocol::GetMinOffsetRequestHeader min;
  min.topic = "T";
  min.queue_id = 1;
  r = Call(processor_, Request(req::kGetMinOffset, min));
  ASSERT_TRUE(r);
  EXPECT_EQ(Ext(*r, "offset"), "0");

  protocol::GetEarliestMsgStoretimeRequestHeader earliest;
  earliest.topic = "T";
  earliest.queue_id = 1;
  r = Call(processor_, Request(req::kGetEarliestMsgStoretime, earliest));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
  EXPECT_GE(std::stoll(Ext(*r, "timestamp")), before);

  protocol::SearchOffsetRequestHeader search;
  search.topic = "T";
  search.queue_id = 1;
  search.timestamp = before - 60000;
  r = Call(processor_, Request(req::kSearchOffsetByTimestamp, search));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Ext(*r, "offset"), "0");

  // An unknown queue has no messages: offsets 0, as Java answers.
  max.topic = "Unknown";
  r = Call(processor_, Request(req::kGetMaxOffset, max));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Ext(*r, "offset"), "0");
}

TEST_F(ConsumerManageProcessorTest, OffsetQueriesRejectMalformedHeadersAndNegativeQueues) {
  protocol::GetMaxOffsetRequestHeader max;
  max.topic = "T";
  max.queue_id = -3;
  auto r = Call(processor_, Request(req::kGetMaxOffset, max));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kInvalidParameter);
  EXPECT_NE(r->remark->find("-3"), std::string::npos);
  protocol::RemotingCommand malformed = Request(req::kSearchOffsetByTimestamp, max);
  r = Call(processor_, std::move(malformed));  // no timestamp
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSystemError);
  EXPECT_NE(r->remark->find("timestamp"), std::string::npos);
}

class ConsumerManageNoAutoGroupTest : public ConsumerManageProcessorTest {
 protected:
  static BrokerSettings Settings() {
    BrokerSettings s = TestSettings();
    s.auto_create_subscription_group = false;
    return s;
  }
  ConsumerManageNoAutoGroupTest() : ConsumerManageProcessorTest(Settings()) {}
};

TEST_F(ConsumerManageNoAutoGroupTest, UpdateForUnknownGroupIsRefused) {
  auto r = Call(processor_, Request(req::kUpdateConsumerOffset, Update("T", 0, 1)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSubscriptionGroupNotExist);
  EXPECT_NE(r->remark->find("CG"), std::string::npos);
}

}  // namespace
}  // namespace apogee::broker
