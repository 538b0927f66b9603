// TLS on remoting connections (connection.cc's TLS phases, RemotingServer/RemotingClient
// options): the three server modes, client certificates, and the limits a TLS peer must
// not dodge (handshake deadline, frame deadline, garbage). Certificates are made at test
// time (testutil/tls_certs.h).
#include <gtest/gtest.h>

#include <boost/asio/ssl.hpp>
#include <thread>

#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "remoting_test_util.h"
#include "testutil/test_util.h"
#include "testutil/tls_certs.h"

namespace apogee::remoting {
namespace {

namespace asio = boost::asio;
using protocol::RemotingCommand;
using std::chrono::milliseconds;
namespace response_code = protocol::response_code;

constexpr int32_t kEcho = 1;

class TlsTransportTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(testing::MakeTestCerts(dir_.path(), &certs_)); }
  void TearDown() override {
    for (auto& c : clients_) c->Shutdown();
    if (server_) server_->Shutdown();
  }

  // A non-test-mode server with the test CA's server certificate.
  TlsConfig ServerTls(const std::string& mode) {
    TlsConfig tls;
    tls.server_mode = mode;
    tls.test_mode_enable = false;
    tls.server_cert_path = certs_.server_cert;
    tls.server_key_path = certs_.server_key;
    return tls;
  }

  Status StartServer(RemotingServerOptions options) {
    options.listen_host = "127.0.0.1";
    options.io_threads = 2;
    server_ = std::make_unique<RemotingServer>(options);
    server_->RegisterProcessor(kEcho, MakeProcessor([](RemotingCommand req, Responder r) {
                                 auto response =
                                     RemotingCommand::MakeResponse(req, response_code::kSuccess);
                                 response.body = req.body;
                                 r.Send(std::move(response));
                               }));
    Status st = server_->Start();
    address_ = "127.0.0.1:" + std::to_string(server_->port());
    return st;
  }
  Status StartServer(TlsConfig tls) {
    RemotingServerOptions options;
    options.tls = std::move(tls);
    return StartServer(std::move(options));
  }

  RemotingClient* Client(bool use_tls, TlsConfig tls = {}) {
    RemotingClientOptions options;
    options.use_tls = use_tls;
    options.tls = std::move(tls);
    clients_.push_back(std::make_unique<RemotingClient>(options));
    clients_.back()->Start();
    return clients_.back().get();
  }
  // A verifying client with the test CA's client certificate (or none).
  TlsConfig ClientTls(bool with_cert, bool rogue = false) {
    TlsConfig tls;
    tls.test_mode_enable = false;
    tls.client_auth_server = true;
    tls.client_trust_cert_path = certs_.ca_cert;
    if (with_cert) {
      tls.client_cert_path = rogue ? certs_.rogue_client_cert : certs_.client_cert;
      tls.client_key_path = rogue ? certs_.rogue_client_key : certs_.client_key;
    }
    return tls;
  }

  Result<RemotingCommand> Echo(RemotingClient* client, std::string body = "ping") {
    return client->InvokeSync(address_, test::Request(kEcho, std::move(body)), milliseconds(3000));
  }
  static bool EchoOk(const Result<RemotingCommand>& r, const std::string& body = "ping") {
    return r.ok() && r->code == response_code::kSuccess && r->body == body;
  }

  testing::TempDir dir_;
  testing::TestCerts certs_;
  std::unique_ptr<RemotingServer> server_;
  std::vector<std::unique_ptr<RemotingClient>> clients_;
  std::string address_;
};

TEST_F(TlsTransportTest, EnforcingServesTlsClientsAndRefusesPlainOnes) {
  ASSERT_TRUE(StartServer(ServerTls("enforcing")).ok());
  auto tls = Echo(Client(true, ClientTls(false)));
  EXPECT_TRUE(EchoOk(tls)) << tls.status().ToString();
  auto plain = Echo(Client(false));
  ASSERT_FALSE(plain.ok());
  EXPECT_EQ(plain.status().code(), StatusCode::kUnavailable) << plain.status().ToString();
}

