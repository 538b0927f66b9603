#include "net/tls_context.h"

#include <gtest/gtest.h>

#include "testutil/test_util.h"
#include "testutil/tls_certs.h"

namespace apogee::net {
namespace {

TEST(TlsContextTest, TestModeServerMakesItsOwnCertificate) {
  TlsConfig tls;  // Java's defaults: test mode
  auto ctx = MakeServerTlsContext(tls);
  ASSERT_TRUE(ctx.ok()) << ctx.status().ToString();
  EXPECT_NE(SSL_CTX_get0_certificate((*ctx)->native_handle()), nullptr);
  EXPECT_TRUE(MakeClientTlsContext(tls).ok());
}

TEST(TlsContextTest, LoadsFilesAndNamesTheOneThatFails) {
  testing::TempDir dir;
  testing::TestCerts certs;
  ASSERT_TRUE(testing::MakeTestCerts(dir.path(), &certs));
  TlsConfig tls;
  tls.test_mode_enable = false;
  tls.server_mode = "enforcing";
  tls.server_cert_path = certs.server_cert;
  tls.server_key_path = certs.server_key;
  tls.server_auth_client = true;
  tls.server_trust_cert_path = certs.ca_cert;
  tls.server_need_client_auth = "require";
  ASSERT_TRUE(MakeServerTlsContext(tls).ok());

  tls.server_key_path = certs.client_key;  // not the certificate's key
  auto mismatch = MakeServerTlsContext(tls);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.status().message().find(certs.client_key), std::string::npos)
      << mismatch.status().ToString();

  tls.server_key_path = certs.server_key;
  tls.server_trust_cert_path = dir.Join("none.pem");
  auto trust = MakeServerTlsContext(tls);
  ASSERT_FALSE(trust.ok());
  EXPECT_NE(trust.status().message().find("none.pem"), std::string::npos);

  tls.client_cert_path = certs.client_cert;
  tls.client_key_path = certs.client_key;
  tls.client_auth_server = true;
  tls.client_trust_cert_path = certs.ca_cert;
  EXPECT_TRUE(MakeClientTlsContext(tls).ok());
}

}  // namespace
}  // namespace apogee::net
