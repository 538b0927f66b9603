#include "acl/plain_acl_file.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "acl/signature.h"
#include "protocol/request_code.h"
#include "testutil/test_util.h"

namespace apogee::acl {
namespace {

using apogee::testing::TempDir;

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
  // Make every rewrite visible even on file systems with coarse timestamps.
  static auto stamp = std::filesystem::file_time_type::clock::now();
  stamp += std::chrono::seconds(2);
  std::filesystem::last_write_time(path, stamp);
}

std::string Account(const std::string& topic_perm) {
  return "accounts:\n  - accessKey: userAccess\n    secretKey: userSecret1\n"
         "    defaultTopicPerm: " + topic_perm + "\n";
}

protocol::RemotingCommand SignedQuery() {
  auto cmd = protocol::RemotingCommand::MakeRequest(protocol::request_code::kQueryMessage);
  cmd.ext_fields.Set("topic", "T");
  SignRequest(Credentials{"userAccess", "userSecret1", std::nullopt, std::nullopt}, &cmd);
  return cmd;
}

TEST(PlainAclFileTest, PathAsJavaWithOverride) {
  EXPECT_EQ(AclFilePath("", "/opt/rmq"), "/opt/rmq/conf/plain_acl.yml");
  EXPECT_EQ(AclFilePath("", "/opt/rmq", "conf/other.yml"), "/opt/rmq/conf/other.yml");
  EXPECT_EQ(AclFilePath("", "/opt/rmq", "/etc/acl.yml"), "/etc/acl.yml");
  EXPECT_EQ(AclFilePath("/x/acl.yml", "/opt/rmq", "/etc/acl.yml"), "/x/acl.yml");
}

TEST(PlainAclFileTest, MissingOrBrokenFileFailsOpenNamingIt) {
  TempDir dir;
  auto missing = PlainAclFile::Open(dir.Join("nope.yml"), AclScope::kBroker);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nope.yml"), std::string::npos);
  Write(dir.Join("bad.yml"), "accounts: [\n");
  auto bad = PlainAclFile::Open(dir.Join("bad.yml"), AclScope::kBroker);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.yml"), std::string::npos);
}

TEST(PlainAclFileTest, ReloadsChangesAndKeepsTheLastGoodOnBreakage) {
  TempDir dir;
  std::string path = dir.Join("plain_acl.yml");
  Write(path, Account("DENY"));
  auto file = PlainAclFile::Open(path, AclScope::kBroker);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_FALSE((*file)->Check("127.0.0.1:1", SignedQuery()).ok());
  EXPECT_FALSE((*file)->ReloadIfChanged());  // unchanged

  Write(path, Account("SUB"));
  EXPECT_TRUE((*file)->ReloadIfChanged());
  EXPECT_TRUE((*file)->Check("127.0.0.1:1", SignedQuery()).ok());

  Write(path, "accounts: [ broken\n");
  EXPECT_FALSE((*file)->ReloadIfChanged());
  EXPECT_TRUE((*file)->Check("127.0.0.1:1", SignedQuery()).ok());  // last good one

  std::filesystem::remove(path);
  EXPECT_FALSE((*file)->ReloadIfChanged());
  EXPECT_TRUE((*file)->Check("127.0.0.1:1", SignedQuery()).ok());
}

TEST(PlainAclFileTest, WatcherPicksUpAChange) {
  TempDir dir;
  std::string path = dir.Join("plain_acl.yml");
  Write(path, Account("DENY"));
  auto file = PlainAclFile::Open(path, AclScope::kBroker);
  ASSERT_TRUE(file.ok());
  (*file)->StartWatching(std::chrono::milliseconds(20));
  Write(path, Account("PUB|SUB"));
  bool allowed = false;
  for (int i = 0; i < 500 && !allowed; ++i) {
    allowed = (*file)->Check("127.0.0.1:1", SignedQuery()).ok();
    if (!allowed) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(allowed);
}

}  // namespace
}  // namespace apogee::acl
