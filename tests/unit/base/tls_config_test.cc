#include "base/tls_config.h"

#include <gtest/gtest.h>

#include <fstream>

#include "testutil/test_util.h"

namespace apogee {
namespace {

TEST(TlsConfigTest, JavaDefaults) {
  TlsConfig tls;
  EXPECT_EQ(tls.server_mode, "permissive");
  EXPECT_FALSE(tls.enable);
  EXPECT_TRUE(tls.test_mode_enable);
  EXPECT_EQ(tls.server_need_client_auth, "none");
  EXPECT_EQ(tls.config_file, "/etc/rocketmq/tls.properties");
  EXPECT_FALSE(tls.server_auth_client);
  EXPECT_FALSE(tls.client_auth_server);
}

TEST(TlsConfigTest, ParsesModesAndClientAuthCaseInsensitively) {
  EXPECT_EQ(*ParseTlsMode("enforcing"), TlsMode::kEnforcing);
  EXPECT_EQ(*ParseTlsMode(" Permissive "), TlsMode::kPermissive);
  EXPECT_EQ(*ParseTlsMode("DISABLED"), TlsMode::kDisabled);
  EXPECT_FALSE(ParseTlsMode("strict").ok());
  EXPECT_EQ(*ParseTlsClientAuth("REQUIRE"), TlsClientAuth::kRequire);
  EXPECT_EQ(*ParseTlsClientAuth("optional"), TlsClientAuth::kOptional);
  EXPECT_EQ(*ParseTlsClientAuth(""), TlsClientAuth::kNone);
  auto bad = ParseTlsClientAuth("want");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("tls.server.need.client.auth"), std::string::npos);
}

TEST(TlsConfigTest, KeysAreDeclaredAndPasswordsMaskedInListings) {
  TlsConfig tls;
  ConfigTable table;
  AddTlsKeys(&table, &tls);
  for (const char* key :
       {"tls.server.mode", "tls.enable", "tls.config.file", "tls.test.mode.enable",
        "tls.server.need.client.auth", "tls.server.keyPath", "tls.server.keyPassword",
        "tls.server.certPath", "tls.server.authClient", "tls.server.trustCertPath",
        "tls.client.keyPath", "tls.client.keyPassword", "tls.client.certPath",
        "tls.client.authServer", "tls.client.trustCertPath", "serverTlsHandshakeTimeoutMillis"}) {
    EXPECT_TRUE(table.Has(key)) << key;
  }
  ASSERT_TRUE(table.Set("tls.server.keyPassword", "s3cret").ok());
  ASSERT_TRUE(table.Set("tls.server.mode", "enforcing").ok());
  EXPECT_EQ(tls.server_key_password, "s3cret");
  EXPECT_EQ(tls.server_mode, "enforcing");
  const std::string listed = MaskTlsSecrets(table.ToPropertiesText());
  EXPECT_EQ(listed.find("s3cret"), std::string::npos);
  EXPECT_NE(listed.find("tls.server.keyPassword=******\n"), std::string::npos) << listed;
  EXPECT_NE(listed.find("tls.client.keyPassword=\n"), std::string::npos) << listed;  // unset
  EXPECT_NE(listed.find("tls.server.mode=enforcing\n"), std::string::npos) << listed;
}

TEST(TlsConfigTest, ConfigFileOverridesAllButModeAndEnable) {
  testing::TempDir dir;
  const std::string path = dir.Join("tls.properties");
  std::ofstream(path) << "tls.test.mode.enable=false\n"
                      << "tls.server.certPath=/x/server.pem\n"
                      << "tls.server.mode=disabled\n"
                      << "tls.enable=true\n";
  TlsConfig tls;
  tls.server_mode = "enforcing";
  tls.server_cert_path = "/from/broker.conf.pem";
  tls.config_file = path;
  bool loaded = false;
  std::vector<std::string> ignored;
  ASSERT_TRUE(LoadTlsConfigFile(&tls, &loaded, &ignored).ok());
  EXPECT_TRUE(loaded);
  EXPECT_FALSE(tls.test_mode_enable);
  EXPECT_EQ(tls.server_cert_path, "/x/server.pem");
  EXPECT_EQ(tls.server_mode, "enforcing");
  EXPECT_FALSE(tls.enable);
  EXPECT_EQ(ignored, (std::vector<std::string>{"tls.enable", "tls.server.mode"}));
}

TEST(TlsConfigTest, MissingConfigFileIsSkippedAndABadOneNamed) {
  testing::TempDir dir;
  TlsConfig tls;
  tls.config_file = dir.Join("absent.properties");
  bool loaded = true;
  EXPECT_TRUE(LoadTlsConfigFile(&tls, &loaded).ok());
  EXPECT_FALSE(loaded);
  tls.config_file = dir.Join("bad.properties");
  std::ofstream(tls.config_file) << "tls.server.authClient=maybe\n";
  Status st = LoadTlsConfigFile(&tls);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("bad.properties"), std::string::npos) << st.ToString();
}

TEST(TlsConfigTest, ValidationAndWarnings) {
  TlsConfig tls;
  tls.server_mode = "enforcing";
  tls.test_mode_enable = false;
  EXPECT_FALSE(ValidateTlsConfig(tls, true).ok()) << "no certificate";
  tls.server_cert_path = "a.pem";
  tls.server_key_path = "a.key";
  EXPECT_TRUE(ValidateTlsConfig(tls, true).ok());
  tls.server_need_client_auth = "require";
  auto warnings = TlsConfigWarnings(tls, true);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("tls.server.authClient=false"), std::string::npos);
  tls.server_auth_client = true;
  EXPECT_TRUE(TlsConfigWarnings(tls, true).empty());
  tls.client_cert_path = "c.pem";
  EXPECT_FALSE(ValidateTlsConfig(tls, false).ok()) << "certificate without key";
  TlsConfig defaults;
  EXPECT_EQ(TlsConfigWarnings(defaults, true).size(), 2u);  // test mode, permissive
}

}  // namespace
}  // namespace apogee
