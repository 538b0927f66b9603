#include "namesrv/namesrv_bodies.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

namespace apogee::namesrv {
namespace {

// A RegisterBrokerBody as a 4.9 Java broker writes it (fastjson, sorted keys).
constexpr const char* kJavaRegisterBody =
    R"({"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":3,)"
    R"("timestamp":1700000000123},"topicConfigTable":{"TopicTest":{"order":false,"perm":6,)"
    R"("readQueueNums":4,"topicFilterType":"SINGLE_TAG","topicName":"TopicTest",)"
    R"("topicSysFlag":0,"writeQueueNums":4},"TBW102":{"order":false,"perm":7,)"
    R"("readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicName":"TBW102",)"
    R"("topicSysFlag":0,"writeQueueNums":8}}}})";

TEST(NamesrvBodiesTest, DecodesJavaRegisterBrokerBody) {
  auto body = DecodeRegisterBrokerBodyJson(kJavaRegisterBody);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(body->data_version, (DataVersionInfo{0, 1700000000123, 3}));
  ASSERT_EQ(body->topic_configs.size(), 2u);
  // RapidJSON keeps document order.
  EXPECT_EQ(body->topic_configs[0].topic_name, "TopicTest");
  EXPECT_EQ(body->topic_configs[1].topic_name, "TBW102");
  EXPECT_EQ(body->topic_configs[1].perm, 7);
  EXPECT_EQ(body->topic_configs[1].write_queue_nums, 8);
  EXPECT_TRUE(body->filter_server_list.empty());
}

TEST(NamesrvBodiesTest, AcceptsNumericStringsAndStateVersion) {
  auto body = DecodeRegisterBrokerBodyJson(
      R"({"topicConfigSerializeWrapper":{"dataVersion":{"counter":"9","stateVersion":2,)"
      R"("timestamp":5},"topicConfigTable":{"T":{"perm":"6","readQueueNums":"2",)"
      R"("writeQueueNums":2}}},"filterServerList":["f:1"]})");
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(body->data_version, (DataVersionInfo{2, 5, 9}));
  EXPECT_EQ(body->topic_configs[0].read_queue_nums, 2);
  EXPECT_EQ(body->filter_server_list, std::vector<std::string>{"f:1"});
}

TEST(NamesrvBodiesTest, DecodesBareTopicConfigSerializeWrapper) {
  auto body = DecodeTopicConfigSerializeWrapperJson(
      R"({"dataVersion":{"counter":1,"timestamp":2},"topicConfigTable":{"T":{"topicName":"T",)"
      R"("readQueueNums":1,"writeQueueNums":1,"perm":6}}})");
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(body->topic_configs.size(), 1u);
}

TEST(NamesrvBodiesTest, BadBodiesNameTheProblem) {
  EXPECT_TRUE(DecodeRegisterBrokerBodyJson("not json").status().IsCorruption());
  auto bad = DecodeRegisterBrokerBodyJson(
      R"({"topicConfigSerializeWrapper":{"topicConfigTable":{"T":{"perm":"rw"}}}})");
  ASSERT_TRUE(bad.status().IsCorruption());
  EXPECT_NE(bad.status().message().find("topicConfigTable[T].perm"), std::string::npos)
      << bad.status().ToString();
  EXPECT_TRUE(DecodeRegisterBrokerBodyJson(R"({"filterServerList":{}})").status().IsCorruption());
}

TEST(NamesrvBodiesTest, CompressedBodyRoundTrip) {
  RegisterBrokerBodyData in;
  in.data_version = DataVersionInfo{0, 123, 4};
  in.topic_configs = {TopicConfigInfo{"T1", 4, 4, 6, 0}, TopicConfigInfo{"T2", 2, 1, 4, 0}};
  in.filter_server_list = {"10.0.0.1:1"};
  auto out = DecodeRegisterBrokerBodyCompressed(EncodeRegisterBrokerBodyCompressed(in));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->data_version, in.data_version);
  ASSERT_EQ(out->topic_configs.size(), 2u);
  EXPECT_EQ(out->topic_configs[1].topic_name, "T2");
  EXPECT_EQ(out->topic_configs[1].read_queue_nums, 2);
  EXPECT_EQ(out->topic_configs[1].write_queue_nums, 1);
  EXPECT_EQ(out->topic_configs[1].perm, 4);
  EXPECT_EQ(out->filter_server_list, in.filter_server_list);
}

TEST(NamesrvBodiesTest, CompressedBodyErrors) {
  EXPECT_TRUE(DecodeRegisterBrokerBodyCompressed("plain bytes").status().IsCorruption());
  RegisterBrokerBodyData in;
  in.topic_configs = {TopicConfigInfo{"T1", 4, 4, 6, 0}};
  std::string good = EncodeRegisterBrokerBodyCompressed(in);
  auto truncated = DecodeRegisterBrokerBodyCompressed(good.substr(0, good.size() / 2));
  EXPECT_TRUE(truncated.status().IsCorruption());
}

TEST(NamesrvBodiesTest, JsonBodyRoundTrip) {
  RegisterBrokerBodyData in;
  in.data_version = DataVersionInfo{1, 2, 3};
  in.topic_configs = {TopicConfigInfo{"A\"b", 4, 2, 6, 1}};
  auto out = DecodeRegisterBrokerBodyJson(EncodeRegisterBrokerBodyJson(in));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->data_version, in.data_version);
  EXPECT_EQ(out->topic_configs[0].topic_name, "A\"b");
  EXPECT_EQ(out->topic_configs[0].topic_sys_flag, 1);
}

