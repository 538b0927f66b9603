#include "net/tls_context.h"

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/verify_context.hpp>

namespace apogee::net {
namespace {

namespace ssl = boost::asio::ssl;

// Session id context: OpenSSL refuses to resume a session on a server that verifies
// peers unless one is set.
constexpr unsigned char kSessionIdContext[] = "apogee";
// Java's SelfSignedCertificate is valid for a year from now; so is ours.
constexpr long kSelfSignedValiditySeconds = 365L * 24 * 3600;

std::string OpenSslErrors() {
  std::string out;
  while (unsigned long err = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(err, buf, sizeof(buf));
    out += (out.empty() ? "" : "; ") + std::string(buf);
  }
  return out.empty() ? "unknown OpenSSL error" : out;
}

Status FileError(std::string_view what, const std::string& path,
                 const boost::system::error_code& ec) {
  return Status::InvalidArgument(fmt::format("{} {}: {}", what, path, DescribeTlsError(ec)));
}

std::shared_ptr<TlsContext> NewContext(TlsContext::method method) {
  auto ctx = std::make_shared<TlsContext>(method);
  ctx->set_options(TlsContext::default_workarounds | TlsContext::no_sslv2 |
                   TlsContext::no_sslv3 | TlsContext::no_tlsv1 | TlsContext::no_tlsv1_1 |
                   TlsContext::no_compression);
  SSL_CTX_set_options(ctx->native_handle(), SSL_OP_NO_RENEGOTIATION);
  // Idle connections give their record buffers back.
  SSL_CTX_set_mode(ctx->native_handle(), SSL_MODE_RELEASE_BUFFERS);
  return ctx;
}

void TrustAnyPeer(TlsContext* ctx) {
  ctx->set_verify_callback([](bool, ssl::verify_context&) { return true; });
}

Status LoadTrust(TlsContext* ctx, const std::string& trust_path) {
  boost::system::error_code ec;
  if (trust_path.empty()) {
    ctx->set_default_verify_paths(ec);
    if (ec) return Status::InvalidArgument("cannot load the system CA certificates: " + ec.message());
    return Status::OK();
  }
  ctx->load_verify_file(trust_path, ec);
  if (ec) return FileError("cannot load trusted certificates", trust_path, ec);
  return Status::OK();
}

Status LoadIdentity(TlsContext* ctx, const std::string& cert_path, const std::string& key_path,
                    const std::string& password, std::string_view side) {
  boost::system::error_code ec;
  ctx->use_certificate_chain_file(cert_path, ec);
  if (ec) return FileError(fmt::format("cannot load the {} certificate", side), cert_path, ec);
  ctx->set_password_callback(
      [password](size_t, TlsContext::password_purpose) { return password; }, ec);
  ctx->use_private_key_file(key_path, TlsContext::pem, ec);
  if (ec) {
    return FileError(fmt::format("cannot load the {} private key (wrong password, or not the "
                                 "certificate's key?)",
                                 side),
                     key_path, ec);
  }
  if (SSL_CTX_check_private_key(ctx->native_handle()) != 1) {
    return Status::InvalidArgument(fmt::format("{} private key {} does not match certificate {}",
                                               side, key_path, cert_path));
  }
  return Status::OK();
}

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};

// Test mode: an EC P-256 key and a self-signed certificate (CN=apogee), made in memory.
Status UseSelfSigned(TlsContext* ctx) {
  std::unique_ptr<EVP_PKEY, PkeyFree> key(EVP_EC_gen("P-256"));
  std::unique_ptr<X509, X509Free> cert(X509_new());
  if (!key || !cert) return Status::Internal("self-signed certificate: " + OpenSslErrors());
  uint64_t serial = 0;
  if (RAND_bytes(reinterpret_cast<unsigned char*>(&serial), sizeof(serial)) != 1) {
    return Status::Internal("self-signed certificate: no random serial: " + OpenSslErrors());
  }
  serial &= 0x7FFFFFFFFFFFFFFFull;  // a positive INTEGER
  X509_NAME* name = X509_get_subject_name(cert.get());
  bool ok = X509_set_version(cert.get(), 2) == 1 &&
            ASN1_INTEGER_set_uint64(X509_get_serialNumber(cert.get()), serial) == 1 &&
            X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) != nullptr &&
            X509_gmtime_adj(X509_getm_notAfter(cert.get()), kSelfSignedValiditySeconds) != nullptr &&
            X509_set_pubkey(cert.get(), key.get()) == 1 &&
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                       reinterpret_cast<const unsigned char*>("apogee"), -1, -1,
                                       0) == 1 &&
            X509_set_issuer_name(cert.get(), name) == 1 &&
            X509_sign(cert.get(), key.get(), EVP_sha256()) > 0 &&
            SSL_CTX_use_certificate(ctx->native_handle(), cert.get()) == 1 &&
            SSL_CTX_use_PrivateKey(ctx->native_handle(), key.get()) == 1;
  if (!ok) return Status::Internal("self-signed certificate: " + OpenSslErrors());
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<TlsContext>> MakeServerTlsContext(const TlsConfig& tls) {
  APOGEE_RETURN_IF_ERROR(ValidateTlsConfig(tls, /*as_server=*/true));
  auto ctx = NewContext(TlsContext::tls_server);
  SSL_CTX_set_session_id_context(ctx->native_handle(), kSessionIdContext,
                                 sizeof(kSessionIdContext) - 1);
  if (tls.test_mode_enable) {
    // Java: a self-signed certificate, client certificates optional and not checked.
    APOGEE_RETURN_IF_ERROR(UseSelfSigned(ctx.get()));
    ctx->set_verify_mode(ssl::verify_peer);
    TrustAnyPeer(ctx.get());
    return ctx;
  }
  APOGEE_RETURN_IF_ERROR(LoadIdentity(ctx.get(), tls.server_cert_path, tls.server_key_path,
                                      tls.server_key_password, "server"));
  APOGEE_ASSIGN_OR_RETURN(TlsClientAuth auth, ParseTlsClientAuth(tls.server_need_client_auth));
  switch (auth) {
    case TlsClientAuth::kNone: ctx->set_verify_mode(ssl::verify_none); break;
    case TlsClientAuth::kOptional: ctx->set_verify_mode(ssl::verify_peer); break;
    case TlsClientAuth::kRequire:
      ctx->set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
      break;
  }
  if (tls.server_auth_client) {
    APOGEE_RETURN_IF_ERROR(LoadTrust(ctx.get(), tls.server_trust_cert_path));
  } else {
    TrustAnyPeer(ctx.get());
  }
  return ctx;
}

