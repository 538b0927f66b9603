#include "ha/blocking_socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <mutex>

#include "net/host_port.h"
#include "net/tls_context.h"

namespace apogee::ha {
namespace {

void SetNoDelay(int fd) {
  int one = 1;
  (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int PollMillis(std::chrono::milliseconds timeout) {
  return static_cast<int>(std::min<int64_t>(std::max<int64_t>(timeout.count(), 0), 1 << 30));
}

}  // namespace

struct BlockingSocket::TlsState {
  explicit TlsState(SSL* s) : ssl(s) {}
  ~TlsState() { SSL_free(ssl); }
  SSL* ssl;
  std::mutex mu;  // one OpenSSL call at a time; never held while polling
};

BlockingSocket::BlockingSocket() = default;
BlockingSocket::BlockingSocket(int fd) : fd_(fd) {}

BlockingSocket::~BlockingSocket() {
  tls_.reset();
  if (fd_ >= 0) ::close(fd_);
}

BlockingSocket::BlockingSocket(BlockingSocket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), tls_(std::move(other.tls_)) {}

BlockingSocket& BlockingSocket::operator=(BlockingSocket&& other) noexcept {
  if (this != &other) {
    tls_.reset();
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    tls_ = std::move(other.tls_);
  }
  return *this;
}

namespace {

std::string OpenSslError() {
  const unsigned long err = ERR_get_error();
  if (err == 0) return "connection closed";
  char buf[256];
  ERR_error_string_n(err, buf, sizeof(buf));
  ERR_clear_error();
  return buf;
}

}  // namespace

template <typename Op>
Result<int> BlockingSocket::TlsCall(Op op, std::chrono::milliseconds timeout, bool deadline,
                                    const char* what) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int rc = 0;
    int err = SSL_ERROR_NONE;
    std::string reason;
    {
      std::lock_guard<std::mutex> lock(tls_->mu);
      ERR_clear_error();
      rc = op(tls_->ssl);
      if (rc <= 0) {
        err = SSL_get_error(tls_->ssl, rc);
        if (err != SSL_ERROR_WANT_READ && err != SSL_ERROR_WANT_WRITE) reason = OpenSslError();
      }
    }
    if (rc > 0) return rc;
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) {
      // A handshake has one deadline however the peer dribbles; data calls wait per call.
      auto wait = timeout;
      if (deadline) {
        wait = std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now());
        if (wait.count() <= 0) {
          return Status::Timeout(fmt::format("HA TLS {} not done within {} ms", what,
                                             timeout.count()));
        }
      }
      Status ready = WaitFor(err == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, wait);
      if (!ready.ok() && deadline && ready.code() == StatusCode::kTimeout) {
        return Status::Timeout(fmt::format("HA TLS {} not done within {} ms", what,
                                           timeout.count()));
      }
      APOGEE_RETURN_IF_ERROR(ready);
      continue;
    }
    if (err == SSL_ERROR_ZERO_RETURN) return Status::Unavailable("HA peer closed the connection");
    return Status::Unavailable(fmt::format("HA TLS {} failed: {}", what, reason));
  }
}

Status BlockingSocket::Handshake(ssl_ctx_st* ctx, bool server, std::chrono::milliseconds timeout) {
  SSL* ssl = SSL_new(ctx);
  if (ssl == nullptr) return Status::Internal("HA TLS: SSL_new failed: " + OpenSslError());
  tls_ = std::make_unique<TlsState>(ssl);
  SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  if (SSL_set_fd(ssl, fd_) != 1) return Status::Internal("HA TLS: SSL_set_fd failed");
  if (server) {
    SSL_set_accept_state(ssl);
  } else {
    SSL_set_connect_state(ssl);
  }
  Result<int> done = TlsCall([](SSL* s) { return SSL_do_handshake(s); }, timeout, true,
                             "handshake");
  if (!done.ok()) {
    tls_.reset();
    return done.status();
  }
  return Status::OK();
}

Status BlockingSocket::StartTlsClient(ssl_ctx_st* ctx, std::chrono::milliseconds timeout) {
  return Handshake(ctx, /*server=*/false, timeout);
}

Status BlockingSocket::NegotiateServer(ssl_ctx_st* ctx, bool allow_plain,
                                       std::chrono::milliseconds first_byte_timeout,
                                       std::chrono::milliseconds handshake_timeout) {
  if (ctx == nullptr && allow_plain) return Status::OK();
  APOGEE_RETURN_IF_ERROR(WaitFor(POLLIN, first_byte_timeout));
  unsigned char first = 0;
  ssize_t r = ::recv(fd_, &first, 1, MSG_PEEK | MSG_DONTWAIT);
  if (r == 0) return Status::Unavailable("HA peer closed the connection");
  if (r < 0) return Status::FromErrno(errno, "HA recv");
  if (first == net::kTlsHandshakeRecordType && ctx != nullptr) {
    return Handshake(ctx, /*server=*/true, handshake_timeout);
  }
  if (!allow_plain) {
    return Status::PermissionDenied(fmt::format(
        "plain HA connection refused (first byte 0x{:02x} is no TLS handshake; "
        "tls.server.mode=enforcing)",
        first));
  }
  return Status::OK();
}

