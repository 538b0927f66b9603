#include "dashboard/producer_api.h"

#include <gtest/gtest.h>

#include "api_test_util.h"
#include "protocol/admin_bodies.h"

namespace apogee::dashboard {
namespace {

namespace rc = protocol::request_code;
using testing::ApiHarness;
using testing::kMasterAddr;
using testing::Text;

TEST(ProducerApiTest, ListsTheGroupsConnectionsAtTheTopicsMasters) {
  ApiHarness h;
  h.transport().On(rc::kGetProducerConnectionList, [](const std::string&, const protocol::RemotingCommand& req) {
    protocol::ProducerConnection pc;
    pc.connection_set.push_back({"10.0.0.9@7", "10.0.0.9:4001", protocol::LanguageCode::kCpp, 401});
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.body = protocol::EncodeProducerConnection(pc);
    return r;
  });
  ApiRequest req = testing::Request({{"group", "PG"}, {"topic", "T"}});
  auto json = ProducersJson(h.admin(), req);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto calls = h.transport().CallsWithCode(rc::kGetProducerConnectionList);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, kMasterAddr);
  EXPECT_EQ(calls[0].request.ext_fields.Get("producerGroup"), std::optional<std::string_view>("PG"));
  auto doc = testing::ParseJson(*json);
  ASSERT_EQ(doc["connections"].Size(), 1u);
  EXPECT_EQ(Text(doc["connections"][0]["clientAddr"]), "10.0.0.9:4001");
  EXPECT_EQ(Text(doc["connections"][0]["language"]), "CPP");
  EXPECT_EQ(Text(doc["connections"][0]["brokerName"]), "broker-a");
}

TEST(ProducerApiTest, UnknownGroupShowsTheBrokersRemarkPerBroker) {
  ApiHarness h;
  h.transport().On(rc::kGetProducerConnectionList, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kSystemError,
                                                   "the producer group[PG] not exist");
  });
  ApiRequest req = testing::Request({{"group", "PG"}, {"topic", "T"}});
  auto json = ProducersJson(h.admin(), req);
  ASSERT_TRUE(json.ok());
  auto doc = testing::ParseJson(*json);
  EXPECT_EQ(doc["connections"].Size(), 0u);
  EXPECT_NE(Text(doc["errors"]["broker-a"]).find("not exist"), std::string::npos);
  req.params.erase("topic");
  EXPECT_TRUE(ProducersJson(h.admin(), req).status().Is(StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace apogee::dashboard
