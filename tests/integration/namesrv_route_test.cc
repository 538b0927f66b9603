// mqnamesrv as a real process: registrations from several brokers (two clusters, a
// master and its slave), route and cluster queries, two NameServers side by side, KV
// config across a restart.
#include <gtest/gtest.h>

#include <chrono>

#include "namesrv_process.h"
#include "protocol/kv_table.h"
#include "protocol/register_broker_body.h"
#include "protocol/response_code.h"
#include "protocol/route_data.h"
#include "protocol/topic_list.h"
#include "remoting/remoting_client.h"

namespace apogee::testing {
namespace {

namespace rc = protocol::request_code;
namespace resp = protocol::response_code;
using protocol::RemotingCommand;
using namespace std::chrono_literals;

class NamesrvRouteTest : public ::testing::Test {
 protected:
  // Each simulated broker gets its own client, so each has its own connection (the
  // NameServer ties a broker's liveness to its connection).
  remoting::RemotingClient& Client(const std::string& who) {
    auto& c = clients_[who];
    if (!c) {
      c = std::make_unique<remoting::RemotingClient>();
      c->Start();
    }
    return *c;
  }

  RemotingCommand Call(const std::string& who, const std::string& addr, RemotingCommand req) {
    auto res = Client(who).InvokeSync(addr, std::move(req), 5s);
    EXPECT_TRUE(res.ok()) << res.status().ToString();
    return res.ok() ? std::move(res).value() : RemotingCommand{};
  }

  RemotingCommand Simple(int32_t code, std::map<std::string, std::string> ext = {}) {
    RemotingCommand req = RemotingCommand::MakeRequest(code);
    req.has_ext_fields = !ext.empty();
    for (auto& [k, v] : ext) req.ext_fields.Set(k, v);
    return req;
  }

  std::map<std::string, std::unique_ptr<remoting::RemotingClient>> clients_;
};

TEST_F(NamesrvRouteTest, TwoClustersMasterAndSlaveRoutesAndClusterInfo) {
  NamesrvProcess ns;
  ASSERT_TRUE(ns.Start());
  const std::string a = ns.addr();

  RemotingCommand m = Call("broker-a-0", a,
                           RegisterBrokerRequest("ClusterA", "broker-a", 0, "127.0.0.1:10911",
                                                 {{"TopicTest", 4}, {"OnlyA", 2}}));
  ASSERT_EQ(m.code, resp::kSuccess) << m.remark.value_or("");
  EXPECT_FALSE(m.ext_fields.Has("masterAddr"));

  RemotingCommand s = Call("broker-a-1", a,
                           RegisterBrokerRequest("ClusterA", "broker-a", 1, "127.0.0.1:10921",
                                                 {{"TopicTest", 4}}));
  ASSERT_EQ(s.code, resp::kSuccess);
  EXPECT_EQ(s.ext_fields.Get("masterAddr").value(), "127.0.0.1:10911");
  EXPECT_EQ(s.ext_fields.Get("haServerAddr").value(), "127.0.0.1:10911-ha");

  RemotingCommand b = Call("broker-b-0", a,
                           RegisterBrokerRequest("ClusterB", "broker-b", 0, "127.0.0.1:20911",
                                                 {{"TopicTest", 8}}, 1, /*compressed=*/true));
  ASSERT_EQ(b.code, resp::kSuccess) << b.remark.value_or("");

  RemotingCommand route = Call("client", a, RouteRequest("TopicTest", 401));
  ASSERT_EQ(route.code, resp::kSuccess) << route.remark.value_or("");
  auto data = protocol::DecodeTopicRouteData(route.body);
  ASSERT_TRUE(data.ok()) << data.status().ToString() << "\n" << route.body;
  ASSERT_EQ(data->queue_datas.size(), 2u);
  ASSERT_EQ(data->broker_datas.size(), 2u);
  for (const auto& bd : data->broker_datas) {
    if (bd.broker_name == "broker-a") {
      EXPECT_EQ(bd.cluster, "ClusterA");
      EXPECT_EQ(bd.broker_addrs.at(0), "127.0.0.1:10911");
      EXPECT_EQ(bd.broker_addrs.at(1), "127.0.0.1:10921");
    } else {
      EXPECT_EQ(bd.broker_name, "broker-b");
      EXPECT_EQ(bd.broker_addrs.at(0), "127.0.0.1:20911");
    }
  }
  for (const auto& qd : data->queue_datas) {
    EXPECT_EQ(qd.write_queue_nums, qd.broker_name == "broker-a" ? 4 : 8);
  }

  // An old client (ali-ons sends 121) gets fastjson's bare keys.
  RemotingCommand legacy = Call("client", a, RouteRequest("TopicTest", 121));
  EXPECT_NE(legacy.body.find(R"({0:"127.0.0.1:10911",1:"127.0.0.1:10921"})"), std::string::npos)
      << legacy.body;

  RemotingCommand missing = Call("client", a, RouteRequest("NoSuchTopic"));
  EXPECT_EQ(missing.code, resp::kTopicNotExist);
  EXPECT_NE(missing.remark.value_or("").find("No topic route info in name server for the topic: "
                                             "NoSuchTopic"),
            std::string::npos);

  RemotingCommand cluster = Call("admin", a, Simple(rc::kGetBrokerClusterInfo));
  auto info = protocol::DecodeClusterInfo(cluster.body);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->cluster_addr_table.at("ClusterA"), std::set<std::string>{"broker-a"});
  EXPECT_EQ(info->cluster_addr_table.at("ClusterB"), std::set<std::string>{"broker-b"});

