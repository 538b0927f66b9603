// A blocking TCP socket with poll()-based timeouts, for HA's thread-per-connection design
// (see README.md: a master serves one or two slaves, each with a reader and a writer thread,
// as Java's HAConnection does; blocking calls keep partial-write and back-pressure handling
// trivially correct). Shutdown() from another thread wakes a blocked call.
//
// TLS (docs/security.md, "TLS"): after StartTlsClient / NegotiateServer chose TLS, ReadSome
// and WriteAll go through OpenSSL. The master's reader and writer threads still use one
// socket at the same time: OpenSSL calls are serialized by a mutex that is never held
// while waiting for the socket (the fd is non-blocking; a call that wants to wait
// releases it and polls).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"

struct ssl_ctx_st;  // OpenSSL's SSL_CTX

namespace apogee::ha {

class BlockingSocket {
 public:
  // Out of line: TlsState is complete only in the .cc.
  BlockingSocket();
  explicit BlockingSocket(int fd);
  ~BlockingSocket();
  BlockingSocket(BlockingSocket&& other) noexcept;
  BlockingSocket& operator=(BlockingSocket&& other) noexcept;
  BlockingSocket(const BlockingSocket&) = delete;
  BlockingSocket& operator=(const BlockingSocket&) = delete;

  // Listens on host:port (port 0 picks a free one; see local_port()).
  static Result<BlockingSocket> Listen(const std::string& host, uint16_t port);
  // Connects to "host:port" within `timeout`.
  static Result<BlockingSocket> Connect(const std::string& address,
                                        std::chrono::milliseconds timeout);

  // Waits up to `timeout` for a connection; Timeout when none came.
  Result<BlockingSocket> Accept(std::chrono::milliseconds timeout);
  // Writes every byte, or fails (peer gone, Shutdown(), nothing accepted within `timeout`).
  Status WriteAll(const void* data, size_t n, std::chrono::milliseconds timeout);
  // Reads at least one byte (returns the count) within `timeout`; Timeout when nothing
  // arrived, Unavailable when the peer closed.
  Result<size_t> ReadSome(void* data, size_t n, std::chrono::milliseconds timeout);

  // Client side: a TLS handshake that must finish within `timeout`.
  Status StartTlsClient(ssl_ctx_st* ctx, std::chrono::milliseconds timeout);
  // Server side (tls.server.mode): waits up to `first_byte_timeout` for the peer's first
  // byte; a TLS handshake record (0x16) starts a handshake that must finish within
  // `handshake_timeout`; anything else stays plain when `allow_plain`, else is refused.
  // A null `ctx` with allow_plain keeps the socket plain without looking.
  Status NegotiateServer(ssl_ctx_st* ctx, bool allow_plain,
                         std::chrono::milliseconds first_byte_timeout,
                         std::chrono::milliseconds handshake_timeout);
  bool tls() const { return tls_ != nullptr; }

  // Wakes blocked calls on other threads; the fd stays open until destruction.
  void Shutdown();
  bool valid() const { return fd_ >= 0; }
  uint16_t local_port() const;
  std::string peer_address() const;

 private:
  struct TlsState;
  Status WaitFor(short events, std::chrono::milliseconds timeout);
  Status Handshake(ssl_ctx_st* ctx, bool server, std::chrono::milliseconds timeout);
  // One OpenSSL call retried until it makes progress: >0 bytes (or 1 for a handshake).
  template <typename Op>
  Result<int> TlsCall(Op op, std::chrono::milliseconds timeout, bool deadline, const char* what);

  int fd_ = -1;
  std::unique_ptr<TlsState> tls_;
};

}  // namespace apogee::ha
