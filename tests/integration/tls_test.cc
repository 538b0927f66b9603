// TLS on real processes (docs/security.md, "TLS"): mqnamesrv and mqbroker in each
// tls.server.mode, with the C++ client library, mqadmin and mqbench connecting with and
// without TLS, a server that requires client certificates, and a garbage handshake.
// Certificates come from a CA made at test time (testutil/tls_certs.h). Every process
// points tls.config.file at a file that does not exist, so a machine-wide
// /etc/rocketmq/tls.properties cannot change the outcome.
#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <fstream>
#include <set>

#include "apogee/lite_pull_consumer.h"
#include "apogee/producer.h"
#include "broker_process.h"
#include "namesrv_process.h"
#include "testutil/test_util.h"
#include "testutil/tls_certs.h"
#include "testutil/test_paths.h"

namespace apogee::testing {
namespace {

using namespace std::chrono_literals;

struct ToolRun {
  int exit_code = -1;
  std::string output;
};

// A blocking read on `raw` gives up after 15 s instead of hanging the test.
void LimitReads(boost::asio::ip::tcp::socket& raw) {
  timeval tv{15, 0};
  ::setsockopt(raw.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

ToolRun RunTool(const std::string& binary, const std::vector<std::string>& args) {
  TempDir dir;
  ChildProcess p;
  std::vector<std::string> argv = {BinDir() + "/" + binary};
  argv.insert(argv.end(), args.begin(), args.end());
  ToolRun r;
  if (!p.Start(argv, dir.Join("out.log"), {{"APOGEE_LOG_LEVEL", "warn"}})) return r;
  const int status = p.Wait(60s);
  r.output = p.ReadLog();
  if (status == -1) {
    p.Stop();
    r.output += "\n(timed out)";
    return r;
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

class TlsProcessTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    certs_ = new TestCerts();
    ASSERT_TRUE(MakeTestCerts(dir_->path(), certs_));
    // tls.properties files for the tools: verify the server, with or without a client
    // certificate.
    std::ofstream(dir_->Join("verify.properties"))
        << "tls.test.mode.enable=false\ntls.client.authServer=true\n"
        << "tls.client.trustCertPath=" << certs_->ca_cert << "\n";
    std::ofstream(dir_->Join("with-cert.properties"))
        << "tls.test.mode.enable=false\ntls.client.authServer=true\n"
        << "tls.client.trustCertPath=" << certs_->ca_cert << "\n"
        << "tls.client.certPath=" << certs_->client_cert << "\n"
        << "tls.client.keyPath=" << certs_->client_key << "\n";
  }
  static void TearDownTestSuite() {
    delete certs_;
    delete dir_;
  }

  static std::string NoFile() { return dir_->Join("absent.properties"); }
  static std::string VerifyFile() { return dir_->Join("verify.properties"); }
  static std::string WithCertFile() { return dir_->Join("with-cert.properties"); }

  // A server with the CA's certificate in `mode` (not test mode).
  static Props ServerProps(const std::string& mode) {
    return {{"tls.server.mode", mode},
            {"tls.test.mode.enable", "false"},
            {"tls.server.certPath", certs_->server_cert},
            {"tls.server.keyPath", certs_->server_key},
            {"tls.config.file", NoFile()}};
  }

  // A client library config; with TLS it verifies the server against the test CA.
  static void SetClient(ClientConfig* c, const std::string& namesrv, bool tls,
                        const std::string& instance) {
    c->namesrv_addr = namesrv;
    c->client_ip = "127.0.0.1";
    c->instance_name = instance;
    c->use_tls = tls;
    c->tls_config_file = NoFile();
    if (tls) {
      c->tls_test_mode_enable = false;
      c->tls_client_auth_server = true;
      c->tls_client_trust_cert_path = certs_->ca_cert;
    }
  }

  // Waits until the NameServer has the broker's route, asking with or without TLS.
  static bool WaitRegistered(const std::string& namesrv, bool tls) {
    remoting::RemotingClientOptions options;
    options.use_tls = tls;
    options.tls.config_file = NoFile();
    remoting::RemotingClient client(options);
    client.Start();
    return WaitUntil(
        [&] {
          auto res = client.InvokeSync(namesrv, RouteRequest("TBW102"), 3s);
          return res.ok() && res->code == protocol::response_code::kSuccess;
        },
        20s);
  }

  static Result<SendResult> SendOne(const std::string& namesrv, bool tls,
                                    const std::string& instance, const std::string& topic,
                                    const std::string& body) {
    ProducerConfig config;
    SetClient(&config, namesrv, tls, instance);
    config.group_name = "P_" + instance;
    config.send_msg_timeout_ms = 3000;
    config.retry_times_when_send_failed = 0;
    Producer producer(config);
    APOGEE_RETURN_IF_ERROR(producer.Start());
    auto r = producer.Send(Message(topic, "", body));
    producer.Shutdown();
    return r;
  }

  static TempDir* dir_;
  static TestCerts* certs_;
};

TempDir* TlsProcessTest::dir_ = nullptr;
TestCerts* TlsProcessTest::certs_ = nullptr;

TEST_F(TlsProcessTest, EnforcingClusterServesOnlyTls) {
  NamesrvProcess namesrv(ServerProps("enforcing"));
  ASSERT_TRUE(namesrv.Start());
  Props broker_props = ServerProps("enforcing");
  broker_props["tls.enable"] = "true";  // registration over TLS
  BrokerProcess broker(broker_props);
  ASSERT_TRUE(broker.Start(namesrv.addr()));
  ASSERT_TRUE(WaitRegistered(namesrv.addr(), true)) << broker.ReadLog();
  EXPECT_FALSE(WaitUntil(
      [&] {
        remoting::RemotingClient plain;
        plain.Start();
        return plain.InvokeSync(namesrv.addr(), RouteRequest("TBW102"), 2s).ok();
      },
      1s))
      << "a plain client must not get an answer from an enforcing NameServer";

  // The client library sends and consumes over TLS.
  const std::string topic = "TlsEnforcedTopic";
  std::set<std::string> sent;
  {
    ProducerConfig config;
    SetClient(&config, namesrv.addr(), true, "tls-producer");
    config.group_name = "P_tls";
    Producer producer(config);
    ASSERT_TRUE(producer.Start().ok());
    for (int i = 0; i < 20; ++i) {
      auto r = producer.Send(Message(topic, "", "tls-" + std::to_string(i)));
      ASSERT_TRUE(r.ok()) << r.status().ToString() << "\n" << broker.ReadLog();
      sent.insert("tls-" + std::to_string(i));
    }
    producer.Shutdown();
  }
  LitePullConsumerConfig lite;
  SetClient(&lite.client, namesrv.addr(), true, "tls-consumer");
  lite.group = "G_tls";
  lite.consume_from_where = ConsumeFromWhere::kFirstOffset;
  LitePullConsumer consumer(lite);
  ASSERT_TRUE(consumer.Subscribe(topic, "*").ok());
  ASSERT_TRUE(consumer.Start().ok());
  std::set<std::string> got;
  EXPECT_TRUE(WaitUntil(
      [&] {
        for (const auto& m : consumer.Poll(200)) got.insert(m.body());
        return got.size() >= sent.size();
      },
      30s));
  consumer.Shutdown();
  EXPECT_EQ(got, sent);

  // A plain producer cannot even read the route.
  EXPECT_FALSE(SendOne(namesrv.addr(), false, "plain-producer", topic, "plain").ok());

  // mqadmin and mqbench with --tls work; mqadmin without it does not.
  ToolRun admin = RunTool("mqadmin", {"clusterList", "-n", namesrv.addr(), "--tls",
                                      "--tlsConfigFile", VerifyFile()});
  EXPECT_EQ(admin.exit_code, 0) << admin.output;
  EXPECT_NE(admin.output.find("broker-a"), std::string::npos) << admin.output;
  ToolRun plain_admin = RunTool("mqadmin", {"clusterList", "-n", namesrv.addr()});
  EXPECT_NE(plain_admin.exit_code, 0) << plain_admin.output;
  ToolRun bench = RunTool("mqbench", {"producer", "-n", namesrv.addr(), "-t", "TlsBench", "-c",
                                      "2", "-w", "1", "-q", "50", "--tls", "--tlsConfigFile",
                                      VerifyFile()});
  EXPECT_EQ(bench.exit_code, 0) << bench.output;
  EXPECT_NE(bench.output.find("failed 0\n"), std::string::npos) << bench.output;
}

// Java's defaults (permissive, test mode): no TLS key at all, and both kinds of client work
// on the same ports.
TEST_F(TlsProcessTest, PermissiveDefaultsServePlainAndTlsOnOnePort) {
  NamesrvProcess namesrv({{"tls.config.file", NoFile()}});
  ASSERT_TRUE(namesrv.Start());
  BrokerProcess broker({{"tls.config.file", NoFile()}});
  ASSERT_TRUE(broker.Start(namesrv.addr()));
  ASSERT_TRUE(WaitRegistered(namesrv.addr(), false));
  ASSERT_TRUE(WaitRegistered(namesrv.addr(), true));

  auto plain = SendOne(namesrv.addr(), false, "perm-plain", "PermissiveTopic", "plain");
  EXPECT_TRUE(plain.ok()) << plain.status().ToString();
  // A test-mode client (Java's default) trusts the broker's self-signed certificate...
  ProducerConfig config;
  SetClient(&config, namesrv.addr(), true, "perm-tls");
  config.tls_test_mode_enable = true;
  config.group_name = "P_perm_tls";
  {
    Producer producer(config);
    ASSERT_TRUE(producer.Start().ok());
    auto r = producer.Send(Message("PermissiveTopic", "", "tls"));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    producer.Shutdown();
  }
  // ...which a verifying client refuses.
  EXPECT_FALSE(SendOne(namesrv.addr(), true, "perm-verify", "PermissiveTopic", "x").ok());

  EXPECT_EQ(RunTool("mqadmin", {"clusterList", "-n", namesrv.addr()}).exit_code, 0);
  ToolRun tls_admin = RunTool("mqadmin", {"--tls", "--tlsConfigFile", NoFile(), "clusterList",
                                          "-n", namesrv.addr()});
  EXPECT_EQ(tls_admin.exit_code, 0) << tls_admin.output;

  // A garbage handshake closes its own connection and nothing else.
  {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket raw(io);
    raw.connect({boost::asio::ip::make_address("127.0.0.1"), broker.port()});
    LimitReads(raw);
    std::string garbage("\x16\x03\x01\x00\x30", 5);
    garbage += std::string(48, '\x5A');
    boost::system::error_code ec;
    boost::asio::write(raw, boost::asio::buffer(garbage), ec);
    char buf[256];
    size_t total = 0;
    while (!ec && total < 4096) total += raw.read_some(boost::asio::buffer(buf), ec);
    EXPECT_TRUE(ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset)
        << ec.message();
  }
  auto after = SendOne(namesrv.addr(), false, "perm-after", "PermissiveTopic", "after");
  EXPECT_TRUE(after.ok()) << after.status().ToString();
}

TEST_F(TlsProcessTest, DisabledRefusesTls) {
  NamesrvProcess namesrv({{"tls.server.mode", "disabled"}, {"tls.config.file", NoFile()}});
  ASSERT_TRUE(namesrv.Start());
  EXPECT_EQ(RunTool("mqadmin", {"clusterList", "-n", namesrv.addr()}).exit_code, 0);
  ToolRun tls_admin = RunTool("mqadmin", {"clusterList", "-n", namesrv.addr(), "--tls",
                                          "--tlsConfigFile", NoFile()});
  EXPECT_NE(tls_admin.exit_code, 0) << tls_admin.output;
}

TEST_F(TlsProcessTest, RequiredClientCertificate) {
  Props props = ServerProps("enforcing");
  props["tls.server.need.client.auth"] = "require";
  props["tls.server.authClient"] = "true";
  props["tls.server.trustCertPath"] = certs_->ca_cert;
  NamesrvProcess namesrv(props);
  ASSERT_TRUE(namesrv.Start());
  ToolRun without = RunTool("mqadmin", {"clusterList", "-n", namesrv.addr(), "--tls",
                                        "--tlsConfigFile", VerifyFile()});
  EXPECT_NE(without.exit_code, 0) << without.output;
  ToolRun with = RunTool("mqadmin", {"clusterList", "-n", namesrv.addr(), "--tls",
                                     "--tlsConfigFile", WithCertFile()});
  EXPECT_EQ(with.exit_code, 0) << with.output;
}

// The slave's HA link (and its registration and metadata sync) over TLS to an enforcing
// master: the CommitLogs become identical; a plain "slave" gets nothing from the HA port
// and a handshake that stalls is closed at its deadline.
TEST_F(TlsProcessTest, HaLinkOverTlsToAnEnforcingMaster) {
  NamesrvProcess namesrv(ServerProps("enforcing"));
  ASSERT_TRUE(namesrv.Start());
  Props common = ServerProps("enforcing");
  common["tls.enable"] = "true";
  common["serverTlsHandshakeTimeoutMillis"] = "1000";
  common["flushDiskType"] = "ASYNC_FLUSH";
  Props master_props = common;
  master_props["brokerRole"] = "SYNC_MASTER";
  BrokerProcess master(master_props);
  ASSERT_TRUE(master.Start(namesrv.addr()));
  ASSERT_TRUE(WaitRegistered(namesrv.addr(), true)) << master.ReadLog();
  Props slave_props = common;
  slave_props["brokerId"] = "1";
  slave_props["brokerRole"] = "SLAVE";
  slave_props["slaveSynchronizeInterval"] = "500";
  slave_props["haMasterAddress"] = "127.0.0.1:" + std::to_string(master.ha_port());
  BrokerProcess slave(slave_props);
  ASSERT_TRUE(slave.Start(namesrv.addr()));

  // SYNC_MASTER answers SEND_OK only once the slave acked over the TLS link.
  ProducerConfig config;
  SetClient(&config, namesrv.addr(), true, "ha-tls-producer");
  config.group_name = "P_ha_tls";
  Producer producer(config);
  ASSERT_TRUE(producer.Start().ok());
  int send_ok = 0;
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto r = producer.Send(Message("HaTlsTopic", "", "ha-" + std::to_string(send_ok)));
        if (r.ok() && r->send_status == SendStatus::kSendOk) ++send_ok;
        return send_ok >= 20;
      },
      60s))
      << "SEND_OK answers: " << send_ok << "\nmaster:\n"
      << master.ReadLog() << "\nslave:\n"
      << slave.ReadLog();
  producer.Shutdown();
  const std::string file = "/commitlog/00000000000000000000";
  EXPECT_TRUE(WaitUntil(
      [&] {
        return ReadFileOrEmpty(master.store_dir() + file) == ReadFileOrEmpty(slave.store_dir() + file);
      },
      20s))
      << "the slave's CommitLog differs from the master's";
  EXPECT_NE(slave.ReadLog().find("HA connected to master"), std::string::npos);
  EXPECT_NE(master.ReadLog().find("connected with TLS"), std::string::npos) << master.ReadLog();

