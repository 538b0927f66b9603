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

#include "net/host_port.h"

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

BlockingSocket::~BlockingSocket() {
  if (fd_ >= 0) ::close(fd_);
}

BlockingSocket::BlockingSocket(BlockingSocket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)) {}

BlockingSocket& BlockingSocket::operator=(BlockingSocket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
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
