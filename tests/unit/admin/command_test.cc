#include "admin/command.h"

#include <gtest/gtest.h>

#include <sstream>

namespace apogee::admin {
namespace {

TEST(CommandContextTest, FlagWinsOverEnvironment) {
  std::ostringstream out;
  std::string asked;
  CommandContext ctx(
      &out,
      [&](std::string_view addr, const acl::Credentials&) -> Result<std::unique_ptr<AdminTransport>> {
        asked = std::string(addr);
        return Status::Unavailable("not in this test");
      },
      "env:9876");
  ParsedOptions with_flag;
  with_flag.Set("namesrvAddr", "flag:9876");
  EXPECT_EQ(*ctx.NamesrvAddr(with_flag), "flag:9876");
  EXPECT_EQ(*ctx.NamesrvAddr(ParsedOptions{}), "env:9876");
  auto admin = ctx.Admin(with_flag);
  EXPECT_FALSE(admin.ok());
  EXPECT_EQ(asked, "flag:9876");
}

TEST(CommandContextTest, NoAddressAnywhere) {
  std::ostringstream out;
  CommandContext ctx(&out, nullptr, "");
  auto addr = ctx.NamesrvAddr(ParsedOptions{});
  ASSERT_FALSE(addr.ok());
  EXPECT_NE(addr.status().message().find("-n"), std::string::npos);
}

// The transport is built even without an address, so -b commands run as with Java's mqadmin
// (MQAdminClient::NameServers refuses the NameServer calls).
TEST(CommandContextTest, AdminWithoutAddressBuildsATransportForNoNameServer) {
  std::ostringstream out;
  bool called = false;
  std::string asked = "unset";
  CommandContext ctx(
      &out,
      [&](std::string_view addr, const acl::Credentials&) -> Result<std::unique_ptr<AdminTransport>> {
        called = true;
        asked = std::string(addr);
        return Status::Unavailable("not in this test");
      },
      "");
  EXPECT_FALSE(ctx.Admin(ParsedOptions{}).ok());
  EXPECT_TRUE(called);
  EXPECT_EQ(asked, "");
}

}  // namespace
}  // namespace apogee::admin
