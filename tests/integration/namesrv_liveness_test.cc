// mqnamesrv as a real process: brokers that stop registering expire after the configured
// timeout; a broker whose connection closes is removed at once.
#include <gtest/gtest.h>

#include <chrono>

#include "namesrv_process.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"

namespace apogee::testing {
namespace {

namespace resp = protocol::response_code;
using namespace std::chrono_literals;

int32_t RouteCode(remoting::RemotingClient& client, const std::string& addr,
                  const std::string& topic) {
  auto res = client.InvokeSync(addr, RouteRequest(topic), 3s);
  return res.ok() ? res->code : -1;
}

TEST(NamesrvLivenessTest, SilentBrokerExpiresAfterShortTimeout) {
  NamesrvProcess ns(Props{{"brokerChannelExpiredTime", "1500"}, {"scanNotActiveBrokerInterval", "200"}});
  ASSERT_TRUE(ns.Start());
  remoting::RemotingClient broker, client;
  broker.Start();
  client.Start();
  auto reg = broker.InvokeSync(ns.addr(),
                               RegisterBrokerRequest("C", "broker-a", 0, "127.0.0.1:10911",
                                                     {{"Expiring", 4}}),
                               3s);
  ASSERT_TRUE(reg.ok());
  ASSERT_EQ(reg->code, resp::kSuccess);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(RouteCode(client, ns.addr(), "Expiring"), resp::kSuccess);
  // The broker keeps its connection open but stops registering.
  ASSERT_TRUE(WaitUntil([&] { return RouteCode(client, ns.addr(), "Expiring") == resp::kTopicNotExist; },
                        10s));
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, 1400ms);  // not before the timeout
  EXPECT_NE(ns.process().ReadLog().find("not seen for"), std::string::npos);
}

TEST(NamesrvLivenessTest, RegisteringKeepsBrokerAlive) {
  NamesrvProcess ns(Props{{"brokerChannelExpiredTime", "1500"}, {"scanNotActiveBrokerInterval", "200"}});
  ASSERT_TRUE(ns.Start());
  remoting::RemotingClient broker, client;
  broker.Start();
  client.Start();
  for (int i = 0; i < 8; ++i) {
    auto reg = broker.InvokeSync(ns.addr(),
                                 RegisterBrokerRequest("C", "broker-a", 0, "127.0.0.1:10911",
                                                       {{"Kept", 4}}),
                                 3s);
    ASSERT_TRUE(reg.ok());
    std::this_thread::sleep_for(500ms);
    ASSERT_EQ(RouteCode(client, ns.addr(), "Kept"), resp::kSuccess) << "after " << i;
  }
}

TEST(NamesrvLivenessTest, HeaderTimeoutOverridesDefault) {
  NamesrvProcess ns(Props{{"scanNotActiveBrokerInterval", "200"}});  // default 120 s
  ASSERT_TRUE(ns.Start());
  remoting::RemotingClient broker, client;
  broker.Start();
  client.Start();
  auto req = RegisterBrokerRequest("C", "broker-a", 0, "127.0.0.1:10911", {{"Short", 4}});
  req.ext_fields.Set("heartbeatTimeoutMillis", "1000");  // 5.x brokers send this
  ASSERT_TRUE(broker.InvokeSync(ns.addr(), req, 3s).ok());
  EXPECT_TRUE(WaitUntil([&] { return RouteCode(client, ns.addr(), "Short") == resp::kTopicNotExist; },
                        10s));
}

TEST(NamesrvLivenessTest, ClosedConnectionRemovesBrokerAtOnce) {
  NamesrvProcess ns;  // 120 s expiry: only the close can explain a quick removal
  ASSERT_TRUE(ns.Start());
  remoting::RemotingClient client;
  client.Start();
  {
    remoting::RemotingClient broker_a, broker_b;
    broker_a.Start();
    broker_b.Start();
    ASSERT_TRUE(broker_a.InvokeSync(ns.addr(),
                                    RegisterBrokerRequest("C", "broker-a", 0, "127.0.0.1:10911",
                                                          {{"T", 4}}),
                                    3s)
                    .ok());
    ASSERT_TRUE(broker_b.InvokeSync(ns.addr(),
                                    RegisterBrokerRequest("C", "broker-b", 0, "127.0.0.1:10931",
                                                          {{"T", 4}}),
                                    3s)
                    .ok());
    broker_a.Shutdown();  // closes broker-a's connection only
    ASSERT_TRUE(WaitUntil(
        [&] {
          auto r = client.InvokeSync(ns.addr(), RouteRequest("T"), 3s);
          return r.ok() && r->body.find("broker-a") == std::string::npos &&
                 r->body.find("broker-b") != std::string::npos;
        },
        3s));
  }
  // broker-b's connection closed too when its client went away.
  EXPECT_TRUE(WaitUntil([&] { return RouteCode(client, ns.addr(), "T") == resp::kTopicNotExist; },
                        3s));
}

}  // namespace
}  // namespace apogee::testing
