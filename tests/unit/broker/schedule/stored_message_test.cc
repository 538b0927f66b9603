#include "broker/schedule/stored_message.h"

#include <gtest/gtest.h>

#include "broker/processors/send_message_processor.h"
#include "message/message_id.h"
#include "protocol/response_code.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
using testing::BrokerHarness;
using testing::Call;
using testing::Ext;
using testing::SendRequest;

class StoredMessageTest : public ::testing::Test {
 protected:
  StoredMessageTest() : sender_(harness_.SendDeps()) { harness_.AddTopic("T", 4); }

  int64_t Send(protocol::RemotingCommand request) {
    auto r = Call(sender_, std::move(request));
    EXPECT_TRUE(r && r->code == rc::kSuccess);
    harness_.WaitDispatched();
    return message::ParseOffsetMsgId(Ext(*r, "msgId"))->physical_offset;
  }

  BrokerHarness harness_;
  SendMessageProcessor sender_;
};

TEST_F(StoredMessageTest, LooksAMessageUpByItsOffset) {
  Send(SendRequest("T", 0, "first"));
  const int64_t offset = Send(SendRequest("T", 2, "second", "TagB"));
  Result<message::MessageExt> m = LookMessageByOffset(*harness_.store, offset);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->body, "second");
  EXPECT_EQ(m->topic, "T");
  EXPECT_EQ(m->queue_id, 2);
  EXPECT_EQ(m->commit_log_offset, offset);

  Result<message::MessageExt> missing = LookMessageByOffset(*harness_.store, offset + 3);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find(std::to_string(offset + 3)), std::string::npos);
}

TEST_F(StoredMessageTest, DeliversAParkedMessageToItsRealQueue) {
  protocol::RemotingCommand request = SendRequest("T", 3, "parked", "TagC");
  message::MessageProperties props =
      message::MessageProperties::Decode(request.ext_fields.Get("i").value_or(""));
  ASSERT_TRUE(props.Set("DELAY", "1").ok());
  request.ext_fields.Set("i", props.Encode());
  Send(std::move(request));
  store::GetMessageResult parked =
      harness_.store->GetMessages("SCHEDULE_TOPIC_XXXX", 0, 0, 1, 1 << 20);
  ASSERT_EQ(parked.messages.size(), 1u);
  std::string why;
  EXPECT_EQ(DeliverParkedMessage(harness_.store.get(), parked.messages[0], &why),
            DeliverOutcome::kDelivered)
      << why;
  harness_.WaitDispatched();
  store::GetMessageResult real = harness_.store->GetMessages("T", 3, 0, 1, 1 << 20);
  ASSERT_EQ(real.messages.size(), 1u);
  auto d = message::DecodeRecord(real.messages[0].data, static_cast<size_t>(real.messages[0].size));
  auto m = message::ToMessageExt(d.record);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->body, "parked");
  EXPECT_FALSE(m->properties.Has("DELAY"));
}

TEST_F(StoredMessageTest, AMessageWithoutRealTopicIsDiscarded) {
  const int64_t offset = Send(SendRequest("T", 0, "plain"));
  Result<store::QueryMessageResult> q = harness_.store->GetMessageByOffset(offset);
  ASSERT_TRUE(q.ok());
  std::string why;
  EXPECT_EQ(DeliverParkedMessage(harness_.store.get(), q->messages[0], &why),
            DeliverOutcome::kDiscarded);
  EXPECT_NE(why.find("REAL_TOPIC"), std::string::npos) << why;
}

}  // namespace
}  // namespace apogee::broker
