#include "broker/processors/dlq_redrive_processor.h"

#include <string>

#include <gtest/gtest.h>

#include "protocol/admin_headers.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "unit/broker/transaction_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
using testing::TransactionHarness;

class DlqRedriveProcessorTest : public ::testing::Test {
 protected:
  DlqRedriveProcessorTest() : processor_({h_.config.get(), h_.store.get(), h_.offsets.get(), h_.groups.get(), h_.topics.get()},
                   h_.host) {
    h_.AddTopic("Orders", 2);
    h_.AddTopic("%DLQ%G1", 1);
    SubscriptionGroupConfig g;
    g.group_name = "G1";
    EXPECT_TRUE(h_.groups->UpdateSubscriptionGroupConfig(g).ok());
  }

  // A message the way the send-back path leaves it in the DLQ.
  void PutDead(const std::string& uniq, const std::string& origin_topic, int32_t reconsume = 16) {
    message::MessageExt m;
    m.topic = "%DLQ%G1";
    m.queue_id = 0;
    m.body = "dead " + uniq;
    m.reconsume_times = reconsume;
    m.born_timestamp = 1;
    (void)m.properties.Set(message::kPropertyUniqClientMessageIdKeyIdx, uniq);
    if (!origin_topic.empty()) (void)m.properties.Set(message::kPropertyRetryTopic, origin_topic);
    (void)m.properties.Set(message::kPropertyOriginMessageId, "ORIG" + uniq);
    (void)m.properties.Set(message::kPropertyMaxReconsumeTimes, "16");
    (void)m.properties.Set(message::kPropertyDelayTimeLevel, "3");
    ASSERT_TRUE(store::PutStatusStored(h_.service->PutAndWait(m).status));
  }

  protocol::RemotingCommand Redrive(std::optional<int32_t> max_count = std::nullopt,
                                    std::optional<std::string> topic = std::nullopt,
                                    const std::string& group = "G1") {
    protocol::RedriveDlqMessageRequestHeader h;
    h.consumer_group = group;
    h.max_count = max_count;
    h.topic = topic;
    protocol::RemotingCommand request =
        protocol::RemotingCommand::MakeRequest(protocol::request_code::kApogeeRedriveDlqMessage);
    protocol::EncodeCustomHeader(h, &request);
    h_.WaitDispatched();
    return processor_.Redrive(request);
  }

  static protocol::RedriveDlqMessageResponseHeader Counts(const protocol::RemotingCommand& r) {
    auto counts = protocol::DecodeCustomHeader<protocol::RedriveDlqMessageResponseHeader>(r);
    EXPECT_TRUE(counts.ok()) << counts.status().ToString();
    return counts.ok() ? *counts : protocol::RedriveDlqMessageResponseHeader{};
  }

  std::vector<message::MessageExt> ReadOrders() {
    auto a = h_.ReadQueue("Orders", 0);
    auto b = h_.ReadQueue("Orders", 1);
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  TransactionHarness h_;
  DlqRedriveProcessor processor_;
};

TEST_F(DlqRedriveProcessorTest, MovesDeadMessagesBackOnceWithReconsumeReset) {
  PutDead("U1", "Orders");
  PutDead("U2", "Orders");
  protocol::RemotingCommand r = Redrive();
  EXPECT_EQ(r.code, rc::kSuccess) << r.remark.value_or("");
  auto counts = Counts(r);
  EXPECT_EQ(counts.redriven, 2);
  EXPECT_EQ(counts.failed, 0);
  EXPECT_EQ(counts.next_offset, 2);
  std::vector<message::MessageExt> back = ReadOrders();
  ASSERT_EQ(back.size(), 2u);
  for (const auto& m : back) {
    EXPECT_EQ(m.reconsume_times, 0);
    EXPECT_FALSE(m.properties.Has(message::kPropertyRetryTopic));
    EXPECT_FALSE(m.properties.Has(message::kPropertyDelayTimeLevel));
    EXPECT_FALSE(m.properties.Has(message::kPropertyMaxReconsumeTimes));
    EXPECT_EQ(m.properties.Get(message::kPropertyOriginMessageId), "ORIG" + std::string(m.msg_id()));
  }
  // Spread over both write queues.
  EXPECT_EQ(h_.ReadQueue("Orders", 0).size(), 1u);

  // Nothing new: a second redrive resends nothing.
  counts = Counts(Redrive());
  EXPECT_EQ(counts.redriven, 0);
  EXPECT_EQ(ReadOrders().size(), 2u);
  PutDead("U3", "Orders");
  counts = Counts(Redrive());
  EXPECT_EQ(counts.redriven, 1);
  EXPECT_EQ(counts.next_offset, 3);
  EXPECT_EQ(ReadOrders().size(), 3u);
}

TEST_F(DlqRedriveProcessorTest, MaxCountAndTopicFilter) {
  h_.AddTopic("Other", 1);
  PutDead("U1", "Orders");
  PutDead("U2", "Other");
  PutDead("U3", "Orders");
  auto counts = Counts(Redrive(1));
  EXPECT_EQ(counts.redriven, 1);
  EXPECT_EQ(counts.next_offset, 1);
  counts = Counts(Redrive(std::nullopt, "Orders"));
  EXPECT_EQ(counts.redriven, 1);
  EXPECT_EQ(counts.skipped, 1);
  EXPECT_EQ(counts.next_offset, 3);
  EXPECT_EQ(ReadOrders().size(), 2u);
  EXPECT_TRUE(h_.ReadQueue("Other", 0).empty());
}

TEST_F(DlqRedriveProcessorTest, MessagesWithoutAnOriginalTopicFail) {
  PutDead("U1", "");
  PutDead("U2", "Gone");
  PutDead("U3", "Orders");
  auto counts = Counts(Redrive());
  EXPECT_EQ(counts.failed, 2);
  EXPECT_EQ(counts.redriven, 1);
  EXPECT_EQ(counts.next_offset, 3);
}

TEST_F(DlqRedriveProcessorTest, RefusesUnknownGroupsAndBadArguments) {
  protocol::RemotingCommand r = Redrive(std::nullopt, std::nullopt, "NOPE");
  EXPECT_EQ(r.code, rc::kSubscriptionGroupNotExist);
  EXPECT_EQ(r.remark, "subscription group not exist, NOPE");
  r = Redrive(0);
  EXPECT_EQ(r.code, rc::kSystemError);
  EXPECT_EQ(r.remark, "maxCount must be positive, got 0");
  protocol::RemotingCommand no_header =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kApogeeRedriveDlqMessage);
  r = processor_.Redrive(no_header);
  EXPECT_EQ(r.code, rc::kSystemError);
  EXPECT_EQ(r.remark, "the custom field consumerGroup is null");
}

TEST_F(DlqRedriveProcessorTest, EmptyDlqIsNotAnError) {
  auto r = Redrive();
  EXPECT_EQ(r.code, rc::kSuccess);
  EXPECT_EQ(Counts(r).redriven, 0);
}

}  // namespace
}  // namespace apogee::broker