Result<std::shared_ptr<TlsContext>> MakeClientTlsContext(const TlsConfig& tls) {
  APOGEE_RETURN_IF_ERROR(ValidateTlsConfig(tls, /*as_server=*/false));
  auto ctx = NewContext(TlsContext::tls_client);
  if (tls.test_mode_enable) {
    // Java: trust any server, present no certificate.
    ctx->set_verify_mode(ssl::verify_none);
    return ctx;
  }
  if (!tls.client_cert_path.empty()) {
    APOGEE_RETURN_IF_ERROR(LoadIdentity(ctx.get(), tls.client_cert_path, tls.client_key_path,
                                        tls.client_key_password, "client"));
  }
  if (tls.client_auth_server) {
    APOGEE_RETURN_IF_ERROR(LoadTrust(ctx.get(), tls.client_trust_cert_path));
    ctx->set_verify_mode(ssl::verify_peer);
  } else {
    ctx->set_verify_mode(ssl::verify_none);
  }
  return ctx;
}

std::string DescribeTlsError(const boost::system::error_code& ec) {
  if (ec == ssl::error::stream_truncated) return "peer closed the connection during TLS";
  std::string text = ec.message();
  if (ec.category() == boost::asio::error::get_ssl_category()) {
    char buf[256];
    ERR_error_string_n(static_cast<unsigned long>(ec.value()), buf, sizeof(buf));
    text = buf;
  }
  return text;
}

}  // namespace apogee::net
