#include "message/message_id.h"

#include <gtest/gtest.h>

namespace apogee::message {
namespace {

TEST(OffsetMsgIdTest, IPv4IsThirtyTwoUpperHexChars) {
  // The store host and physical offset of the Java-written message.bin fixture.
  const std::string id =
      CreateOffsetMsgId(HostAddress::IPv4(10, 218, 145, 166, 10700), 433806745406);
  EXPECT_EQ(id, "0ADA91A6000029CC0000006500E59F3E");
  auto parsed = ParseOffsetMsgId(id);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->store_host.ToString(), "10.218.145.166:10700");
  EXPECT_EQ(parsed->physical_offset, 433806745406);
  // Lower case is accepted too.
  EXPECT_TRUE(ParseOffsetMsgId("0ada91a6000029cc0000006500e59f3e").ok());
}

TEST(OffsetMsgIdTest, IPv6IsFiftySixChars) {
  auto host = HostAddress::Parse("[2001:db8::1]:10911");
  ASSERT_TRUE(host.ok());
  const std::string id = CreateOffsetMsgId(*host, 0x0102030405060708);
  EXPECT_EQ(id,
            "20010DB8000000000000000000000001"
            "00002A9F"
            "0102030405060708");
  auto parsed = ParseOffsetMsgId(id);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->store_host, *host);
  EXPECT_EQ(parsed->physical_offset, 0x0102030405060708);
}

TEST(OffsetMsgIdTest, BadIdsAreNamed) {
  auto short_id = ParseOffsetMsgId("ABC");
  EXPECT_TRUE(short_id.status().Is(StatusCode::kInvalidArgument));
  EXPECT_NE(short_id.status().message().find("'ABC' has 3 characters"), std::string::npos);
  auto not_hex = ParseOffsetMsgId("ZZDA91A6000029CC0000006500E59F3E");
  EXPECT_TRUE(not_hex.status().Is(StatusCode::kInvalidArgument));
  EXPECT_NE(not_hex.status().message().find("not hex"), std::string::npos);
}

TEST(OffsetMsgIdTest, BatchIdsAreCommaJoined) {
  EXPECT_EQ(JoinMsgIds({"A", "B", "C"}), "A,B,C");
  EXPECT_EQ(JoinMsgIds({"A"}), "A");
  EXPECT_EQ(JoinMsgIds({}), "");
}

}  // namespace
}  // namespace apogee::message
