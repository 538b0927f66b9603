// Cluster membership with ACL on (issue 16): a NameServer with aclEnable=true accepts
// REGISTER_BROKER, UNREGISTER_BROKER, WIPE_WRITE_PERM, DELETE_TOPIC_IN_NAMESRV, KV and
// config changes only when signed by an admin account; route queries stay open. The
// fake broker is registered at another loopback address (127.0.0.2), never outside.
#include <gtest/gtest.h>

#include <chrono>

#include "acl_harness.h"
#include "protocol/route_data.h"

namespace apogee::testing {
namespace {

using namespace std::chrono_literals;
namespace req = protocol::request_code;
namespace rc = protocol::response_code;
using protocol::RemotingCommand;

constexpr const char* kFakeAddr = "127.0.0.2:10911";

class AclNamesrvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cluster_.Start());
    anonymous_ = SigningClient({});
    user_ = SigningClient(kAclUser);
    admin_ = SigningClient(kAclAdmin);
  }

  RemotingCommand Call(remoting::RemotingClient& client, RemotingCommand request) {
    return CallOrFail(client, cluster_.namesrv().addr(), std::move(request));
  }
  static RemotingCommand Simple(int32_t code, std::map<std::string, std::string> ext = {}) {
    RemotingCommand r = RemotingCommand::MakeRequest(code);
    r.has_ext_fields = true;
    for (const auto& [k, v] : ext) r.ext_fields.Set(k, v);
    return r;
  }
  // The addresses the route of TBW102 sends clients to.
  std::set<std::string> RouteAddrs() {
    auto r = anonymous_->InvokeSync(cluster_.namesrv().addr(), RouteRequest("TBW102"), 5s);
    std::set<std::string> out;
    if (!r.ok() || r->code != rc::kSuccess) return out;
    auto route = protocol::DecodeTopicRouteData(r->body);
    if (!route.ok()) return out;
    for (const auto& b : route->broker_datas) {
      for (const auto& [id, addr] : b.broker_addrs) out.insert(addr);
    }
    return out;
  }
  std::string RealAddr() { return cluster_.broker().addr(); }

  AclCluster cluster_;
  std::unique_ptr<remoting::RemotingClient> anonymous_, user_, admin_;
};

TEST_F(AclNamesrvTest, FakeRegistrationCannotHijackTheRoute) {
  ASSERT_EQ(RouteAddrs(), std::set<std::string>{RealAddr()});
  // The attacker registers the real broker set at its own address, unsigned and as a
  // non-admin account, on a connection it keeps and then closes.
  for (auto* client : {anonymous_.get(), user_.get()}) {
    RemotingCommand fake = RegisterBrokerRequest("DefaultCluster", "broker-a", 0, kFakeAddr,
                                                 {{"TBW102", 8}}, 1 << 30);
    RemotingCommand r = Call(*client, std::move(fake));
    EXPECT_EQ(r.code, rc::kNoPermission) << r.remark.value_or("");
    EXPECT_EQ(RouteAddrs(), std::set<std::string>{RealAddr()});
  }
  anonymous_->CloseChannel(cluster_.namesrv().addr());
  user_->CloseChannel(cluster_.namesrv().addr());
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(RouteAddrs(), std::set<std::string>{RealAddr()});
}

TEST_F(AclNamesrvTest, RouteChangesNeedAdmin) {
  const std::map<std::string, std::string> unregister = {
      {"brokerName", "broker-a"}, {"brokerAddr", RealAddr()}, {"clusterName", "DefaultCluster"},
      {"brokerId", "0"}};
  for (auto* client : {anonymous_.get(), user_.get()}) {
    EXPECT_EQ(Call(*client, Simple(req::kUnregisterBroker, unregister)).code, rc::kNoPermission);
    EXPECT_EQ(Call(*client, Simple(req::kWipeWritePermOfBroker, {{"brokerName", "broker-a"}})).code,
              rc::kNoPermission);
    EXPECT_EQ(Call(*client, Simple(req::kDeleteTopicInNamesrv, {{"topic", "TBW102"}})).code,
              rc::kNoPermission);
    EXPECT_EQ(Call(*client, Simple(req::kPutKvConfig,
                                   {{"namespace", "ORDER_TOPIC_CONFIG"}, {"key", "TBW102"},
                                    {"value", "broker-x:1"}}))
                  .code,
              rc::kNoPermission);
  }
  EXPECT_EQ(RouteAddrs(), std::set<std::string>{RealAddr()});
  auto route = anonymous_->InvokeSync(cluster_.namesrv().addr(), RouteRequest("TBW102"), 5s);
  ASSERT_TRUE(route.ok());
  auto decoded = protocol::DecodeTopicRouteData(route->body);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->queue_datas.at(0).perm & 2, 2) << "write permission was wiped";
  // An admin may.
  EXPECT_EQ(Call(*admin_, Simple(req::kPutKvConfig, {{"namespace", "AclTest"}, {"key", "k"},
                                                      {"value", "v"}}))
                .code,
            rc::kSuccess);
}

TEST_F(AclNamesrvTest, ConfigUpdatesNeedAdminAndServiceWaitIsStartupOnly) {
  RemotingCommand update = Simple(req::kUpdateNamesrvConfig);
  update.body = "needWaitForService=true\nwaitSecondsForService=2000000000\n";
  EXPECT_EQ(Call(*anonymous_, update).code, rc::kNoPermission);
  EXPECT_EQ(Call(*user_, update).code, rc::kNoPermission);
  RemotingCommand as_admin = Call(*admin_, update);
  EXPECT_NE(as_admin.code, rc::kSuccess) << "needWaitForService must not change at run time";
  EXPECT_EQ(RouteAddrs(), std::set<std::string>{RealAddr()});
  RemotingCommand harmless = Simple(req::kUpdateNamesrvConfig);
  harmless.body = "enableTopicList=true\n";
  EXPECT_EQ(Call(*admin_, harmless).code, rc::kSuccess);
}

}  // namespace
}  // namespace apogee::testing
