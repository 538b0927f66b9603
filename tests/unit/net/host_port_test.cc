#include "net/host_port.h"

#include <gtest/gtest.h>

namespace apogee::net {
namespace {

TEST(HostPortTest, ParsesHostAndPort) {
  auto hp = ParseHostPort("127.0.0.1:9876");
  ASSERT_TRUE(hp.ok()) << hp.status().ToString();
  EXPECT_EQ(hp->host, "127.0.0.1");
  EXPECT_EQ(hp->port, 9876);
  EXPECT_EQ(hp->ToString(), "127.0.0.1:9876");
}

TEST(HostPortTest, ParsesNamesAndBracketedIpv6) {
  auto name = ParseHostPort("broker-a.local:10911");
  ASSERT_TRUE(name.ok());
  EXPECT_EQ(name->host, "broker-a.local");
  auto v6 = ParseHostPort("[::1]:10911");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 10911);
  EXPECT_EQ(v6->ToString(), "[::1]:10911");
}

TEST(HostPortTest, RejectsBadInputWithReason) {
  auto no_port = ParseHostPort("localhost");
  ASSERT_FALSE(no_port.ok());
  EXPECT_NE(no_port.status().message().find("no ':port'"), std::string::npos);
  auto bad_port = ParseHostPort("localhost:99999");
  ASSERT_FALSE(bad_port.ok());
  EXPECT_NE(bad_port.status().message().find("99999"), std::string::npos);
  EXPECT_FALSE(ParseHostPort("localhost:0").ok());
  EXPECT_FALSE(ParseHostPort("localhost:12a").ok());
  EXPECT_FALSE(ParseHostPort(":9876").ok());
}

TEST(HostPortTest, FormatsEndpoints) {
  using boost::asio::ip::make_address;
  using boost::asio::ip::tcp;
  EXPECT_EQ(FormatEndpoint(tcp::endpoint(make_address("10.0.0.1"), 80)), "10.0.0.1:80");
  EXPECT_EQ(FormatEndpoint(tcp::endpoint(make_address("::1"), 80)), "[::1]:80");
  EXPECT_EQ(FormatEndpoint(tcp::endpoint(make_address("::ffff:10.0.0.2"), 81)), "10.0.0.2:81");
}

}  // namespace
}  // namespace apogee::net
