#include "acl/credentials_file.h"

#include <gtest/gtest.h>

#include <fstream>

#include "testutil/test_util.h"

namespace apogee::acl {
namespace {

TEST(CredentialsFileTest, ReadsToolsYml) {
  auto c = ParseCredentials("accessKey: RocketMQ\nsecretKey: 12345678\n");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->access_key, "RocketMQ");
  EXPECT_EQ(c->secret_key, "12345678");
  EXPECT_FALSE(c->security_token.has_value());
  auto t = ParseCredentials("accessKey: a\nsecretKey: b\nsecurityToken: tok\n");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->security_token, "tok");
}

TEST(CredentialsFileTest, MissingKeysAndFiles) {
  EXPECT_FALSE(ParseCredentials("accessKey: a\n").ok());
  EXPECT_FALSE(ParseCredentials("[").ok());
  apogee::testing::TempDir dir;
  EXPECT_TRUE(ReadCredentialsFile(dir.Join("none.yml")).status().Is(StatusCode::kNotFound));
  std::ofstream(dir.Join("bad.yml")) << "secretKey: hush-hush\n";
  auto bad = ReadCredentialsFile(dir.Join("bad.yml"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.yml"), std::string::npos);
  EXPECT_EQ(bad.status().message().find("hush-hush"), std::string::npos);
}

}  // namespace
}  // namespace apogee::acl