  auto topics = protocol::DecodeTopicList(Call("admin", a, Simple(rc::kGetAllTopicListFromNameserver)).body);
  ASSERT_TRUE(topics.ok());
  EXPECT_EQ(topics->topic_list, (std::set<std::string>{"OnlyA", "TopicTest"}));
  auto by_cluster = protocol::DecodeTopicList(
      Call("admin", a, Simple(rc::kGetTopicsByCluster, {{"cluster", "ClusterB"}})).body);
  ASSERT_TRUE(by_cluster.ok());
  EXPECT_EQ(by_cluster->topic_list, std::set<std::string>{"TopicTest"});

  // Write permission administration, as mqadmin wipeWritePerm does.
  RemotingCommand wipe = Call("admin", a, Simple(rc::kWipeWritePermOfBroker, {{"brokerName", "broker-a"}}));
  EXPECT_EQ(wipe.ext_fields.Get("wipeTopicCount").value_or(""), "2");
  auto wiped = protocol::DecodeTopicRouteData(Call("client", a, RouteRequest("OnlyA", 401)).body);
  ASSERT_TRUE(wiped.ok());
  EXPECT_EQ(wiped->queue_datas[0].perm, 4);

  // A broker shutting down unregisters; its slave keeps the broker set in the route.
  RemotingCommand unreg = Call("broker-b-0", a,
                               Simple(rc::kUnregisterBroker, {{"brokerName", "broker-b"},
                                                              {"brokerAddr", "127.0.0.1:20911"},
                                                              {"clusterName", "ClusterB"},
                                                              {"brokerId", "0"}}));
  EXPECT_EQ(unreg.code, resp::kSuccess);
  auto after = protocol::DecodeTopicRouteData(Call("client", a, RouteRequest("TopicTest", 401)).body);
  ASSERT_TRUE(after.ok());
  ASSERT_EQ(after->broker_datas.size(), 1u);
  EXPECT_EQ(after->broker_datas[0].broker_name, "broker-a");
}

TEST_F(NamesrvRouteTest, TwoNameServersSideBySideKeepSeparateState) {
  NamesrvProcess ns1, ns2;
  ASSERT_TRUE(ns1.Start());
  ASSERT_TRUE(ns2.Start());
  // A broker registers with every NameServer; a second one only with the first.
  for (const std::string& addr : {ns1.addr(), ns2.addr()}) {
    ASSERT_EQ(Call("broker-a", addr, RegisterBrokerRequest("C", "broker-a", 0, "127.0.0.1:10911",
                                                           {{"Shared", 4}}))
                  .code,
              resp::kSuccess);
  }
  ASSERT_EQ(Call("broker-b", ns1.addr(),
                 RegisterBrokerRequest("C", "broker-b", 0, "127.0.0.1:10931", {{"Shared", 4}}))
                .code,
            resp::kSuccess);
  auto r1 = protocol::DecodeTopicRouteData(Call("client", ns1.addr(), RouteRequest("Shared", 401)).body);
  auto r2 = protocol::DecodeTopicRouteData(Call("client", ns2.addr(), RouteRequest("Shared", 401)).body);
  ASSERT_TRUE(r1.ok());
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r1->broker_datas.size(), 2u);
  EXPECT_EQ(r2->broker_datas.size(), 1u);
  // Stopping one leaves the other answering.
  EXPECT_EQ(ns1.process().Stop(), 0);
  EXPECT_EQ(Call("client", ns2.addr(), RouteRequest("Shared")).code, resp::kSuccess);
}

