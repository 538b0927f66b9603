#include "apogee/message.h"

#include <gtest/gtest.h>

#include <set>

#include "apogee/message_queue.h"
#include "apogee/send_result.h"

namespace apogee {
namespace {

TEST(MessageTest, WellKnownAttributesLiveInProperties) {
  Message msg("TopicA", "tagA", "key1", "body");
  EXPECT_EQ(msg.topic(), "TopicA");
  EXPECT_EQ(msg.tags(), "tagA");
  EXPECT_EQ(msg.keys(), "key1");
  EXPECT_EQ(msg.GetProperty("TAGS"), "tagA");
  EXPECT_EQ(msg.GetProperty("KEYS"), "key1");

  msg.set_keys(std::vector<std::string>{"a", "", "b"});
  EXPECT_EQ(msg.keys(), "a b");
  msg.set_tags("");
  EXPECT_FALSE(msg.GetProperty("TAGS").has_value());
}

TEST(MessageTest, DelayLevelAndWait) {
  Message msg("T", "b");
  EXPECT_EQ(msg.delay_time_level(), 0);
  msg.set_delay_time_level(3);
  EXPECT_EQ(msg.GetProperty("DELAY"), "3");
  EXPECT_EQ(msg.delay_time_level(), 3);
  msg.set_delay_time_level(0);
  EXPECT_FALSE(msg.GetProperty("DELAY").has_value());
  msg.PutProperty("DELAY", "x");
  EXPECT_EQ(msg.delay_time_level(), 0);

  EXPECT_TRUE(msg.wait_store_msg_ok());
  msg.set_wait_store_msg_ok(false);
  EXPECT_FALSE(msg.wait_store_msg_ok());
  EXPECT_EQ(msg.GetProperty("WAIT"), "false");
}

TEST(MessageTest, MessageExtIdPrefersUniqKey) {
  MessageExt ext;
  ext.set_offset_msg_id("7F00000100002A9F0000000000000064");
  EXPECT_EQ(ext.msg_id(), "7F00000100002A9F0000000000000064");
  ext.PutProperty("UNIQ_KEY", "AC11000100002A9F0000000000000001");
  EXPECT_EQ(ext.msg_id(), "AC11000100002A9F0000000000000001");
}

TEST(MessageQueueTest, OrderedAsJavaCompareTo) {
  std::set<MessageQueue> queues = {{"b", "broker-a", 0}, {"a", "broker-b", 0},
                                   {"a", "broker-a", 10}, {"a", "broker-a", 2}};
  std::vector<MessageQueue> sorted(queues.begin(), queues.end());
  EXPECT_EQ(sorted[0], MessageQueue("a", "broker-a", 2));
  EXPECT_EQ(sorted[1], MessageQueue("a", "broker-a", 10));
  EXPECT_EQ(sorted[2], MessageQueue("a", "broker-b", 0));
  EXPECT_EQ(sorted[3], MessageQueue("b", "broker-a", 0));
  EXPECT_EQ(sorted[0].ToString(), "MessageQueue [topic=a, brokerName=broker-a, queueId=2]");
  EXPECT_NE(std::hash<MessageQueue>()(sorted[0]), std::hash<MessageQueue>()(sorted[1]));
}

TEST(SendResultTest, PrintsAsJava) {
  SendResult result;
  result.send_status = SendStatus::kFlushSlaveTimeout;
  result.msg_id = "ID";
  result.offset_msg_id = "OFF";
  result.message_queue = MessageQueue("T", "b", 1);
  result.queue_offset = 9;
  EXPECT_EQ(result.ToString(),
            "SendResult [sendStatus=FLUSH_SLAVE_TIMEOUT, msgId=ID, offsetMsgId=OFF, "
            "messageQueue=MessageQueue [topic=T, brokerName=b, queueId=1], queueOffset=9]");
  EXPECT_EQ(SendStatusName(SendStatus::kSendOk), "SEND_OK");
}

}  // namespace
}  // namespace apogee
