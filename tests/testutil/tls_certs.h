// Test certificates made at test time with the openssl CLI (no key is committed): a CA,
// a server and a client certificate it signed, a client certificate signed by another CA
// (which a server that authenticates clients must refuse), and the server key encrypted
// with a password (PKCS#8, as Java's tls.server.keyPassword expects).
#pragma once

#include <string>

namespace apogee::testing {

struct TestCerts {
  std::string ca_cert;
  std::string server_cert;
  std::string server_key;
  std::string server_key_encrypted;  // password: kPassword
  std::string client_cert;
  std::string client_key;
  std::string rogue_client_cert;  // signed by another CA
  std::string rogue_client_key;
  static constexpr const char* kPassword = "apogee-test-pass";
};

// Writes the files into `dir` (which must exist). False (with the openssl output printed
// to stderr) when the openssl CLI is missing or fails.
bool MakeTestCerts(const std::string& dir, TestCerts* out);

}  // namespace apogee::testing
