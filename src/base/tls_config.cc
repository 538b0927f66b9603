#include "base/tls_config.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include "base/logging.h"
#include "base/string_util.h"

namespace apogee {
namespace {

// Keys a tls.properties file may set (Java's TlsHelper reads exactly these; mode and
// enable only come from the process's own configuration).
constexpr char kModeKey[] = "tls.server.mode";
constexpr char kEnableKey[] = "tls.enable";

void AddFileKeys(ConfigTable* t, TlsConfig* c) {
  t->Add("tls.test.mode.enable", &c->test_mode_enable,
         "TLS test mode (Java's default true): servers use a self-signed certificate made at "
         "start and ignore tls.server.certPath/keyPath, clients trust any server")
      .Add("tls.server.need.client.auth", &c->server_need_client_auth,
           "none | optional | require: whether the server asks TLS clients for a certificate")
      .Add("tls.server.keyPath", &c->server_key_path, "server private key (PEM)")
      .Add("tls.server.keyPassword", &c->server_key_password,
           "password of an encrypted tls.server.keyPath")
      .Add("tls.server.certPath", &c->server_cert_path, "server certificate chain (PEM)")
      .Add("tls.server.authClient", &c->server_auth_client,
           "verify client certificates against tls.server.trustCertPath (false: accept any)")
      .Add("tls.server.trustCertPath", &c->server_trust_cert_path,
           "CA certificates (PEM) that client certificates must chain to; empty = system CAs")
      .Add("tls.client.keyPath", &c->client_key_path,
           "private key (PEM) this process presents when it connects with TLS")
      .Add("tls.client.keyPassword", &c->client_key_password,
           "password of an encrypted tls.client.keyPath")
      .Add("tls.client.certPath", &c->client_cert_path,
           "certificate chain (PEM) this process presents when it connects with TLS")
      .Add("tls.client.authServer", &c->client_auth_server,
           "verify servers' certificates against tls.client.trustCertPath (false: accept any)")
      .Add("tls.client.trustCertPath", &c->client_trust_cert_path,
           "CA certificates (PEM) that servers' certificates must chain to; empty = system CAs");
}

bool IsRegularFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

Result<TlsMode> ParseTlsMode(std::string_view text) {
  const std::string lower = ToLowerAscii(TrimWhitespace(text));
  if (lower == "disabled") return TlsMode::kDisabled;
  if (lower == "permissive") return TlsMode::kPermissive;
  if (lower == "enforcing") return TlsMode::kEnforcing;
  return Status::InvalidArgument(fmt::format(
      "tls.server.mode '{}' is not one of disabled, permissive, enforcing", text));
}

Result<TlsClientAuth> ParseTlsClientAuth(std::string_view text) {
  const std::string lower = ToLowerAscii(TrimWhitespace(text));
  if (lower.empty() || lower == "none") return TlsClientAuth::kNone;
  if (lower == "optional") return TlsClientAuth::kOptional;
  if (lower == "require") return TlsClientAuth::kRequire;
  return Status::InvalidArgument(fmt::format(
      "tls.server.need.client.auth '{}' is not one of none, optional, require", text));
}

std::string_view TlsModeName(TlsMode mode) {
  switch (mode) {
    case TlsMode::kDisabled: return "disabled";
    case TlsMode::kPermissive: return "permissive";
    case TlsMode::kEnforcing: return "enforcing";
  }
  return "?";
}

void AddTlsKeys(ConfigTable* t, TlsConfig* c) {
  t->Add(kModeKey, &c->server_mode,
         "disabled | permissive | enforcing: plain only, plain and TLS on the same port (Java's "
         "default), TLS only")
      .Add(kEnableKey, &c->enable,
           "connect with TLS: registration with the NameServers, the slave's HA link and its "
           "metadata sync")
      .Add("tls.config.file", &c->config_file,
           "Java's tls.properties; when it exists its tls.* keys override these (not "
           "tls.server.mode, tls.enable)");
  AddFileKeys(t, c);
  t->Add("serverTlsHandshakeTimeoutMillis", &c->handshake_timeout_ms,
         "Apogee: close a connection whose TLS handshake is not done this long after its first "
         "byte",
         false, 1, INT64_MAX);
}

std::string MaskTlsSecrets(std::string_view properties_text) {
  std::string out;
  out.reserve(properties_text.size());
  for (std::string_view rest = properties_text; !rest.empty();) {
    const size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl == std::string_view::npos ? rest.size() : nl + 1);
    rest.remove_prefix(line.size());
    bool masked = false;
    for (std::string_view key : {"tls.server.keyPassword=", "tls.client.keyPassword="}) {
      if (line.substr(0, key.size()) == key && TrimWhitespace(line.substr(key.size())) != "") {
        out.append(key).append("******");
        if (line.back() == '\n') out.push_back('\n');
        masked = true;
      }
    }
    if (!masked) out.append(line);
  }
  return out;
}

Status ApplyTlsProperties(const std::map<std::string, std::string>& props, TlsConfig* tls,
                          std::vector<std::string>* ignored) {
  ConfigTable table;
  AddFileKeys(&table, tls);
  for (const auto& [key, value] : props) {
    if (!table.Has(key)) {
      if (ignored) ignored->push_back(key);
      continue;
    }
    APOGEE_RETURN_IF_ERROR(table.Set(key, value));
  }
  return Status::OK();
}

Status LoadTlsConfigFile(TlsConfig* tls, bool* loaded, std::vector<std::string>* ignored) {
  if (loaded) *loaded = false;
  if (tls->config_file.empty() || !IsRegularFile(tls->config_file)) return Status::OK();
  APOGEE_ASSIGN_OR_RETURN(auto props, ParsePropertiesFile(tls->config_file));
  Status st = ApplyTlsProperties(props, tls, ignored);
  if (!st.ok()) return st.Prefixed(tls->config_file);
  if (loaded) *loaded = true;
  return Status::OK();
}

Status ValidateTlsConfig(const TlsConfig& tls, bool as_server) {
  if (as_server) {
    APOGEE_ASSIGN_OR_RETURN(TlsMode mode, ParseTlsMode(tls.server_mode));
    APOGEE_RETURN_IF_ERROR(ParseTlsClientAuth(tls.server_need_client_auth).status());
    if (mode != TlsMode::kDisabled && !tls.test_mode_enable &&
        (tls.server_cert_path.empty() || tls.server_key_path.empty())) {
      return Status::InvalidArgument(fmt::format(
          "tls.server.mode={} with tls.test.mode.enable=false needs tls.server.certPath and "
          "tls.server.keyPath",
          tls.server_mode));
    }
  }
  if (!tls.test_mode_enable && tls.client_cert_path.empty() != tls.client_key_path.empty()) {
    return Status::InvalidArgument(
        "tls.client.certPath and tls.client.keyPath must be set together");
  }
  if (tls.handshake_timeout_ms <= 0) {
    return Status::InvalidArgument("serverTlsHandshakeTimeoutMillis must be positive");
  }
  return Status::OK();
}

Result<TlsConfig> ResolveTlsConfig(const TlsConfig& configured, bool as_server,
                                   std::string_view component) {
  TlsConfig tls = configured;
  bool loaded = false;
  std::vector<std::string> ignored;
  APOGEE_RETURN_IF_ERROR(LoadTlsConfigFile(&tls, &loaded, &ignored));
  APOGEE_RETURN_IF_ERROR(ValidateTlsConfig(tls, as_server));
  auto log = GetLogger(std::string(component));
  if (loaded) log->info("TLS settings read from {} (tls.config.file)", tls.config_file);
  for (const auto& key : ignored) {
    log->warn("{}: key {} ignored (a tls.properties file sets only tls.* keys other than "
              "tls.server.mode and tls.enable)",
              tls.config_file, key);
  }
  // Untouched defaults (Java's: permissive, test mode) are a note, not an alarm: the
  // operator asked for no TLS and plain clients work as before.
  const TlsConfig defaults;
  const bool untouched = tls.server_mode == defaults.server_mode && tls.test_mode_enable &&
                         !tls.enable && tls.server_cert_path.empty() &&
                         tls.server_key_path.empty();
  for (const auto& line : TlsConfigWarnings(tls, as_server)) {
    if (untouched) {
      log->info("TLS (defaults): {}", line);
    } else {
      log->warn("TLS: {}", line);
    }
  }
  return tls;
}

std::vector<std::string> TlsConfigWarnings(const TlsConfig& tls, bool as_server) {
  std::vector<std::string> out;
  if (as_server) {
    auto mode = ParseTlsMode(tls.server_mode);
    if (!mode.ok() || *mode == TlsMode::kDisabled) return out;
    if (tls.test_mode_enable) {
      out.push_back(fmt::format(
          "tls.test.mode.enable=true: TLS uses a self-signed certificate made at start{}; "
          "clients cannot verify this server (set tls.test.mode.enable=false and "
          "tls.server.certPath/keyPath)",
          tls.server_cert_path.empty() ? "" : " and tls.server.certPath/keyPath are ignored"));
    } else {
      auto auth = ParseTlsClientAuth(tls.server_need_client_auth);
      if (auth.ok() && *auth != TlsClientAuth::kNone && !tls.server_auth_client) {
        out.push_back(fmt::format(
            "tls.server.need.client.auth={} but tls.server.authClient=false: client "
            "certificates are requested and not verified (any certificate is accepted)",
            tls.server_need_client_auth));
      }
    }
    if (*mode == TlsMode::kPermissive) {
      out.push_back(
          "tls.server.mode=permissive: plain connections are accepted too (enforcing refuses "
          "them)");
    }
  }
  if (tls.enable && (tls.test_mode_enable || !tls.client_auth_server)) {
    out.push_back(
        "tls.enable=true without tls.client.authServer=true (and tls.test.mode.enable=false): "
        "outgoing TLS connections do not verify the server's certificate");
  }
  return out;
}

}  // namespace apogee