TEST_F(TlsTransportTest, PermissiveServesPlainAndTlsOnOnePort) {
  ASSERT_TRUE(StartServer(ServerTls("permissive")).ok());
  RemotingClient* tls_client = Client(true, ClientTls(false));
  RemotingClient* plain_client = Client(false);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(EchoOk(Echo(tls_client)));
    EXPECT_TRUE(EchoOk(Echo(plain_client)));
  }
  EXPECT_EQ(server_->Stats().connections, 2u);
}

TEST_F(TlsTransportTest, DisabledRefusesTlsClients) {
  ASSERT_TRUE(StartServer(ServerTls("disabled")).ok());
  EXPECT_TRUE(EchoOk(Echo(Client(false))));
  EXPECT_FALSE(Echo(Client(true, ClientTls(false))).ok());
}

TEST_F(TlsTransportTest, TestModeNeedsNoCertificateFiles) {
  TlsConfig tls;  // Java's defaults: permissive, test mode
  ASSERT_TRUE(StartServer(tls).ok());
  EXPECT_TRUE(EchoOk(Echo(Client(true))));  // test-mode client: trusts the self-signed one
  // A verifying client refuses the self-signed certificate.
  auto verified = Echo(Client(true, ClientTls(false)));
  EXPECT_FALSE(verified.ok());
}

TEST_F(TlsTransportTest, VerifyingClientRefusesServerOfAnotherCa) {
  ASSERT_TRUE(StartServer(ServerTls("enforcing")).ok());
  TlsConfig tls = ClientTls(false);
  tls.client_trust_cert_path = dir_.Join("rogue-ca.pem");
  auto r = Echo(Client(true, tls));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("TLS handshake failed"), std::string::npos)
      << r.status().ToString();
}

TEST_F(TlsTransportTest, RequiredClientCertificate) {
  TlsConfig tls = ServerTls("enforcing");
  tls.server_need_client_auth = "require";
  tls.server_auth_client = true;
  tls.server_trust_cert_path = certs_.ca_cert;
  ASSERT_TRUE(StartServer(tls).ok());
  EXPECT_FALSE(Echo(Client(true, ClientTls(false))).ok()) << "no certificate";
  EXPECT_FALSE(Echo(Client(true, ClientTls(true, /*rogue=*/true))).ok()) << "another CA";
  auto good = Echo(Client(true, ClientTls(true)));
  EXPECT_TRUE(EchoOk(good)) << good.status().ToString();
}

TEST_F(TlsTransportTest, EncryptedServerKeyNeedsItsPassword) {
  TlsConfig tls = ServerTls("enforcing");
  tls.server_key_path = certs_.server_key_encrypted;
  tls.server_key_password = "wrong";
  Status st = StartServer(tls);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find(certs_.server_key_encrypted), std::string::npos) << st.ToString();
  server_.reset();
  tls.server_key_password = testing::TestCerts::kPassword;
  ASSERT_TRUE(StartServer(tls).ok());
  EXPECT_TRUE(EchoOk(Echo(Client(true, ClientTls(false)))));
}

TEST_F(TlsTransportTest, MissingCertificateFailsStartNamingTheFile) {
  TlsConfig tls = ServerTls("enforcing");
  tls.server_cert_path = dir_.Join("nope.pem");
  Status st = StartServer(tls);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("nope.pem"), std::string::npos) << st.ToString();
}

TEST_F(TlsTransportTest, LargeAndManyFramesRoundTrip) {
  ASSERT_TRUE(StartServer(ServerTls("enforcing")).ok());
  RemotingClient* client = Client(true, ClientTls(false));
  std::string big(3 * 1024 * 1024 + 17, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 31 + 7);
  EXPECT_TRUE(EchoOk(Echo(client, big), big));
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        std::string body = std::to_string(t) + ":" + std::to_string(i);
        if (EchoOk(Echo(client, body), body)) ok++;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok.load(), 800);
}

