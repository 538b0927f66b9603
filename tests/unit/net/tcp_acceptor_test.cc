#include "net/tcp_acceptor.h"

#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <future>

namespace apogee::net {
namespace {

using boost::asio::ip::tcp;

TEST(TcpAcceptorTest, AcceptsOnEphemeralPortAndSpreadsOverPool) {
  IoContextPool pool(2);
  pool.Start();
  TcpAcceptor acceptor(&pool);
  ASSERT_TRUE(acceptor.Listen("127.0.0.1", 0).ok());
  ASSERT_NE(acceptor.port(), 0);
  std::mutex mu;
  std::vector<tcp::socket> accepted;
  std::set<boost::asio::io_context*> contexts;
  acceptor.Start([&](std::shared_ptr<boost::asio::io_context>, tcp::socket socket) {
    std::lock_guard lock(mu);
    contexts.insert(&static_cast<boost::asio::io_context&>(socket.get_executor().context()));
    accepted.push_back(std::move(socket));
  });

  boost::asio::io_context client_ctx;
  std::vector<tcp::socket> clients;
  for (int i = 0; i < 4; ++i) {
    clients.emplace_back(client_ctx);
    clients.back().connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), acceptor.port()));
  }
  for (int i = 0; i < 200; ++i) {
    {
      std::lock_guard lock(mu);
      if (accepted.size() == 4) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  {
    std::lock_guard lock(mu);
    EXPECT_EQ(accepted.size(), 4u);
    EXPECT_EQ(contexts.size(), 2u);
    EXPECT_TRUE(accepted[0].is_open());
    for (auto& s : accepted) s.close();
  }
  acceptor.Close();
  pool.Stop();
}

TEST(TcpAcceptorTest, ListenOnTakenPortNamesTheAddress) {
  IoContextPool pool(1);
  TcpAcceptor first(&pool);
  ASSERT_TRUE(first.Listen("127.0.0.1", 0).ok());
  TcpAcceptor second(&pool);
  Status st = second.Listen("127.0.0.1", first.port());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("127.0.0.1:" + std::to_string(first.port())), std::string::npos)
      << st.ToString();
  EXPECT_FALSE(second.Listen("not-an-ip", 0).ok());
}

TEST(TcpAcceptorTest, CloseStopsAccepting) {
  IoContextPool pool(1);
  pool.Start();
  TcpAcceptor acceptor(&pool);
  ASSERT_TRUE(acceptor.Listen("127.0.0.1", 0).ok());
  uint16_t port = acceptor.port();
  acceptor.Start([](std::shared_ptr<boost::asio::io_context>, tcp::socket) {});
  acceptor.Close();
  boost::asio::io_context ctx;
  tcp::socket s(ctx);
  boost::system::error_code ec;
  s.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port), ec);
  EXPECT_TRUE(ec) << "connect succeeded after Close()";
  pool.Stop();
}

}  // namespace
}  // namespace apogee::net
