// A FakeTransport answering as a NameServer that knows one cluster ("DefaultCluster") with
// broker set "broker-a" (master 10.0.0.1:10911, slave 10.0.0.2:10911), and routes every
// topic not starting with '%' to broker-a with 4 queues; plus JSON parsing for the
// answers the dashboard API writes.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "admin/admin_client.h"
#include "dashboard/api_request.h"
#include "protocol/json_util.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/route_data.h"
#include "unit/admin/fake_transport.h"

namespace apogee::dashboard::testing {

inline constexpr char kMasterAddr[] = "10.0.0.1:10911";
inline constexpr char kSlaveAddr[] = "10.0.0.2:10911";

class ApiHarness {
 public:
  ApiHarness() : admin_(&transport_) {
    protocol::ClusterInfo info;
    protocol::BrokerData b{"DefaultCluster", "broker-a", {{0, kMasterAddr}, {1, kSlaveAddr}}};
    info.broker_addr_table["broker-a"] = b;
    info.cluster_addr_table["DefaultCluster"] = {"broker-a"};
    transport_.OnBody(protocol::request_code::kGetBrokerClusterInfo, protocol::EncodeClusterInfo(info));
    transport_.On(protocol::request_code::kGetRouteinfoByTopic,
                  [b](const std::string&, const protocol::RemotingCommand& req) {
                    std::string topic(req.ext_fields.Get("topic").value_or(""));
                    if (topic.rfind("%", 0) == 0) {
                      return protocol::RemotingCommand::MakeResponse(
                          req, protocol::response_code::kTopicNotExist,
                          "No topic route info in name server for the topic: " + topic);
                    }
                    protocol::TopicRouteData route;
                    route.queue_datas.push_back({"broker-a", 4, 4, 6, 0});
                    route.broker_datas.push_back(b);
                    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
                    r.body = protocol::EncodeTopicRouteData(route, protocol::MapKeyStyle::kQuoted);
                    return r;
                  });
  }

  admin::testing::FakeTransport& transport() { return transport_; }
  admin::MQAdminClient* admin() { return &admin_; }

 private:
  admin::testing::FakeTransport transport_;
  admin::MQAdminClient admin_;
};

inline ApiRequest Request(std::map<std::string, std::string> params) {
  ApiRequest r;
  r.params = std::move(params);
  return r;
}

// A handler answering SUCCESS with ext field offset=`offset` (the offset queries).
inline admin::testing::FakeTransport::Handler OffsetAnswer(int64_t offset) {
  return [offset](const std::string&, const protocol::RemotingCommand& req) {
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    r.ext_fields.Set("offset", std::to_string(offset));
    return r;
  };
}

// Parses an API answer; fails the test when it is not a JSON object.
inline protocol::json::Document ParseJson(const std::string& text) {
  protocol::json::Document doc;
  Status s = protocol::json::ParseObject(text, "answer", &doc);
  EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << text;
  return doc;
}

// A member's value as text (the parser keeps numbers as their source text).
inline std::string Text(const protocol::json::Value& v) {
  if (v.IsString()) return std::string(v.GetString(), v.GetStringLength());
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  if (v.IsNull()) return "null";
  return "<object or array>";
}

}  // namespace apogee::dashboard::testing