Result<BlockingSocket> BlockingSocket::Listen(const std::string& host, uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* res = nullptr;
  const std::string port_text = std::to_string(port);
  int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), port_text.c_str(), &hints, &res);
  if (rc != 0) {
    return Status::InvalidArgument(
        fmt::format("HA listen address {}:{}: {}", host, port, gai_strerror(rc)));
  }
  Status last = Status::IOError(fmt::format("HA listen {}:{}: no address", host, port));
  for (addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
    BlockingSocket s(
        ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol));
    if (!s.valid()) {
      last = Status::FromErrno(errno, "HA socket");
      continue;
    }
    int one = 1;
    (void)setsockopt(s.fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (::bind(s.fd_, ai->ai_addr, ai->ai_addrlen) != 0) {
      last = Status::FromErrno(errno, fmt::format("HA bind {}:{}", host, port));
      continue;
    }
    if (::listen(s.fd_, 16) != 0) {
      last = Status::FromErrno(errno, fmt::format("HA listen {}:{}", host, port));
      continue;
    }
    freeaddrinfo(res);
    return s;
  }
  freeaddrinfo(res);
  return last;
}

Result<BlockingSocket> BlockingSocket::Connect(const std::string& address,
                                               std::chrono::milliseconds timeout) {
  APOGEE_ASSIGN_OR_RETURN(net::HostPort hp, net::ParseHostPort(address));
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string port_text = std::to_string(hp.port);
  int rc = getaddrinfo(hp.host.c_str(), port_text.c_str(), &hints, &res);
  if (rc != 0) {
    return Status::Unavailable(fmt::format("resolve HA master {}: {}", address, gai_strerror(rc)));
  }
  Status last = Status::Unavailable(fmt::format("connect HA master {}: no address", address));
  for (addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
    BlockingSocket s(
        ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol));
    if (!s.valid()) {
      last = Status::FromErrno(errno, "HA socket");
      continue;
    }
    if (::connect(s.fd_, ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS) {
      last = Status::FromErrno(errno, fmt::format("connect HA master {}", address));
      continue;
    }
    Status ready = s.WaitFor(POLLOUT, timeout);
    int err = 0;
    socklen_t len = sizeof(err);
    if (ready.ok() && getsockopt(s.fd_, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err != 0) {
      ready = Status::FromErrno(err, fmt::format("connect HA master {}", address));
    }
    if (!ready.ok()) {
      last = ready;
      continue;
    }
    SetNoDelay(s.fd_);
    freeaddrinfo(res);
    return s;
  }
  freeaddrinfo(res);
  return last;
}

Status BlockingSocket::WaitFor(short events, std::chrono::milliseconds timeout) {
  pollfd p{fd_, events, 0};
  for (;;) {
    int rc = ::poll(&p, 1, PollMillis(timeout));
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) return Status::FromErrno(errno, "HA poll");
    if (rc == 0) return Status::Timeout("HA socket: no progress within the timeout");
    return Status::OK();
  }
}

Result<BlockingSocket> BlockingSocket::Accept(std::chrono::milliseconds timeout) {
  APOGEE_RETURN_IF_ERROR(WaitFor(POLLIN, timeout));
  int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (fd < 0) {
    if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED) {
      return Status::Timeout("HA accept: connection went away");
    }
    return Status::FromErrno(errno, "HA accept");
  }
  SetNoDelay(fd);
  return BlockingSocket(fd);
}

Status BlockingSocket::WriteAll(const void* data, size_t n, std::chrono::milliseconds timeout) {
  const char* p = static_cast<const char*>(data);
  if (tls_) {
    while (n > 0) {
      const int chunk = static_cast<int>(std::min<size_t>(n, 1 << 30));
      APOGEE_ASSIGN_OR_RETURN(int w, TlsCall([&](SSL* s) { return SSL_write(s, p, chunk); },
                                             timeout, false, "write"));
      p += w;
      n -= static_cast<size_t>(w);
    }
    return Status::OK();
  }
  while (n > 0) {
    ssize_t w = ::send(fd_, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w > 0) {
      p += w;
      n -= static_cast<size_t>(w);
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      APOGEE_RETURN_IF_ERROR(WaitFor(POLLOUT, timeout));
      continue;
    }
    return Status::FromErrno(errno, "HA send");
  }
  return Status::OK();
}

Result<size_t> BlockingSocket::ReadSome(void* data, size_t n, std::chrono::milliseconds timeout) {
  if (tls_) {
    const int chunk = static_cast<int>(std::min<size_t>(n, 1 << 30));
    APOGEE_ASSIGN_OR_RETURN(int r, TlsCall([&](SSL* s) { return SSL_read(s, data, chunk); },
                                           timeout, false, "read"));
    return static_cast<size_t>(r);
  }
  for (;;) {
    ssize_t r = ::recv(fd_, data, n, MSG_DONTWAIT);
    if (r > 0) return static_cast<size_t>(r);
    if (r == 0) return Status::Unavailable("HA peer closed the connection");
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return Status::FromErrno(errno, "HA recv");
    APOGEE_RETURN_IF_ERROR(WaitFor(POLLIN, timeout));
  }
}

void BlockingSocket::Shutdown() {
  if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

uint16_t BlockingSocket::local_port() const {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
  if (addr.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  if (addr.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
  return 0;
}

std::string BlockingSocket::peer_address() const {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getpeername(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return "unknown";
  char host[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    auto* in = reinterpret_cast<sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
    return fmt::format("{}:{}", host, ntohs(in->sin_port));
  }
  auto* in6 = reinterpret_cast<sockaddr_in6*>(&addr);
  inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
  return fmt::format("[{}]:{}", host, ntohs(in6->sin6_port));
}

}  // namespace apogee::ha
