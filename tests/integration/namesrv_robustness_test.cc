// mqnamesrv as a real process: malformed frames close only the connection that sent
// them; flags; clean stop on SIGTERM.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "namesrv_process.h"
#include "testutil/test_util.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"

namespace apogee::testing {
namespace {

namespace resp = protocol::response_code;
using namespace std::chrono_literals;

// A plain socket, for bytes no well-behaved client would send.
class RawSocket {
 public:
  explicit RawSocket(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    timeval tv{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  }
  ~RawSocket() { ::close(fd_); }
  bool connected() const { return connected_; }
  bool Send(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  // True when the server closed the connection (EOF or reset) within the receive timeout.
  bool ClosedByPeer() {
    char buf[256];
    while (true) {
      ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n == 0) return true;
      if (n < 0) return errno == ECONNRESET;
    }
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

std::string Be32(uint32_t v) {
  std::string s(4, '\0');
  s[0] = static_cast<char>(v >> 24);
  s[1] = static_cast<char>(v >> 16);
  s[2] = static_cast<char>(v >> 8);
  s[3] = static_cast<char>(v);
  return s;
}

TEST(NamesrvRobustnessTest, MalformedFramesCloseOnlyTheirConnection) {
  NamesrvProcess ns;
  ASSERT_TRUE(ns.Start());
  remoting::RemotingClient good;
  good.Start();
  ASSERT_TRUE(good.InvokeSync(ns.addr(),
                              RegisterBrokerRequest("C", "broker-a", 0, "127.0.0.1:10911", {{"T", 4}}),
                              3s)
                  .ok());

  // A slow sender holding half a frame must not block anyone.
  RawSocket partial(ns.port());
  ASSERT_TRUE(partial.connected());
  ASSERT_TRUE(partial.Send(Be32(100) + Be32(20) + "{\"code\":"));

  const std::vector<std::pair<std::string, std::string>> bad_frames = {
      {"header length past the frame end", Be32(8) + Be32(200) + "abcd"},
      {"frame longer than 16 MiB", Be32(0x7FFFFFF0) + Be32(10)},
      {"header that is not JSON", Be32(4 + 9) + Be32(9) + "not json!"},
      {"unknown serialize type", Be32(4 + 2) + Be32((7u << 24) | 2) + "{}"},
  };
  for (const auto& [what, bytes] : bad_frames) {
    RawSocket bad(ns.port());
    ASSERT_TRUE(bad.connected()) << what;
    ASSERT_TRUE(bad.Send(bytes)) << what;
    EXPECT_TRUE(bad.ClosedByPeer()) << what;
    auto route = good.InvokeSync(ns.addr(), RouteRequest("T"), 3s);
    ASSERT_TRUE(route.ok()) << what << ": " << route.status().ToString();
    EXPECT_EQ(route->code, resp::kSuccess) << what;
  }
  // The good connection was the broker's own: it was never dropped, so the broker is
  // still registered (a close would have removed it).
  auto route = good.InvokeSync(ns.addr(), RouteRequest("T"), 3s);
  ASSERT_TRUE(route.ok());
  EXPECT_EQ(route->code, resp::kSuccess);
}

TEST(NamesrvRobustnessTest, SigtermStopsCleanly) {
  NamesrvProcess ns;
  ASSERT_TRUE(ns.Start());
  // Start() returns once the port accepts; the boot line is logged just after that.
  const std::string boot = "The Name Server boot success. serializeType=JSON";
  EXPECT_TRUE(apogee::testing::WaitUntil(
      [&] { return ns.process().ReadLog().find(boot) != std::string::npos; }, 10s));
  std::string log = ns.process().ReadLog();
  EXPECT_NE(log.find(boot), std::string::npos) << log;
  EXPECT_NE(log.find("127.0.0.1:" + std::to_string(ns.port())), std::string::npos);
  ASSERT_TRUE(ns.process().Signal(SIGTERM));
  int status = ns.process().Wait(10s);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_NE(ns.process().ReadLog().find("shutdown OK"), std::string::npos);
}

TEST(NamesrvRobustnessTest, FlagsPrintConfigHelpAndRejectBadInput) {
  TempDir dir;
  std::string conf = dir.Join("ns.conf");
  std::ofstream(conf) << "listenPort=12345\nbrokerChannelExpiredTime=3000\n";
  ChildProcess print;
  ASSERT_TRUE(print.Start({NamesrvBinary(), "-c", conf, "-p"}, dir.Join("p.log")));
  EXPECT_EQ(print.Wait(10s), 0);
  std::string out = print.ReadLog();
  EXPECT_NE(out.find("listenPort=12345\n"), std::string::npos) << out;
  EXPECT_NE(out.find("brokerChannelExpiredTime=3000\n"), std::string::npos);

  ChildProcess help;
  ASSERT_TRUE(help.Start({NamesrvBinary(), "-h"}, dir.Join("h.log")));
  EXPECT_EQ(help.Wait(10s), 0);
  EXPECT_NE(help.ReadLog().find("-c,--configFile"), std::string::npos);

  std::ofstream(dir.Join("bad.conf")) << "listenPort=notaport\n";
  ChildProcess bad;
  ASSERT_TRUE(bad.Start({NamesrvBinary(), "-c", dir.Join("bad.conf")}, dir.Join("b.log")));
  int status = bad.Wait(10s);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
  EXPECT_NE(bad.ReadLog().find("listenPort"), std::string::npos) << bad.ReadLog();

  ChildProcess missing;
  ASSERT_TRUE(missing.Start({NamesrvBinary(), "-c", dir.Join("absent.conf")}, dir.Join("m.log")));
  status = missing.Wait(10s);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
}

TEST(NamesrvRobustnessTest, PortInUseFailsWithAddressInMessage) {
  NamesrvProcess first;
  ASSERT_TRUE(first.Start());
  TempDir dir;
  std::ofstream(dir.Join("ns.conf")) << "listenPort=" << first.port()
                                     << "\nbindAddress=127.0.0.1\nkvConfigPath="
                                     << dir.Join("kv.json") << "\n";
  ChildProcess second;
  ASSERT_TRUE(second.Start({NamesrvBinary(), "-c", dir.Join("ns.conf")}, dir.Join("s.log"),
                           {{"APOGEE_LOG_DIR", dir.path()}}));
  int status = second.Wait(10s);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
  EXPECT_NE(second.ReadLog().find(std::to_string(first.port())), std::string::npos)
      << second.ReadLog();
}

}  // namespace
}  // namespace apogee::testing
