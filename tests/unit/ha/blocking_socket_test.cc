// BlockingSocket's TLS (the HA link): server negotiation in permissive and enforcing
// mode, a client handshake, both directions at once from two threads (as the master's
// reader and writer do), and the handshake deadline. Test-mode contexts (self-signed,
// trust anyone) keep certificate files out of this module's tests.
#include "ha/blocking_socket.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "net/tls_context.h"

namespace apogee::ha {
namespace {

using std::chrono::milliseconds;

struct Pair {
  BlockingSocket server;
  BlockingSocket client;
};

Pair Connect() {
  auto listener = BlockingSocket::Listen("127.0.0.1", 0);
  EXPECT_TRUE(listener.ok());
  const std::string addr = "127.0.0.1:" + std::to_string(listener->local_port());
  auto client = BlockingSocket::Connect(addr, milliseconds(2000));
  EXPECT_TRUE(client.ok());
  auto server = listener->Accept(milliseconds(2000));
  EXPECT_TRUE(server.ok());
  return Pair{std::move(server).value(), std::move(client).value()};
}

class BlockingSocketTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TlsConfig tls;  // test mode
    server_ctx_ = std::move(net::MakeServerTlsContext(tls)).value();
    client_ctx_ = std::move(net::MakeClientTlsContext(tls)).value();
  }
  std::shared_ptr<net::TlsContext> server_ctx_;
  std::shared_ptr<net::TlsContext> client_ctx_;
};

TEST_F(BlockingSocketTlsTest, TlsBothWaysFromTwoThreadsEach) {
  Pair p = Connect();
  Status server_status;
  std::thread server([&] {
    server_status = p.server.NegotiateServer(server_ctx_->native_handle(), false,
                                             milliseconds(2000), milliseconds(2000));
  });
  ASSERT_TRUE(p.client.StartTlsClient(client_ctx_->native_handle(), milliseconds(2000)).ok());
  server.join();
  ASSERT_TRUE(server_status.ok()) << server_status.ToString();
  EXPECT_TRUE(p.server.tls());
  EXPECT_TRUE(p.client.tls());

  // Master-like: one thread writes 4 MiB to the slave while another reads its reports;
  // the slave-like side does the opposite, also from two threads.
  const std::string big(4 << 20, 'x');
  constexpr int kReports = 2000;
  std::atomic<bool> ok{true};
  std::thread master_writer([&] {
    if (!p.server.WriteAll(big.data(), big.size(), milliseconds(5000)).ok()) ok = false;
  });
  std::thread master_reader([&] {
    size_t got = 0;
    char buf[1024];
    while (got < kReports * 8u) {
      auto n = p.server.ReadSome(buf, sizeof(buf), milliseconds(5000));
      if (!n.ok()) {
        ok = false;
        return;
      }
      got += *n;
    }
  });
  std::thread slave_reporter([&] {
    const std::string report(8, '\0');
    for (int i = 0; i < kReports; ++i) {
      if (!p.client.WriteAll(report.data(), report.size(), milliseconds(5000)).ok()) ok = false;
    }
  });
  size_t received = 0;
  std::vector<char> buf(64 * 1024);
  while (received < big.size()) {
    auto n = p.client.ReadSome(buf.data(), buf.size(), milliseconds(5000));
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    for (size_t i = 0; i < *n; ++i) ASSERT_EQ(buf[i], 'x');
    received += *n;
  }
  master_writer.join();
  master_reader.join();
  slave_reporter.join();
  EXPECT_TRUE(ok.load());
  EXPECT_EQ(received, big.size());
}

TEST_F(BlockingSocketTlsTest, PermissiveKeepsAPlainPeerPlain) {
  Pair p = Connect();
  const std::string report(8, '\0');
  ASSERT_TRUE(p.client.WriteAll(report.data(), report.size(), milliseconds(1000)).ok());
  ASSERT_TRUE(p.server
                  .NegotiateServer(server_ctx_->native_handle(), true, milliseconds(1000),
                                   milliseconds(1000))
                  .ok());
  EXPECT_FALSE(p.server.tls());
  char buf[8];
  auto n = p.server.ReadSome(buf, sizeof(buf), milliseconds(1000));
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 8u) << "the peeked byte is still there";
}

TEST_F(BlockingSocketTlsTest, EnforcingRefusesAPlainPeer) {
  Pair p = Connect();
  const std::string report(8, '\0');
  ASSERT_TRUE(p.client.WriteAll(report.data(), report.size(), milliseconds(1000)).ok());
  Status st = p.server.NegotiateServer(server_ctx_->native_handle(), false, milliseconds(1000),
                                       milliseconds(1000));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("enforcing"), std::string::npos) << st.ToString();
}

TEST_F(BlockingSocketTlsTest, StalledHandshakeEndsAtItsDeadline) {
  Pair p = Connect();
  const std::string hello("\x16\x03\x01\x02\x00", 5);  // a record header, then nothing
  ASSERT_TRUE(p.client.WriteAll(hello.data(), hello.size(), milliseconds(1000)).ok());
  const auto start = std::chrono::steady_clock::now();
  Status st = p.server.NegotiateServer(server_ctx_->native_handle(), true, milliseconds(1000),
                                       milliseconds(300));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kTimeout) << st.ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(2000));
}

TEST_F(BlockingSocketTlsTest, GarbageHandshakeFails) {
  Pair p = Connect();
  std::string garbage("\x16\x03\x01\x00\x20", 5);
  garbage += std::string(32, '\x7F');
  ASSERT_TRUE(p.client.WriteAll(garbage.data(), garbage.size(), milliseconds(1000)).ok());
  Status st = p.server.NegotiateServer(server_ctx_->native_handle(), true, milliseconds(1000),
                                       milliseconds(1000));
  EXPECT_FALSE(st.ok());
  EXPECT_FALSE(p.server.tls());
}

}  // namespace
}  // namespace apogee::ha
