#include "net/tcp_connector.h"

#include <sys/socket.h>

#include <gtest/gtest.h>

#include <future>
#include <thread>
#include <vector>

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

TEST(TcpConnectorTest, TimesOutWhenAcceptQueueIsFull) {
  // A listener with backlog 0 that never accepts: once its queue is full, Linux drops
  // further SYNs, so the next connect hangs until our deadline.
  boost::asio::io_context ctx;
  tcp::acceptor listener(ctx);
  listener.open(tcp::v4());
  listener.bind(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  listener.listen(0);
  uint16_t port = listener.local_endpoint().port();
  std::vector<std::unique_ptr<tcp::socket>> fillers;
  for (int i = 0; i < 8; ++i) {
    auto s = std::make_unique<tcp::socket>(ctx);
    s->open(tcp::v4());
    s->non_blocking(true);
    // Raw connect(2): Asio's synchronous connect would wait for completion.
    tcp::endpoint target(boost::asio::ip::make_address("127.0.0.1"), port);
    (void)::connect(s->native_handle(), target.data(), static_cast<socklen_t>(target.size()));
    fillers.push_back(std::move(s));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  IoContextPool pool(1);
  pool.Start();
  auto start = std::chrono::steady_clock::now();
  auto socket = ConnectAndWait(pool, HostPort{"127.0.0.1", port}, std::chrono::milliseconds(300));
  auto elapsed = std::chrono::steady_clock::now() - start;
  pool.Stop();
  if (socket.ok()) GTEST_SKIP() << "kernel accepted past the backlog";
  EXPECT_TRUE(socket.status().IsTimeout()) << socket.status().ToString();
  EXPECT_EQ(socket.status().message(),
            "connect to 127.0.0.1:" + std::to_string(port) + " timed out after 300 ms");
  EXPECT_GE(elapsed, std::chrono::milliseconds(290));
  EXPECT_LT(elapsed, std::chrono::seconds(2));
}

}  // namespace
}  // namespace apogee::net
