#include "testutil/tcp_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace apogee::testing {
namespace {

// Per direction, stop reading once this much is buffered for a slow writer.
constexpr size_t kMaxBuffered = 1 << 20;
constexpr size_t kReadChunk = 64 * 1024;

void SetNonBlocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK); }

void SetNoDelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

// A blocking connect to the target (loopback: answers at once), then non-blocking.
int ConnectTo(const std::string& host, uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1 ||
      connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  SetNonBlocking(fd);
  SetNoDelay(fd);
  return fd;
}

// Bytes read from one socket and not yet written to the other.
struct Buffer {
  std::string data;
  size_t pos = 0;
  size_t size() const { return data.size() - pos; }
};

// Reads what is available into `buf`; false on EOF or a hard error.
bool ReadInto(int fd, Buffer* buf) {
  char chunk[kReadChunk];
  ssize_t n = read(fd, chunk, sizeof(chunk));
  if (n > 0) {
    if (buf->pos == buf->data.size()) {
      buf->data.clear();
      buf->pos = 0;
    }
    buf->data.append(chunk, static_cast<size_t>(n));
    return true;
  }
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return true;
  return false;
}

// Writes what it can from `buf`; the byte count, or -1 on a hard error.
ssize_t WriteFrom(int fd, Buffer* buf) {
  if (buf->size() == 0) return 0;
  ssize_t n = send(fd, buf->data.data() + buf->pos, buf->size(), MSG_NOSIGNAL);
  if (n > 0) {
    buf->pos += static_cast<size_t>(n);
    return n;
  }
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
  return -1;
}

}  // namespace

struct TcpProxy::Pipe {
  int client_fd = -1;
  int target_fd = -1;
  Buffer to_target;
  Buffer to_client;
  bool closed = false;

  void Close() {
    if (closed) return;
    // Best effort: what was already read still reaches its peer before the close, as a
    // peer's FIN would follow its last bytes.
    WriteFrom(target_fd, &to_target);
    WriteFrom(client_fd, &to_client);
    close(client_fd);
    close(target_fd);
    closed = true;
  }
};

TcpProxy::TcpProxy(std::string target_host, uint16_t target_port)
    : target_host_(std::move(target_host)), target_port_(target_port) {}

TcpProxy::~TcpProxy() { Stop(); }

bool TcpProxy::Start() {
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (listen_fd_ < 0) {
    error_ = std::string("socket: ") + std::strerror(errno);
    return false;
  }
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(listen_fd_, 64) != 0 ||
      getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    error_ = std::string("bind/listen on 127.0.0.1: ") + std::strerror(errno);
    close(listen_fd_);
    listen_fd_ = -1;
    return false;
  }
  port_ = ntohs(addr.sin_port);
  if (pipe2(wake_fds_, O_CLOEXEC | O_NONBLOCK) != 0) {
    error_ = std::string("pipe: ") + std::strerror(errno);
    close(listen_fd_);
    listen_fd_ = -1;
    return false;
  }
  thread_ = std::thread([this] { Run(); });
  return true;
}

void TcpProxy::Stop() {
  if (!thread_.joinable()) return;
  stopping_ = true;
  Wake();
  thread_.join();
  close(listen_fd_);
  close(wake_fds_[0]);
  close(wake_fds_[1]);
  listen_fd_ = wake_fds_[0] = wake_fds_[1] = -1;
}

void TcpProxy::SetMode(Mode mode) {
  mode_ = mode;
  Wake();
}

void TcpProxy::Wake() {
  if (wake_fds_[1] < 0) return;
  char b = 1;
  [[maybe_unused]] ssize_t n = write(wake_fds_[1], &b, 1);
}

void TcpProxy::Run() {
  std::vector<std::unique_ptr<Pipe>> pipes;
  std::vector<pollfd> fds;
  while (!stopping_.load()) {
    const Mode mode = mode_.load();
    if (mode == Mode::kDrop) {
      for (auto& p : pipes) p->Close();
    }
    std::erase_if(pipes, [](const auto& p) { return p->closed; });
    open_ = static_cast<int64_t>(pipes.size());

    fds.clear();
    fds.push_back({wake_fds_[0], POLLIN, 0});
    fds.push_back({listen_fd_, POLLIN, 0});
    for (auto& p : pipes) {
      // A stalled pipe is left out of the poll set entirely (fd -1), so a hang-up on it
      // cannot spin the loop and nothing moves until resume.
      const bool active = mode == Mode::kPass;
      short client_events = 0;
      short target_events = 0;
      if (active) {
        if (p->to_target.size() < kMaxBuffered) client_events |= POLLIN;
        if (p->to_client.size() > 0) client_events |= POLLOUT;
        if (p->to_client.size() < kMaxBuffered) target_events |= POLLIN;
        if (p->to_target.size() > 0) target_events |= POLLOUT;
      }
      fds.push_back({active ? p->client_fd : -1, client_events, 0});
      fds.push_back({active ? p->target_fd : -1, target_events, 0});
    }
    int n = poll(fds.data(), fds.size(), 100);
    if (n <= 0) continue;
    if (fds[0].revents & POLLIN) {
      char drain[64];
      while (read(wake_fds_[0], drain, sizeof(drain)) > 0) {
      }
    }
    if (fds[1].revents & POLLIN) {
      while (true) {
        int client = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0) break;
        ++accepted_;
        if (mode_.load() != Mode::kPass) {
          // Drop refuses new connections; stall does too, since a half-set-up pipe would
          // have nowhere to go (a black-holed SYN never completes either).
          close(client);
          continue;
        }
        int target = ConnectTo(target_host_, target_port_);
        if (target < 0) {
          close(client);
          continue;
        }
        SetNoDelay(client);
        auto pipe = std::make_unique<Pipe>();
        pipe->client_fd = client;
        pipe->target_fd = target;
        pipes.push_back(std::move(pipe));
      }
    }
    if (mode != Mode::kPass) continue;
    for (size_t i = 0; i < pipes.size() && 2 + 2 * i + 1 < fds.size(); ++i) {
      Pipe& p = *pipes[i];
      const short cre = fds[2 + 2 * i].revents;
      const short tre = fds[2 + 2 * i + 1].revents;
      bool ok = true;
      if (cre & (POLLIN | POLLHUP | POLLERR)) ok = ReadInto(p.client_fd, &p.to_target) && ok;
      if (ok && (tre & (POLLIN | POLLHUP | POLLERR))) ok = ReadInto(p.target_fd, &p.to_client);
      if (ok) {
        ssize_t w = WriteFrom(p.target_fd, &p.to_target);
        if (w < 0) ok = false;
        bytes_to_target_ += w > 0 ? w : 0;
      }
      if (ok) {
        ssize_t w = WriteFrom(p.client_fd, &p.to_client);
        if (w < 0) ok = false;
        bytes_to_client_ += w > 0 ? w : 0;
      }
      if (!ok) p.Close();
    }
  }
  for (auto& p : pipes) p->Close();
  open_ = 0;
}

}  // namespace apogee::testing