TopicRoute SampleRoute() {
  TopicRoute r;
  r.queue_datas = {QueueDataInfo{"broker-a", 4, 4, 6, 0}};
  r.broker_datas = {BrokerDataInfo{"DefaultCluster", "broker-a",
                                   {{0, "10.0.0.5:10911"}, {1, "10.0.0.6:10911"}}}};
  return r;
}

TEST(NamesrvBodiesTest, RouteLegacyFormHasBareKeysLikeJava) {
  EXPECT_EQ(EncodeTopicRouteDataJson(SampleRoute(), std::nullopt, false),
            R"({"brokerDatas":[{"brokerAddrs":{0:"10.0.0.5:10911",1:"10.0.0.6:10911"},)"
            R"("brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false}],)"
            R"("filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,)"
            R"("readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]})");
}

TEST(NamesrvBodiesTest, RouteStandardFormIsStrictJson) {
  std::string json = EncodeTopicRouteDataJson(SampleRoute(), std::string("broker-a:4"), true);
  EXPECT_NE(json.find(R"({"0":"10.0.0.5:10911","1":"10.0.0.6:10911"})"), std::string::npos);
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  ASSERT_FALSE(doc.HasParseError()) << json;
  EXPECT_STREQ(doc["orderTopicConf"].GetString(), "broker-a:4");
  EXPECT_EQ(doc["queueDatas"][0]["writeQueueNums"].GetInt(), 4);
}

TEST(NamesrvBodiesTest, ClusterInfoTopicListKvTableAndDataVersion) {
  ClusterInfoData info;
  info.broker_addr_table["broker-a"] = BrokerDataInfo{"c1", "broker-a", {{0, "a:1"}}};
  info.cluster_addr_table["c1"] = {"broker-a"};
  EXPECT_EQ(EncodeClusterInfoJson(info),
            R"({"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"a:1"},"brokerName":"broker-a",)"
            R"("cluster":"c1","enableActingMaster":false}},"clusterAddrTable":{"c1":["broker-a"]}})");
  EXPECT_EQ(EncodeTopicListJson(TopicListData{{"a", "b"}, std::nullopt}),
            R"({"topicList":["a","b"]})");
  EXPECT_EQ(EncodeTopicListJson(TopicListData{{}, std::string("x:1")}),
            R"({"brokerAddr":"x:1","topicList":[]})");
  EXPECT_EQ(EncodeKvTableJson({{"k", "v\n"}}), R"({"table":{"k":"v\n"}})");
  auto dv = DecodeDataVersionJson(EncodeDataVersionJson(DataVersionInfo{7, 8, 9}));
  ASSERT_TRUE(dv.ok());
  EXPECT_EQ(*dv, (DataVersionInfo{7, 8, 9}));
}

}  // namespace
}  // namespace apogee::namesrv
