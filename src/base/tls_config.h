// TLS settings under RocketMQ's key names (Java's TlsSystemConfig: tls.server.mode,
// tls.enable, tls.config.file, tls.test.mode.enable, tls.server.* and tls.client.*), as
// plain data every module may carry (the servers read them from broker.conf / namesrv.conf,
// the HA link and the client library get them from their owners). Building an OpenSSL
// context from them is net/tls_context.h's job.
//
// Java's semantics, kept on purpose (docs/security.md, "TLS"):
// - tls.server.mode: disabled (plain only), permissive (plain and TLS on one port, told
//   apart by the first byte; Java's default), enforcing (TLS only).
// - tls.test.mode.enable (default true): a server uses a self-signed certificate made at
//   start and ignores tls.server.certPath/keyPath; a client trusts any server and sends no
//   certificate. Production set it to false.
// - tls.server.authClient / tls.client.authServer (default false): without them the peer's
//   certificate is accepted whoever signed it; with them it must chain to trustCertPath
//   (or the system CAs when that is empty). tls.server.need.client.auth = none | optional |
//   require says whether the server asks for a client certificate at all.
// - tls.config.file (Java's tls.properties, default /etc/rocketmq/tls.properties): when the
//   file exists its tls.* keys override the ones set elsewhere, except tls.server.mode and
//   tls.enable (Java's TlsHelper precedence).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/config_table.h"
#include "base/status.h"

namespace apogee {

enum class TlsMode { kDisabled, kPermissive, kEnforcing };
enum class TlsClientAuth { kNone, kOptional, kRequire };

inline constexpr std::string_view kDefaultTlsConfigFile = "/etc/rocketmq/tls.properties";
inline constexpr int64_t kDefaultTlsHandshakeTimeoutMillis = 10'000;

struct TlsConfig {
  std::string server_mode = "permissive";  // tls.server.mode
  bool enable = false;                     // tls.enable: this process's outgoing connections
  std::string config_file = std::string(kDefaultTlsConfigFile);  // tls.config.file
  bool test_mode_enable = true;                                  // tls.test.mode.enable

  std::string server_need_client_auth = "none";  // none | optional | require
  std::string server_key_path;
  std::string server_key_password;
  std::string server_cert_path;
  bool server_auth_client = false;
  std::string server_trust_cert_path;

  std::string client_key_path;
  std::string client_key_password;
  std::string client_cert_path;
  bool client_auth_server = false;
  std::string client_trust_cert_path;

  // Apogee (serverTlsHandshakeTimeoutMillis): a TLS handshake must finish this long after
  // its first byte, or the connection is closed (Netty's SslHandler default, 10 s).
  int64_t handshake_timeout_ms = kDefaultTlsHandshakeTimeoutMillis;
};

Result<TlsMode> ParseTlsMode(std::string_view text);
Result<TlsClientAuth> ParseTlsClientAuth(std::string_view text);
std::string_view TlsModeName(TlsMode mode);

// Declares the tls.* keys (and serverTlsHandshakeTimeoutMillis) on a server's table.
void AddTlsKeys(ConfigTable* table, TlsConfig* tls);

// `key=value` lines with the values of tls.server.keyPassword and tls.client.keyPassword
// replaced by "******" (when set): what config listings (-p, GET_BROKER_CONFIG,
// GET_NAMESRV_CONFIG) show.
std::string MaskTlsSecrets(std::string_view properties_text);

// Applies tls.* keys from properties (a tls.properties file's content) with Java's
// precedence: everything except tls.server.mode and tls.enable. Other keys are appended
// to `ignored`.
Status ApplyTlsProperties(const std::map<std::string, std::string>& props, TlsConfig* tls,
                          std::vector<std::string>* ignored);

// Reads tls->config_file when it exists (a missing file is skipped, as Java does; an
// unreadable or malformed one is an error naming it) and applies it as above. Sets
// `*loaded` to whether a file was read; keys it ignored (Java ignores them too) go to
// `ignored` for a warning.
Status LoadTlsConfigFile(TlsConfig* tls, bool* loaded = nullptr,
                         std::vector<std::string>* ignored = nullptr);

// Mode and client-auth names parse, a non-test server in a TLS mode names its
// certificate and key, a non-test client names both or neither of its certificate and key.
Status ValidateTlsConfig(const TlsConfig& tls, bool as_server);

// What a process does at start: reads tls.config.file over `configured`, validates
// (as_server: the tls.server.* side too) and logs, on the `component` logger, the file it
// read, the keys it ignored and every TlsConfigWarnings line (at warn once any TLS setting
// was changed from Java's defaults, at info otherwise).
Result<TlsConfig> ResolveTlsConfig(const TlsConfig& configured, bool as_server,
                                   std::string_view component);

// Lines that describe settings Java accepts but that leave a connection unauthenticated
// (test mode, a requested client certificate that is not verified, ...), for a loud
// warning at start.
std::vector<std::string> TlsConfigWarnings(const TlsConfig& tls, bool as_server);

}  // namespace apogee
