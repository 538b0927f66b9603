#include "testutil/tls_certs.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "testutil/test_util.h"

namespace apogee::testing {
namespace {

// Runs a shell command with its output in `dir`/openssl.log; prints the log on failure.
bool Run(const std::string& dir, const std::string& command) {
  const std::string log = dir + "/openssl.log";
  const std::string full = "cd '" + dir + "' && " + command + " >>'" + log + "' 2>&1";
  if (std::system(full.c_str()) == 0) return true;
  std::fprintf(stderr, "test certificates: '%s' failed:\n%s\n", command.c_str(),
               ReadFileOrEmpty(log).c_str());
  return false;
}

// An EC P-256 key and a certificate for `name` signed by `ca` (ca.pem / ca.key).
bool Issue(const std::string& dir, const std::string& name, const std::string& ca,
           const std::string& subject) {
  return Run(dir, "openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout " +
                      name + ".key -out " + name + ".csr -subj '" + subject + "'") &&
         Run(dir, "openssl x509 -req -in " + name + ".csr -CA " + ca + ".pem -CAkey " + ca +
                      ".key -CAcreateserial -out " + name + ".pem -days 2");
}

bool MakeCa(const std::string& dir, const std::string& name, const std::string& subject) {
  return Run(dir, "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout " +
                      name + ".key -out " + name + ".pem -days 2 -subj '" + subject + "'");
}

}  // namespace

bool MakeTestCerts(const std::string& dir, TestCerts* out) {
  if (!MakeCa(dir, "ca", "/CN=apogee-test-ca") || !MakeCa(dir, "rogue-ca", "/CN=rogue-ca") ||
      !Issue(dir, "server", "ca", "/CN=127.0.0.1") || !Issue(dir, "client", "ca", "/CN=client") ||
      !Issue(dir, "rogue-client", "rogue-ca", "/CN=rogue-client") ||
      !Run(dir, std::string("openssl pkcs8 -topk8 -v2 aes-256-cbc -in server.key -out "
                            "server.enc.key -passout pass:") +
                    TestCerts::kPassword)) {
    return false;
  }
  out->ca_cert = dir + "/ca.pem";
  out->server_cert = dir + "/server.pem";
  out->server_key = dir + "/server.key";
  out->server_key_encrypted = dir + "/server.enc.key";
  out->client_cert = dir + "/client.pem";
  out->client_key = dir + "/client.key";
  out->rogue_client_cert = dir + "/rogue-client.pem";
  out->rogue_client_key = dir + "/rogue-client.key";
  return true;
}

}  // namespace apogee::testing