// A peer that starts a handshake and dribbles bytes must not keep the connection past the
// handshake deadline.
TEST_F(TlsTransportTest, SlowHandshakeIsClosedAtItsDeadline) {
  RemotingServerOptions options;
  options.tls = ServerTls("permissive");
  options.tls.handshake_timeout_ms = 500;
  ASSERT_TRUE(StartServer(options).ok());
  test::RawSocket raw(server_->port());
  // A TLS record header announcing a long ClientHello, then one byte at a time.
  raw.Write(std::string("\x16\x03\x01\x02\x00", 5));
  const auto start = std::chrono::steady_clock::now();
  bool closed = false;
  for (int i = 0; i < 40 && !closed; ++i) {
    std::this_thread::sleep_for(milliseconds(100));
    closed = !raw.TryWrite(std::string(1, '\x01'));
  }
  if (!closed) closed = raw.ReadsEof();
  EXPECT_TRUE(closed);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  EXPECT_TRUE(test::WaitFor([&] { return server_->Stats().connections == 0; }));
}

TEST_F(TlsTransportTest, GarbageHandshakeClosesOnlyItsConnection) {
  ASSERT_TRUE(StartServer(ServerTls("permissive")).ok());
  RemotingClient* good = Client(true, ClientTls(false));
  ASSERT_TRUE(EchoOk(Echo(good)));
  test::RawSocket raw(server_->port());
  std::string garbage("\x16\x03\x01\x00\x40", 5);
  garbage += std::string(64, '\xAB');
  raw.TryWrite(garbage);
  // The server may answer with a TLS alert before it closes.
  bool closed = false;
  for (int i = 0; i < 100 && !closed; ++i) closed = raw.ReadsEof();
  EXPECT_TRUE(closed);
  EXPECT_TRUE(EchoOk(Echo(good)));
  EXPECT_TRUE(EchoOk(Echo(Client(false))));
}

// The frame deadline holds inside TLS too: a partial frame after the handshake is closed.
TEST_F(TlsTransportTest, FrameDeadlineHoldsOverTls) {
  RemotingServerOptions options;
  options.tls = ServerTls("enforcing");
  options.frame_read_timeout = milliseconds(400);
  ASSERT_TRUE(StartServer(options).ok());
  asio::io_context io;
  asio::ssl::context ctx(asio::ssl::context::tls_client);
  ctx.set_verify_mode(asio::ssl::verify_none);
  asio::ssl::stream<asio::ip::tcp::socket> stream(io, ctx);
  stream.next_layer().connect(
      asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
  stream.handshake(asio::ssl::stream_base::client);
  // A frame announcing 100 bytes, of which 6 come (header length word 16, 2 bytes).
  std::string partial("\x00\x00\x00\x64\x00\x00\x00\x10xx", 10);
  asio::write(stream, asio::buffer(partial));
  const auto start = std::chrono::steady_clock::now();
  char c;
  boost::system::error_code ec;
  stream.read_some(asio::buffer(&c, 1), ec);
  EXPECT_TRUE(ec) << "the server must close the connection";
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, milliseconds(300)) << "closed for another reason than the deadline";
  EXPECT_LT(waited, std::chrono::seconds(3));
}

TEST_F(TlsTransportTest, ClientWithUnusableCertificateFailsEveryCallWithTheReason) {
  ASSERT_TRUE(StartServer(ServerTls("enforcing")).ok());
  TlsConfig tls = ClientTls(true);
  tls.client_cert_path = dir_.Join("missing-client.pem");
  auto r = Echo(Client(true, tls));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("missing-client.pem"), std::string::npos)
      << r.status().ToString();
}

}  // namespace
}  // namespace apogee::remoting
