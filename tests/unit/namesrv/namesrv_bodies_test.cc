#include "namesrv/namesrv_bodies.h"

#include <gtest/gtest.h>

namespace apogee::namesrv {
namespace {

// A RegisterBrokerBody as a 4.9 Java broker writes it (fastjson, sorted keys).
constexpr const char* kJavaRegisterBody =
    R"({"filterServerList":["10.0.0.9:1"],"topicConfigSerializeWrapper":{"dataVersion":)"
    R"({"counter":3,"timestamp":1700000000123},"topicConfigTable":{"TopicTest":{"order":false,)"
    R"("perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG","topicName":"TopicTest",)"
    R"("topicSysFlag":0,"writeQueueNums":4},"TBW102":{"order":false,"perm":7,)"
    R"("readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicName":"TBW102",)"
    R"("topicSysFlag":1,"writeQueueNums":8}}}})";

TEST(NamesrvBodiesTest, RegisterBodyFromJavaBroker) {
  auto body = DecodeRegisterBrokerBodyData(kJavaRegisterBody, false, 407);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(body->data_version, (DataVersionInfo{0, 1700000000123, 3}));
  ASSERT_EQ(body->topic_configs.size(), 2u);
  const TopicConfigInfo& tbw = body->topic_configs[0].topic_name == "TBW102"
                                   ? body->topic_configs[0]
                                   : body->topic_configs[1];
  EXPECT_EQ(tbw.perm, 7);
  EXPECT_EQ(tbw.read_queue_nums, 8);
  EXPECT_EQ(tbw.topic_sys_flag, 1);
  EXPECT_EQ(body->filter_server_list, std::vector<std::string>{"10.0.0.9:1"});
}

TEST(NamesrvBodiesTest, RegisterBodyFormsByVersionAndFlag) {
  // Empty body: no topics, DataVersion {0,0}.
  auto empty = DecodeRegisterBrokerBodyData("", false, 407);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->topic_configs.empty());
  EXPECT_EQ(empty->data_version, DataVersionInfo{});
  // Brokers before V3_0_11 send the bare wrapper.
  auto old = DecodeRegisterBrokerBodyData(
      R"({"dataVersion":{"counter":1,"timestamp":2},"topicConfigTable":{"T":{"topicName":"T",)"
      R"("readQueueNums":1,"writeQueueNums":1,"perm":6}}})",
      false, 36);
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ(old->topic_configs.size(), 1u);
  // The compressed form.
  protocol::RegisterBrokerBody body;
  protocol::TopicConfig tc;
  tc.topic_name = "Z";
  tc.read_queue_nums = 2;
  tc.write_queue_nums = 1;
  body.topic_config_serialize_wrapper.topic_config_table["Z"] = tc;
  auto zipped = DecodeRegisterBrokerBodyData(protocol::EncodeCompressedRegisterBrokerBody(body),
                                             true, 407);
  ASSERT_TRUE(zipped.ok()) << zipped.status().ToString();
  EXPECT_EQ(zipped->topic_configs[0].write_queue_nums, 1);
  EXPECT_FALSE(DecodeRegisterBrokerBodyData("not zlib", true, 407).ok());
  EXPECT_FALSE(DecodeRegisterBrokerBodyData("{broken", false, 407).ok());
}

TEST(NamesrvBodiesTest, RouteConversionKeepsEveryField) {
  TopicRoute route;
  route.queue_datas = {QueueDataInfo{"broker-a", 4, 2, 6, 1}};
  route.broker_datas = {BrokerDataInfo{"c1", "broker-a", {{0, "a:1"}, {1, "a:2"}}}};
  route.filter_server_table["a:1"] = {"f:1"};
  protocol::TopicRouteData out = ToProtocol(route, std::string("broker-a:2"));
  EXPECT_EQ(out.order_topic_conf.value(), "broker-a:2");
  ASSERT_EQ(out.queue_datas.size(), 1u);
  EXPECT_EQ(out.queue_datas[0], (protocol::QueueData{"broker-a", 4, 2, 6, 1}));
  ASSERT_EQ(out.broker_datas.size(), 1u);
  EXPECT_EQ(out.broker_datas[0].cluster, "c1");
  EXPECT_EQ(out.broker_datas[0].broker_addrs.at(1), "a:2");
  EXPECT_EQ(out.filter_server_table.at("a:1"), std::vector<std::string>{"f:1"});
  // The legacy body a Java NameServer sends to old clients.
  EXPECT_NE(protocol::EncodeTopicRouteData(out, protocol::MapKeyStyle::kBareNumbers)
                .find(R"({0:"a:1",1:"a:2"})"),
            std::string::npos);
}

TEST(NamesrvBodiesTest, ClusterInfoTopicListAndDataVersion) {
  ClusterInfoData info;
  info.broker_addr_table["broker-a"] = BrokerDataInfo{"c1", "broker-a", {{0, "a:1"}}};
  info.cluster_addr_table["c1"] = {"broker-a"};
  protocol::ClusterInfo ci = ToProtocol(info);
  EXPECT_EQ(ci.broker_addr_table.at("broker-a").broker_addrs.at(0), "a:1");
  EXPECT_EQ(ci.cluster_addr_table.at("c1").count("broker-a"), 1u);
  protocol::TopicList tl = ToProtocol(TopicListData{{"b", "a"}, std::string("x:1")});
  EXPECT_EQ(tl.topic_list, (std::set<std::string>{"a", "b"}));
  EXPECT_EQ(tl.broker_addr.value(), "x:1");
  EXPECT_EQ(FromProtocol(ToProtocol(DataVersionInfo{7, 8, 9})), (DataVersionInfo{7, 8, 9}));
}

}  // namespace
}  // namespace apogee::namesrv
