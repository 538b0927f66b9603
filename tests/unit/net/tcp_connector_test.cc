#include "net/tcp_connector.h"

#include <gtest/gtest.h>

#include <future>

#include "net/io_context_pool.h"
#include "net/tcp_acceptor.h"

namespace apogee::net {
namespace {

using boost::asio::ip::tcp;

Result<tcp::socket> ConnectAndWait(IoContextPool& pool, const HostPort& target,
                                   std::chrono::milliseconds timeout) {
  std::promise<Result<tcp::socket>> done;
  AsyncConnect(pool.Next(), target, timeout,
               [&](Result<tcp::socket> r) { done.set_value(std::move(r)); });
  return done.get_future().get();
}

TEST(TcpConnectorTest, ConnectsToListener) {
  IoContextPool pool(1);
  pool.Start();
  TcpAcceptor acceptor(&pool);
  ASSERT_TRUE(acceptor.Listen("127.0.0.1", 0).ok());
  std::promise<void> accepted;
  acceptor.Start([&](std::shared_ptr<boost::asio::io_context>, tcp::socket) { accepted.set_value(); });
  auto socket = ConnectAndWait(pool, HostPort{"127.0.0.1", acceptor.port()}, std::chrono::seconds(3));
  ASSERT_TRUE(socket.ok()) << socket.status().ToString();
  EXPECT_TRUE(socket->is_open());
  tcp::no_delay nd;
  socket->get_option(nd);
  EXPECT_TRUE(nd.value());
  accepted.get_future().wait();
  acceptor.Close();
  socket->close();
  pool.Stop();
}

TEST(TcpConnectorTest, ResolvesLocalhost) {
  IoContextPool pool(1);
  pool.Start();
  TcpAcceptor acceptor(&pool);
  ASSERT_TRUE(acceptor.Listen("127.0.0.1", 0).ok());
  acceptor.Start([](std::shared_ptr<boost::asio::io_context>, tcp::socket) {});
  auto socket = ConnectAndWait(pool, HostPort{"localhost", acceptor.port()}, std::chrono::seconds(3));
  // localhost may resolve to ::1 first on some hosts; either way the error must name it.
  if (!socket.ok()) {
    EXPECT_NE(socket.status().message().find("localhost"), std::string::npos);
  } else {
    socket->close();
  }
  acceptor.Close();
  pool.Stop();
}

TEST(TcpConnectorTest, RefusedNamesTarget) {
  IoContextPool pool(1);
  pool.Start();
  uint16_t port;
  {
    // Bind and close to get a port nobody listens on.
    TcpAcceptor probe(&pool);
    ASSERT_TRUE(probe.Listen("127.0.0.1", 0).ok());
    port = probe.port();
  }
  auto socket = ConnectAndWait(pool, HostPort{"127.0.0.1", port}, std::chrono::seconds(3));
  ASSERT_FALSE(socket.ok());
  EXPECT_EQ(socket.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(socket.status().message().find("127.0.0.1:" + std::to_string(port)), std::string::npos)
      << socket.status().ToString();
  pool.Stop();
}

TEST(TcpConnectorTest, TimesOutOnBlackhole) {
  IoContextPool pool(1);
  pool.Start();
  // 10.255.255.1 is unroutable in most networks; a SYN goes nowhere. Where the network
  // answers at once (no route), the result is Unavailable instead, also acceptable.
  auto start = std::chrono::steady_clock::now();
  auto socket = ConnectAndWait(pool, HostPort{"10.255.255.1", 9}, std::chrono::milliseconds(200));
  auto elapsed = std::chrono::steady_clock::now() - start;
  if (socket.ok()) {
    socket->close();
    pool.Stop();
    GTEST_SKIP() << "this network accepts connections to 10.255.255.1 (transparent proxy)";
  }
  EXPECT_LT(elapsed, std::chrono::seconds(2));
  if (socket.status().IsTimeout()) {
    EXPECT_NE(socket.status().message().find("timed out after 200 ms"), std::string::npos);
  }
  pool.Stop();
}

}  // namespace
}  // namespace apogee::net
