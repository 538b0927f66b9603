#include "admin/admin_client.h"

#include <gtest/gtest.h>

#include "fake_transport.h"
#include "protocol/request_code.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;

TEST(AdminClientTest, ResponseErrorNamesAddressCodeAndRemark) {
  protocol::RemotingCommand r;
  r.code = protocol::response_code::kTopicNotExist;
  r.remark = "topic[T] not exist";
  Status s = ResponseError("1.2.3.4:10911", r);
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_EQ(s.message(), "1.2.3.4:10911 answered TOPIC_NOT_EXIST (17): topic[T] not exist");
  r.code = protocol::response_code::kSystemError;
  r.remark.reset();
  EXPECT_EQ(ResponseError("a", r).message(), "a answered SYSTEM_ERROR (1)");
}

TEST(AdminClientTest, MissingRouteSaysWhichTopic) {
  testing::FakeTransport t;
  t.On(rc::kGetRouteinfoByTopic, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kTopicNotExist);
  });
  MQAdminClient admin(&t);
  auto route = admin.GetTopicRoute("Nope");
  ASSERT_FALSE(route.ok());
  EXPECT_EQ(route.status().message(), "No route info of this topic: Nope");
  EXPECT_EQ(t.calls()[0].request.ext_fields.Get("acceptStandardJsonOnly"), std::optional<std::string_view>("true"));
}

TEST(AdminClientTest, TransportErrorsPassThrough) {
  class Down : public testing::FakeTransport {
   public:
    Result<protocol::RemotingCommand> Invoke(std::string_view, protocol::RemotingCommand, Millis) override {
      return Status::Unavailable("connect to b:1 refused");
    }
  } t;
  MQAdminClient admin(&t);
  EXPECT_EQ(admin.GetBrokerRuntimeInfo("b:1").status().message(), "connect to b:1 refused");
}

TEST(AdminClientTest, SubscriptionGroupJsonHasJavaKeysSorted) {
  SubscriptionGroupSettings s;
  s.group_name = "G\"1";
  s.attributes["+k"] = "v";
  EXPECT_EQ(EncodeSubscriptionGroupSettings(s),
            "{\"attributes\":{\"+k\":\"v\"},\"brokerId\":0,\"consumeBroadcastEnable\":true,\"consumeEnable\":true,"
            "\"consumeFromMinEnable\":true,\"consumeMessageOrderly\":false,\"groupName\":\"G\\\"1\","
            "\"notifyConsumerIdsChangedEnable\":true,\"retryMaxTimes\":16,\"retryQueueNums\":1,"
            "\"whichBrokerWhenConsumeSlowly\":1}");
}

TEST(AdminClientTest, GetBrokerConfigParsesProperties) {
  testing::FakeTransport t;
  t.OnBody(rc::kGetBrokerConfig, "a=1\nb=two\n");
  MQAdminClient admin(&t);
  auto kv = admin.GetBrokerConfig("b:1");
  ASSERT_TRUE(kv.ok()) << kv.status().ToString();
  EXPECT_EQ(kv->at("b"), "two");
}

// mqadmin without -n or NAMESRV_ADDR (Java's works that way for -b commands): broker calls go
// through, NameServer calls fail saying how to name one, and the calls made to every
// NameServer fail instead of "succeeding" on none.
TEST(AdminClientTest, WithoutNameServersOnlyBrokerCallsWork) {
  testing::FakeTransport t(/*name_servers=*/std::vector<std::string>{});
  t.OnBody(rc::kGetBrokerConfig, "a=1\n");
  t.OnBody(rc::kGetBrokerClusterInfo, "{}");
  t.OnBody(rc::kPutKvConfig, "");
  MQAdminClient admin(&t);
  EXPECT_TRUE(admin.GetBrokerConfig("b:1").ok());
  auto cluster = admin.GetBrokerClusterInfo();
  ASSERT_FALSE(cluster.ok());
  EXPECT_TRUE(cluster.status().Is(StatusCode::kInvalidArgument)) << cluster.status().ToString();
  EXPECT_NE(cluster.status().message().find("-n host:port"), std::string::npos);
  EXPECT_NE(cluster.status().message().find("NAMESRV_ADDR"), std::string::npos);
  EXPECT_FALSE(admin.PutKvConfig("ns", "k", "v").ok());
  EXPECT_FALSE(admin.DeleteKvConfig("ns", "k").ok());
  EXPECT_FALSE(admin.DeleteTopicInNamesrv("T", std::nullopt).ok());
  ASSERT_EQ(t.calls().size(), 1u);  // only the broker call went out
  EXPECT_EQ(t.calls()[0].addr, "b:1");
}

TEST(AdminClientTest, CreateTopicCarriesEveryField) {
  testing::FakeTransport t;
  t.OnBody(rc::kUpdateAndCreateTopic, "");
  MQAdminClient admin(&t);
  protocol::TopicConfig c;
  c.topic_name = "T";
  c.order = true;
  c.attributes["+message.type"] = "FIFO";
  ASSERT_TRUE(admin.CreateTopic("b:1", c).ok());
  const auto& f = t.calls()[0].request.ext_fields;
  EXPECT_EQ(f.Get("order"), std::optional<std::string_view>("true"));
  EXPECT_EQ(f.Get("readQueueNums"), std::optional<std::string_view>("16"));
  // Java's AttributeParser.parseToString form, which the broker parses (not JSON).
  EXPECT_EQ(f.Get("attributes"), std::optional<std::string_view>("+message.type=FIFO"));
}

TEST(AdminClientTest, FormatTimestampHasMillis) {
  std::string s = FormatTimestamp(1700000000123);
  EXPECT_EQ(s.size(), 23u);
  EXPECT_EQ(s.substr(19), ",123");
}

}  // namespace
}  // namespace apogee::admin
