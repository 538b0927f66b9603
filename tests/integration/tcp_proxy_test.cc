// TcpProxy (tests/testutil/tcp_proxy.h) against a small echo server: bytes pass both ways,
// stall holds them on a live connection, drop closes connections and refuses new ones,
// resume restores forwarding.
#include "testutil/tcp_proxy.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "testutil/test_util.h"

namespace apogee::testing {
namespace {

using namespace std::chrono_literals;

// Echoes every byte back, one thread per connection.
class EchoServer {
 public:
  EchoServer() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(listen(fd_, 16), 0);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] {
      while (true) {
        int c = accept(fd_, nullptr, nullptr);
        if (c < 0) return;
        ++accepted_;
        workers_.emplace_back([c] {
          char buf[4096];
          ssize_t n;
          while ((n = read(c, buf, sizeof(buf))) > 0) {
            if (write(c, buf, static_cast<size_t>(n)) != n) break;
          }
          close(c);
        });
      }
    });
  }
  ~EchoServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    acceptor_.join();
    for (auto& w : workers_) w.join();
  }
  uint16_t port() const { return port_; }
  int accepted() const { return accepted_.load(); }

 private:
  int fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<int> accepted_{0};
  std::thread acceptor_;
  std::vector<std::thread> workers_;
};

int Connect(uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Reads until `want` bytes arrived, EOF, or the timeout; returns what was read. `eof` says
// whether the peer closed.
std::string ReadFor(int fd, size_t want, std::chrono::milliseconds timeout, bool* eof = nullptr) {
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  if (eof) *eof = false;
  while (out.size() < want) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    char buf[4096];
    ssize_t n = read(fd, buf, std::min(sizeof(buf), want - out.size()));
    if (n <= 0) {
      if (eof) *eof = true;
      break;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

void Send(int fd, const std::string& s) {
  ASSERT_EQ(send(fd, s.data(), s.size(), MSG_NOSIGNAL), static_cast<ssize_t>(s.size()));
}

TEST(TcpProxyTest, PassForwardsBothWays) {
  EchoServer echo;
  TcpProxy proxy("127.0.0.1", echo.port());
  ASSERT_TRUE(proxy.Start()) << proxy.error();
  int fd = Connect(proxy.port());
  ASSERT_GE(fd, 0);
  std::string big(300000, 'x');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + i % 26);
  std::thread writer([&] { Send(fd, big); });
  EXPECT_EQ(ReadFor(fd, big.size(), 10s), big);
  writer.join();
  EXPECT_EQ(proxy.accepted(), 1);
  EXPECT_EQ(proxy.bytes_to_target(), static_cast<int64_t>(big.size()));
  EXPECT_TRUE(WaitUntil([&] { return proxy.bytes_to_client() == proxy.bytes_to_target(); }, 5s));
  close(fd);
}

TEST(TcpProxyTest, StallHoldsBytesOnALiveConnectionUntilResume) {
  EchoServer echo;
  TcpProxy proxy("127.0.0.1", echo.port());
  ASSERT_TRUE(proxy.Start());
  int fd = Connect(proxy.port());
  ASSERT_GE(fd, 0);
  Send(fd, "ping");
  ASSERT_EQ(ReadFor(fd, 4, 5s), "ping");

  proxy.Stall();
  Send(fd, "held");
  bool eof = true;
  EXPECT_EQ(ReadFor(fd, 4, 500ms, &eof), "") << "stalled proxy forwarded bytes";
  EXPECT_FALSE(eof) << "stall must keep the connection open";
  EXPECT_EQ(proxy.open_connections(), 1);

  proxy.Resume();
  EXPECT_EQ(ReadFor(fd, 4, 5s), "held");
  close(fd);
}

TEST(TcpProxyTest, DropClosesConnectionsAndRefusesNewOnesUntilResume) {
  EchoServer echo;
  TcpProxy proxy("127.0.0.1", echo.port());
  ASSERT_TRUE(proxy.Start());
  int fd = Connect(proxy.port());
  ASSERT_GE(fd, 0);
  Send(fd, "one");
  ASSERT_EQ(ReadFor(fd, 3, 5s), "one");

  proxy.Drop();
  bool eof = false;
  ReadFor(fd, 1, 5s, &eof);
  EXPECT_TRUE(eof) << "drop must close open connections";
  close(fd);
  EXPECT_TRUE(WaitUntil([&] { return proxy.open_connections() == 0; }, 5s));

  // A new connection is accepted by the kernel and closed at once, never reaching the target.
  const int echo_accepted = echo.accepted();
  int refused = Connect(proxy.port());
  if (refused >= 0) {
    ReadFor(refused, 1, 5s, &eof);
    EXPECT_TRUE(eof);
    close(refused);
  }
  EXPECT_EQ(echo.accepted(), echo_accepted);

  proxy.Resume();
  int again = Connect(proxy.port());
  ASSERT_GE(again, 0);
  Send(again, "two");
  EXPECT_EQ(ReadFor(again, 3, 5s), "two");
  close(again);
}

TEST(TcpProxyTest, TargetDownClosesTheClient) {
  uint16_t dead_port = PickFreePort();
  TcpProxy proxy("127.0.0.1", dead_port);
  ASSERT_TRUE(proxy.Start());
  int fd = Connect(proxy.port());
  ASSERT_GE(fd, 0);
  bool eof = false;
  ReadFor(fd, 1, 5s, &eof);
  EXPECT_TRUE(eof);
  close(fd);
}

}  // namespace
}  // namespace apogee::testing