  // A plain slave (an 8-byte report of offset 0) gets no byte of the CommitLog.
  {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket raw(io);
    raw.connect({boost::asio::ip::make_address("127.0.0.1"), master.ha_port()});
    LimitReads(raw);
    boost::asio::write(raw, boost::asio::buffer(std::string(8, '\0')));
    char buf[64];
    boost::system::error_code ec;
    const size_t n = raw.read_some(boost::asio::buffer(buf), ec);
    EXPECT_EQ(n, 0u);
    EXPECT_TRUE(ec) << "the master must close a plain HA connection";
  }
  // A handshake that stops after its first record header is closed at the deadline.
  {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket raw(io);
    raw.connect({boost::asio::ip::make_address("127.0.0.1"), master.ha_port()});
    LimitReads(raw);
    boost::asio::write(raw, boost::asio::buffer(std::string("\x16\x03\x01\x02\x00", 5)));
    const auto start = std::chrono::steady_clock::now();
    char buf[64];
    boost::system::error_code ec;
    while (!ec) raw.read_some(boost::asio::buffer(buf), ec);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  }
}

TEST_F(TlsProcessTest, BadCertificateStopsTheStartNamingTheFile) {
  TempDir dir;
  std::ofstream conf(dir.Join("namesrv.conf"));
  conf << "listenPort=" << PickFreePort() << "\nbindAddress=127.0.0.1\n";
  Props props = ServerProps("enforcing");
  props["tls.server.certPath"] = dir_->Join("missing.pem");
  for (const auto& [k, v] : props) conf << k << "=" << v << "\n";
  conf.close();
  ChildProcess p;
  ASSERT_TRUE(p.Start({NamesrvBinary(), "-c", dir.Join("namesrv.conf")}, dir.Join("out.log"),
                      {{"APOGEE_LOG_DIR", dir.path()}}));
  const int status = p.Wait(20s);
  ASSERT_NE(status, -1) << "mqnamesrv kept running with a missing certificate";
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(p.ReadLog().find("missing.pem"), std::string::npos) << p.ReadLog();
}

}  // namespace
}  // namespace apogee::testing
