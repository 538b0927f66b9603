#include "protocol/route_data.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

// docs/protocol/remoting.md §7.1: what a Java NameServer sends, legacy and standard.
constexpr std::string_view kLegacyRoute =
    R"({"brokerDatas":[{"brokerAddrs":{0:"10.0.0.5:10911",1:"10.0.0.6:10911"},"brokerName":"broker-a",)"
    R"("cluster":"DefaultCluster","enableActingMaster":false}],"filterServerTable":{},)"
    R"("queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]})";
constexpr std::string_view kStandardRoute =
    R"({"brokerDatas":[{"brokerAddrs":{"0":"10.0.0.5:10911","1":"10.0.0.6:10911"},"brokerName":"broker-a",)"
    R"("cluster":"DefaultCluster","enableActingMaster":false}],"filterServerTable":{},)"
    R"("queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]})";

TopicRouteData SampleRoute() {
  TopicRouteData route;
  route.queue_datas.push_back({"broker-a", 4, 4, 6, 0});
  BrokerData broker;
  broker.cluster = "DefaultCluster";
  broker.broker_name = "broker-a";
  broker.broker_addrs = {{0, "10.0.0.5:10911"}, {1, "10.0.0.6:10911"}};
  route.broker_datas.push_back(broker);
  return route;
}

TEST(RouteDataTest, EncodesBothGoldenForms) {
  EXPECT_EQ(EncodeTopicRouteData(SampleRoute(), MapKeyStyle::kBareNumbers), kLegacyRoute);
  EXPECT_EQ(EncodeTopicRouteData(SampleRoute(), MapKeyStyle::kQuoted), kStandardRoute);
}

TEST(RouteDataTest, DecodesBothGoldenForms) {
  for (std::string_view text : {kLegacyRoute, kStandardRoute}) {
    Result<TopicRouteData> route = DecodeTopicRouteData(text);
    ASSERT_TRUE(route.ok()) << route.status().ToString();
    EXPECT_EQ(*route, SampleRoute());
  }
}

TEST(RouteDataTest, KeyStyleFollowsJavasRule) {
  EXPECT_EQ(RouteMapKeyStyle(121, false), MapKeyStyle::kBareNumbers);  // ali-ons
  EXPECT_EQ(RouteMapKeyStyle(317, false), MapKeyStyle::kBareNumbers);  // Go
  EXPECT_EQ(RouteMapKeyStyle(400, false), MapKeyStyle::kBareNumbers);
  EXPECT_EQ(RouteMapKeyStyle(401, false), MapKeyStyle::kQuoted);  // V4_9_4
  EXPECT_EQ(RouteMapKeyStyle(63, true), MapKeyStyle::kQuoted);    // acceptStandardJsonOnly
}

TEST(RouteDataTest, RoundTripsOptionalParts) {
  TopicRouteData route = SampleRoute();
  route.order_topic_conf = "broker-a:4;broker-b:8";
  route.filter_server_table["10.0.0.5:10911"] = {"10.0.0.5:30000"};
  route.broker_datas[0].zone_name = "zone-1";
  route.broker_datas[0].enable_acting_master = true;
  route.queue_datas.push_back({"broker-b", 8, 2, 4, 1});
  for (MapKeyStyle style : {MapKeyStyle::kBareNumbers, MapKeyStyle::kQuoted}) {
    const std::string text = EncodeTopicRouteData(route, style);
    EXPECT_EQ(text.find(' '), std::string::npos);  // compact: Go slices brokerAddrs as text
    Result<TopicRouteData> back = DecodeTopicRouteData(text);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, route);
  }
}

TEST(RouteDataTest, EmptyRouteStillHasEveryMember) {
  EXPECT_EQ(EncodeTopicRouteData(TopicRouteData{}, MapKeyStyle::kQuoted),
            R"({"brokerDatas":[],"filterServerTable":{},"queueDatas":[]})");
}

TEST(RouteDataTest, DecodesLenientPeerForms) {
  // Pre-4.9.0 topicSynFlag, numbers as strings, unknown keys, null members.
  Result<TopicRouteData> route = DecodeTopicRouteData(
      R"({"queueDatas":[{"brokerName":"b","perm":"6","readQueueNums":4,"writeQueueNums":"4",)"
      R"("topicSynFlag":3,"extra":[1]}],"brokerDatas":[{"brokerName":"b","cluster":"c",)"
      R"("brokerAddrs":{"0":"h:1"},"zoneName":null}],"orderTopicConf":null,"topicQueueMappingByBroker":{}})");
  ASSERT_TRUE(route.ok()) << route.status().ToString();
  EXPECT_EQ(route->queue_datas[0].perm, 6);
  EXPECT_EQ(route->queue_datas[0].write_queue_nums, 4);
  EXPECT_EQ(route->queue_datas[0].topic_sys_flag, 3);
  EXPECT_FALSE(route->broker_datas[0].zone_name.has_value());
  EXPECT_FALSE(route->order_topic_conf.has_value());
  EXPECT_EQ(route->broker_datas[0].broker_addrs.at(0), "h:1");
}

TEST(RouteDataTest, RejectsWrongShapesWithAPath) {
  EXPECT_EQ(DecodeTopicRouteData(R"({"queueDatas":{}})").status().message(),
            "TopicRouteData.queueDatas: expected an array, got an object");
  EXPECT_EQ(DecodeTopicRouteData(R"({"queueDatas":[{"perm":"rw"}]})").status().message(),
            "TopicRouteData.queueDatas[0].perm: expected a 32-bit integer, got \"rw\"");
  EXPECT_EQ(
      DecodeTopicRouteData(R"({"brokerDatas":[{"brokerAddrs":{master:"h"}}]})").status().message(),
      "TopicRouteData.brokerDatas[0].brokerAddrs key: expected an integer, got \"master\"");
  EXPECT_TRUE(DecodeTopicRouteData("not json").status().IsCorruption());
}

TEST(RouteDataTest, ClusterInfoUsesBareKeysByDefault) {
  ClusterInfo info;
  info.broker_addr_table["broker-a"] = SampleRoute().broker_datas[0];
  info.cluster_addr_table["DefaultCluster"] = {"broker-a"};
  const std::string text = EncodeClusterInfo(info);
  EXPECT_EQ(
      text,
      R"({"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"10.0.0.5:10911",1:"10.0.0.6:10911"},)"
      R"("brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false}},)"
      R"("clusterAddrTable":{"DefaultCluster":["broker-a"]}})");
  Result<ClusterInfo> back = DecodeClusterInfo(text);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, info);
  Result<ClusterInfo> quoted = DecodeClusterInfo(EncodeClusterInfo(info, MapKeyStyle::kQuoted));
  ASSERT_TRUE(quoted.ok());
  EXPECT_EQ(*quoted, info);
}

}  // namespace
}  // namespace apogee::protocol
