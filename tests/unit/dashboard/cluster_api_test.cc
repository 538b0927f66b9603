#include "dashboard/cluster_api.h"

#include <gtest/gtest.h>

#include "api_test_util.h"
#include "protocol/kv_table.h"

namespace apogee::dashboard {
namespace {

namespace rc = protocol::request_code;
using testing::ApiHarness;
using testing::kMasterAddr;
using testing::kSlaveAddr;
using testing::Text;

TEST(ClusterApiTest, ParseTpsTripleReadsThreeWindowsAndZeroesTheRest) {
  EXPECT_EQ(ParseTpsTriple("12.50 3.00 0.10"), (std::array<double, 3>{12.5, 3.0, 0.1}));
  EXPECT_EQ(ParseTpsTriple("7"), (std::array<double, 3>{7, 0, 0}));
  EXPECT_EQ(ParseTpsTriple(""), (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(ParseTpsTriple("x 2.5 1e"), (std::array<double, 3>{0, 2.5, 0}));
}

TEST(ClusterApiTest, ListsEveryBrokerWithRuntimeInfoAndTheSlavesHaLag) {
  ApiHarness h;
  h.transport().On(rc::kGetBrokerRuntimeInfo, [](const std::string& addr, const protocol::RemotingCommand& req) {
    protocol::KVTable kv;
    kv.table = {{"brokerVersionDesc", "V4_9_4"}, {"putTps", "12.50 3.00 0.10"}, {"getTransferedTps", "1.00 0 0"},
                {"commitLogDiskRatio", "0.24"}, {"msgPutTotalTodayNow", "42"},
                {"commitLogMaxOffset", addr == kMasterAddr ? "5000" : "3800"}};
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeKVTable(kv);
    return r;
  });
  auto json = ClusterJson(h.admin());
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto doc = testing::ParseJson(*json);
  const auto& brokers = doc["brokers"];
  ASSERT_EQ(brokers.Size(), 2u);
  const auto& master = brokers[0];
  EXPECT_EQ(Text(master["addr"]), kMasterAddr);
  EXPECT_EQ(Text(master["role"]), "MASTER");
  EXPECT_EQ(Text(master["brokerName"]), "broker-a");
  EXPECT_EQ(Text(master["cluster"]), "DefaultCluster");
  EXPECT_EQ(Text(master["version"]), "V4_9_4");
  EXPECT_EQ(Text(master["diskRatio"]), "0.24");
  EXPECT_EQ(Text(master["putTps"][0]), "12.5");
  EXPECT_EQ(Text(master["getTps"][0]), "1.0");
  EXPECT_EQ(Text(master["msgPutTotalTodayNow"]), "42");
  EXPECT_FALSE(master.HasMember("haLagBytes"));
  EXPECT_EQ(Text(master["runtime"]["putTps"]), "12.50 3.00 0.10");
  const auto& slave = brokers[1];
  EXPECT_EQ(Text(slave["addr"]), kSlaveAddr);
  EXPECT_EQ(Text(slave["role"]), "SLAVE");
  EXPECT_EQ(Text(slave["haLagBytes"]), "1200");
  EXPECT_EQ(Text(doc["nameServers"][0]), "ns1:9876");
}

TEST(ClusterApiTest, ABrokerThatDoesNotAnswerIsListedWithItsError) {
  ApiHarness h;
  h.transport().On(rc::kGetBrokerRuntimeInfo, [](const std::string& addr, const protocol::RemotingCommand& req) {
    if (addr == kSlaveAddr) {
      return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kSystemBusy, "too busy");
    }
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeKVTable({});
    return r;
  });
  auto json = ClusterJson(h.admin());
  ASSERT_TRUE(json.ok());
  auto doc = testing::ParseJson(*json);
  EXPECT_FALSE(doc["brokers"][0].HasMember("error"));
  std::string error = Text(doc["brokers"][1]["error"]);
  EXPECT_NE(error.find("too busy"), std::string::npos) << error;
  EXPECT_NE(error.find(kSlaveAddr), std::string::npos) << error;
}

TEST(ClusterApiTest, NameServerFailureIsTheAnswer) {
  admin::testing::FakeTransport transport;  // answers nothing: REQUEST_CODE_NOT_SUPPORTED
  admin::MQAdminClient admin(&transport);
  auto json = ClusterJson(&admin);
  ASSERT_FALSE(json.ok());
  EXPECT_NE(json.status().message().find("no fake handler"), std::string::npos);
}

}  // namespace
}  // namespace apogee::dashboard
