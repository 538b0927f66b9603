#include "message/host_address.h"

#include <gtest/gtest.h>

namespace apogee::message {
namespace {

TEST(HostAddressTest, ParsesAndPrints) {
  auto v4 = HostAddress::Parse("10.218.145.166:10700");
  ASSERT_TRUE(v4.ok());
  EXPECT_FALSE(v4->ipv6);
  EXPECT_EQ(v4->port, 10700);
  EXPECT_EQ(*v4, HostAddress::IPv4(10, 218, 145, 166, 10700));
  EXPECT_EQ(v4->ToString(), "10.218.145.166:10700");
  EXPECT_EQ(v4->encoded_length(), 8u);

  auto v6 = HostAddress::Parse("[fe80::1]:10911");
  ASSERT_TRUE(v6.ok());
  EXPECT_TRUE(v6->ipv6);
  EXPECT_EQ(v6->ToString(), "[fe80::1]:10911");
  EXPECT_EQ(v6->encoded_length(), 20u);

  auto bare = HostAddress::Parse("::1");
  ASSERT_TRUE(bare.ok());
  EXPECT_TRUE(bare->ipv6);
  EXPECT_EQ(bare->port, 0);
  EXPECT_EQ(HostAddress::Parse("127.0.0.1")->port, 0);
}

TEST(HostAddressTest, RejectsGarbageWithTheInputNamed) {
  for (const char* bad :
       {"", "host:1", "1.2.3.4:99999", "1.2.3.4:x", "[::1", "[::1]x", "1.2.3:5"}) {
    auto r = HostAddress::Parse(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find(std::string("'") + bad + "'"), std::string::npos) << bad;
  }
}

TEST(HostAddressTest, RecordFieldRoundTrip) {
  auto v6 = *HostAddress::Parse("[2001:db8::5]:443");
  uint8_t buf[20];
  v6.EncodeTo(buf);
  EXPECT_EQ(buf[0], 0x20);
  EXPECT_EQ(buf[1], 0x01);
  EXPECT_EQ(buf[19], 443 & 0xFF);
  EXPECT_EQ(HostAddress::DecodeFrom(buf, true), v6);
  auto v4 = HostAddress::IPv4(1, 2, 3, 4, 0x01020304);
  v4.EncodeTo(buf);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 8), "\x01\x02\x03\x04\x01\x02\x03\x04");
  EXPECT_EQ(HostAddress::DecodeFrom(buf, false), v4);
}

}  // namespace
}  // namespace apogee::message
