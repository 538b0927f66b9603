#include "acl/address_pattern.h"

#include <gtest/gtest.h>

namespace apogee::acl {
namespace {

AddressPattern P(std::string_view text) {
  auto p = AddressPattern::Parse(text);
  EXPECT_TRUE(p.ok()) << text << ": " << p.status().ToString();
  return p.ok() ? *p : AddressPattern();
}

TEST(AddressPatternTest, BlankMatchesNothingStarMatchesAll) {
  EXPECT_FALSE(P("").Matches("127.0.0.1"));
  EXPECT_TRUE(P("*").Matches("10.1.2.3"));
  EXPECT_TRUE(P("*.*.*.*").Matches("::1"));
}

TEST(AddressPatternTest, OneAddress) {
  EXPECT_TRUE(P("127.0.0.2").Matches("127.0.0.2"));
  EXPECT_FALSE(P("127.0.0.2").Matches("127.0.0.20"));
  EXPECT_TRUE(P("::1").Matches("0:0:0:0:0:0:0:1"));
}

TEST(AddressPatternTest, BracesAndLists) {
  AddressPattern braces = P("192.168.0.{1,2, 3}");
  EXPECT_TRUE(braces.Matches("192.168.0.1"));
  EXPECT_TRUE(braces.Matches("192.168.0.3"));
  EXPECT_FALSE(braces.Matches("192.168.0.4"));
  AddressPattern list = P("10.0.0.1,10.0.0.2");
  EXPECT_TRUE(list.Matches("10.0.0.2"));
  EXPECT_FALSE(list.Matches("10.0.0.3"));
}

TEST(AddressPatternTest, Ranges) {
  AddressPattern star = P("192.168.0.*");
  EXPECT_TRUE(star.Matches("192.168.0.255"));
  EXPECT_FALSE(star.Matches("192.168.1.1"));
  AddressPattern range = P("192.168.1.1-5");
  EXPECT_TRUE(range.Matches("192.168.1.1"));
  EXPECT_TRUE(range.Matches("192.168.1.5"));
  EXPECT_FALSE(range.Matches("192.168.1.6"));
  EXPECT_FALSE(range.Matches("192.168.2.3"));
  AddressPattern mid = P("10.1-5.*");
  EXPECT_TRUE(mid.Matches("10.3.200.1"));
  EXPECT_FALSE(mid.Matches("10.6.0.1"));
  EXPECT_FALSE(mid.Matches("11.3.0.1"));
  EXPECT_TRUE(P("127.*").Matches("127.9.9.9"));
  EXPECT_FALSE(P("127.*").Matches("::1"));
}

TEST(AddressPatternTest, RefusesWhatJavaWouldMisread) {
  for (const char* bad : {"10.1-5.3.4", "*.1.2.3", "1.2.3.300", "192.168.0.{1,x}",
                          "nonsense", "192.168.1.5-1", "fe80::1-5", "1.2.{3}.4"}) {
    auto p = AddressPattern::Parse(bad);
    EXPECT_FALSE(p.ok()) << bad;
    if (!p.ok()) {
      EXPECT_NE(p.status().message().find(bad), std::string::npos);
    }
  }
}

TEST(AddressPatternTest, HostOfRemoteAddress) {
  EXPECT_EQ(HostOfRemoteAddress("127.0.0.1:10911"), "127.0.0.1");
  EXPECT_EQ(HostOfRemoteAddress("[::1]:10911"), "::1");
  EXPECT_EQ(HostOfRemoteAddress("127.0.0.1"), "127.0.0.1");
}

}  // namespace
}  // namespace apogee::acl
