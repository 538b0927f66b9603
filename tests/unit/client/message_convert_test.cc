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
