// OpenSSL contexts for TLS connections, built from the tls.* settings (base/tls_config.h)
// with Java's TlsHelper semantics: test mode (a self-signed certificate made here, clients
// trusting anyone), certificate chain and key files (an encrypted key with its password),
// and peer verification only when tls.server.authClient / tls.client.authServer ask for
// it. TLS 1.2 and 1.3 only; renegotiation and compression off. No host name check, as in
// Java's client.
//
// Thread-safety: a context is immutable once built and is shared by every connection of
// a server or client.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <string>

#include "base/status.h"
#include "base/tls_config.h"

namespace apogee::net {

using TlsContext = boost::asio::ssl::context;

// The first byte of a TLS record carrying a handshake (ClientHello): how a permissive
// server tells TLS from RocketMQ's plain frames, whose first byte is the high byte of a
// length (0 for any frame under 16 MiB).
inline constexpr unsigned char kTlsHandshakeRecordType = 0x16;

// For a server in permissive or enforcing mode. Errors name the file or setting.
Result<std::shared_ptr<TlsContext>> MakeServerTlsContext(const TlsConfig& tls);
// For outgoing connections (tls.client.* keys).
Result<std::shared_ptr<TlsContext>> MakeClientTlsContext(const TlsConfig& tls);

// "handshake failed: <OpenSSL's reason>" for an error of a TLS operation.
std::string DescribeTlsError(const boost::system::error_code& ec);

}  // namespace apogee::net
