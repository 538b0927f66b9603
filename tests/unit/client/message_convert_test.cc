#include "client/message_convert.h"

#include <gtest/gtest.h>

#include "message/host_address.h"

namespace apogee::client {
namespace {

TEST(MessageConvertTest, PublicMessageToWireKeepsEveryField) {
  Message msg("T", "tag", "k1 k2", "body");
  msg.set_flag(7);
  msg.PutProperty("custom", "v");
  auto wire = ToWireMessage(msg);
  ASSERT_TRUE(wire.ok()) << wire.status().ToString();
  EXPECT_EQ(wire->topic, "T");
  EXPECT_EQ(wire->flag, 7);
  EXPECT_EQ(wire->body, "body");
  EXPECT_EQ(wire->tags(), "tag");
  EXPECT_EQ(wire->keys(), (std::vector<std::string>{"k1", "k2"}));
  EXPECT_EQ(wire->properties.Get("custom"), "v");
}

TEST(MessageConvertTest, UnencodablePropertyIsNamed) {
  Message msg("T", "body");
  msg.PutProperty("bad", std::string("a\x01") + "b");
  auto wire = ToWireMessage(msg);
  ASSERT_FALSE(wire.ok());
  EXPECT_TRUE(wire.status().Is(StatusCode::kInvalidArgument));
  EXPECT_NE(wire.status().message().find("\"bad\""), std::string::npos);
}

TEST(MessageConvertTest, ReceivedMessageToPublic) {
  message::MessageExt ext;
  ext.topic = "T";
  ext.body = "b";
  ASSERT_TRUE(ext.properties.Set("UNIQ_KEY", "UID").ok());
  ext.queue_id = 3;
  ext.queue_offset = 44;
  ext.commit_log_offset = 1000;
  ext.reconsume_times = 2;
  ext.born_host = message::HostAddress::IPv4(10, 0, 0, 1, 1234);
  ext.store_host = message::HostAddress::IPv4(10, 0, 0, 2, 10911);
  ext.offset_msg_id = "OFF";
  MessageExt out = ToPublicMessageExt(ext, "broker-a");
  EXPECT_EQ(out.topic(), "T");
  EXPECT_EQ(out.msg_id(), "UID");
  EXPECT_EQ(out.offset_msg_id(), "OFF");
  EXPECT_EQ(out.broker_name(), "broker-a");
  EXPECT_EQ(out.queue_id(), 3);
  EXPECT_EQ(out.queue_offset(), 44);
  EXPECT_EQ(out.commit_log_offset(), 1000);
  EXPECT_EQ(out.reconsume_times(), 2);
  EXPECT_EQ(out.born_host(), "10.0.0.1:1234");
  EXPECT_EQ(out.store_host(), "10.0.0.2:10911");
}

// The moving overload (a pulled message handed to the push consumer's listener) gives the same
// public message as the copying one, property for property, with long values and bodies that
// do not fit a string's inline buffer.
TEST(MessageConvertTest, MovedReceivedMessageEqualsTheCopiedOne) {
  message::MessageExt ext;
  ext.topic = "TopicTest";
  ext.flag = 5;
  ext.body = std::string(2048, 'q');
  ASSERT_TRUE(ext.properties.Set("UNIQ_KEY", "AC11000100002A9F00000000000000C1").ok());
  ASSERT_TRUE(ext.properties.Set("TAGS", "TagA").ok());
  ASSERT_TRUE(ext.properties.Set("KEYS", "order-1 order-2 a-key-longer-than-sixteen").ok());
  ext.queue_id = 1;
  ext.queue_offset = 9;
  ext.commit_log_offset = 77;
  ext.store_size = 2200;
  ext.sys_flag = 0;
  ext.body_crc = 123;
  ext.born_timestamp = 1700000000000;
  ext.store_timestamp = 1700000000005;
  ext.born_host = message::HostAddress::IPv4(10, 0, 0, 1, 1234);
  ext.store_host = message::HostAddress::IPv4(10, 0, 0, 2, 10911);
  ext.reconsume_times = 4;
  ext.prepared_transaction_offset = 66;
  ext.offset_msg_id = "0A00000200002A9F000000000000004D";
  const MessageExt copied = ToPublicMessageExt(ext, "broker-a");
  HostTextCache hosts;
  const MessageExt moved = ToPublicMessageExt(std::move(ext), "broker-a", &hosts);
  EXPECT_EQ(moved.topic(), copied.topic());
  EXPECT_EQ(moved.flag(), 5);
  EXPECT_EQ(moved.body(), std::string(2048, 'q'));
  EXPECT_EQ(moved.properties(), copied.properties());
  EXPECT_EQ(moved.properties().size(), 3u);
  EXPECT_EQ(moved.tags(), "TagA");
  EXPECT_EQ(moved.msg_id(), "AC11000100002A9F00000000000000C1");
  EXPECT_EQ(moved.offset_msg_id(), copied.offset_msg_id());
  EXPECT_EQ(moved.broker_name(), "broker-a");
  EXPECT_EQ(moved.queue_id(), copied.queue_id());
  EXPECT_EQ(moved.queue_offset(), copied.queue_offset());
  EXPECT_EQ(moved.commit_log_offset(), copied.commit_log_offset());
  EXPECT_EQ(moved.store_size(), copied.store_size());
  EXPECT_EQ(moved.body_crc(), copied.body_crc());
  EXPECT_EQ(moved.born_timestamp(), copied.born_timestamp());
  EXPECT_EQ(moved.store_timestamp(), copied.store_timestamp());
  EXPECT_EQ(moved.born_host(), copied.born_host());
  EXPECT_EQ(moved.store_host(), copied.store_host());
  EXPECT_EQ(moved.reconsume_times(), 4);
  EXPECT_EQ(moved.prepared_transaction_offset(), 66);
}

// The cache gives each host's own text whatever the order: the store host kept, born hosts
// taking turns in the other slot, IPv6 bracketed as ToString does.
TEST(MessageConvertTest, HostTextCacheGivesEachHostItsOwnText) {
  using message::HostAddress;
  const HostAddress store = HostAddress::IPv4(10, 0, 0, 2, 10911);
  const std::vector<HostAddress> born = {
      HostAddress::IPv4(10, 0, 0, 1, 1234), HostAddress::IPv4(10, 0, 0, 1, 1235),
      HostAddress::IPv4(10, 0, 0, 3, 1234),
      HostAddress::IPv6({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 1234)};
  HostTextCache hosts;
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < born.size(); ++i) {
      EXPECT_EQ(hosts.Text(store), store.ToString());
      EXPECT_EQ(hosts.Text(born[i]), born[i].ToString());
      EXPECT_EQ(hosts.Text(born[i]), born[i].ToString());
      EXPECT_EQ(hosts.Text(born[(i + 1) % born.size()]), born[(i + 1) % born.size()].ToString());
    }
  }
  EXPECT_EQ(hosts.Text(born[3]), "[fe80::1]:1234");
}

TEST(MessageConvertTest, QueuesBothWays) {
  MessageQueue mq("T", "b", 2);
  protocol::MessageQueue wire = ToProtocolQueue(mq);
  EXPECT_EQ(wire.topic, "T");
  EXPECT_EQ(wire.broker_name, "b");
  EXPECT_EQ(wire.queue_id, 2);
  EXPECT_EQ(ToPublicQueue(wire), mq);
}

}  // namespace
}  // namespace apogee::client