TEST_F(NamesrvRouteTest, KvConfigSurvivesRestartAndFeedsOrderTopicConf) {
  TempDir kv_dir;
  std::string kv_path = kv_dir.Join("kv/kvConfig.json");
  {
    NamesrvProcess ns({}, kv_path);
    ASSERT_TRUE(ns.Start());
    RemotingCommand put = Call("admin", ns.addr(),
                               Simple(rc::kPutKvConfig, {{"namespace", "ORDER_TOPIC_CONFIG"},
                                                         {"key", "OrderTopic"},
                                                         {"value", "broker-a:4"}}));
    ASSERT_EQ(put.code, resp::kSuccess) << put.remark.value_or("");
    EXPECT_EQ(ns.process().Stop(), 0);
  }
  clients_.clear();
  NamesrvProcess ns(Props{{"orderMessageEnable", "true"}}, kv_path);
  ASSERT_TRUE(ns.Start());
  RemotingCommand get = Call("admin", ns.addr(), Simple(rc::kGetKvConfig, {{"namespace", "ORDER_TOPIC_CONFIG"},
                                                                         {"key", "OrderTopic"}}));
  ASSERT_EQ(get.code, resp::kSuccess);
  EXPECT_EQ(get.ext_fields.Get("value").value_or(""), "broker-a:4");

  // The registering broker learns the order config; clients see orderTopicConf.
  RemotingCommand reg = Call("broker", ns.addr(), RegisterBrokerRequest("C", "broker-a", 0, "127.0.0.1:10911",
                                                                       {{"OrderTopic", 4}}));
  auto result = protocol::DecodeRegisterBrokerResult(reg);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->kv_table.table.at("OrderTopic"), "broker-a:4");
  auto route = protocol::DecodeTopicRouteData(Call("client", ns.addr(), RouteRequest("OrderTopic")).body);
  ASSERT_TRUE(route.ok());
  EXPECT_EQ(route->order_topic_conf.value_or(""), "broker-a:4");
}

TEST_F(NamesrvRouteTest, NamesrvConfigRequests) {
  NamesrvProcess ns;
  ASSERT_TRUE(ns.Start());
  RemotingCommand get = Call("admin", ns.addr(), Simple(rc::kGetNamesrvConfig));
  EXPECT_NE(get.body.find("listenPort=" + std::to_string(ns.port())), std::string::npos);
  RemotingCommand update = Simple(rc::kUpdateNamesrvConfig);
  update.body = "kvConfigPath=/etc/passwd\n";
  RemotingCommand refused = Call("admin", ns.addr(), update);
  EXPECT_EQ(refused.code, resp::kNoPermission);
  update.body = "enableAllTopicList=false\n";
  EXPECT_EQ(Call("admin", ns.addr(), update).code, resp::kSuccess);
  EXPECT_EQ(Call("admin", ns.addr(), Simple(rc::kGetAllTopicListFromNameserver)).code,
            resp::kSystemError);
  EXPECT_EQ(Call("admin", ns.addr(), Simple(12345)).code, resp::kRequestCodeNotSupported);
}

}  // namespace
}  // namespace apogee::testing
