#include "message/message.h"

#include <gtest/gtest.h>

namespace apogee::message {
namespace {

TEST(MessageTest, WellKnownPropertyShortcuts) {
  Message m;
  EXPECT_EQ(m.tags(), std::nullopt);
  EXPECT_TRUE(m.keys().empty());
  EXPECT_EQ(m.delay_time_level(), 0);
  EXPECT_TRUE(m.wait_store_msg_ok());  // absent means wait
  m.properties = MessageProperties::Decode(
      "TAGS\x01TagA\x02KEYS\x01k1  k2 \x02"
      "DELAY\x01"
      "3\x02WAIT\x01"
      "false\x02");
  EXPECT_EQ(m.tags(), "TagA");
  EXPECT_EQ(m.keys(), (std::vector<std::string>{"k1", "k2"}));
  EXPECT_EQ(m.delay_time_level(), 3);
  EXPECT_FALSE(m.wait_store_msg_ok());
  ASSERT_TRUE(m.properties.Set("DELAY", "x").ok());
  EXPECT_EQ(m.delay_time_level(), 0);
  ASSERT_TRUE(m.properties.Set("WAIT", "TRUE").ok());
  EXPECT_TRUE(m.wait_store_msg_ok());
}

TEST(MessageExtTest, MsgIdPrefersUniqKey) {
  MessageExt m;
  m.offset_msg_id = "0ADA91A6000029CC0000006500E59F3E";
  EXPECT_EQ(m.msg_id(), "0ADA91A6000029CC0000006500E59F3E");
  ASSERT_TRUE(m.properties.Set("UNIQ_KEY", "7F0000010001000000000000000A0001").ok());
  EXPECT_EQ(m.uniq_key(), "7F0000010001000000000000000A0001");
  EXPECT_EQ(m.msg_id(), "7F0000010001000000000000000A0001");
}

}  // namespace
}  // namespace apogee::message
