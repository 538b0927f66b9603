#include "protocol/namesrv_headers.h"

#include <gtest/gtest.h>

#include <string>

namespace apogee::protocol {
namespace {

// Decodes the JSON extFields of a captured or documented request into header H.
template <typename H>
Result<H> FromPairs(std::initializer_list<std::pair<const char*, const char*>> pairs) {
  ExtFields f;
  for (const auto& [k, v] : pairs) f.Set(k, v);
  return HeaderFromExtFields<H>(f);
}

TEST(NamesrvHeadersTest, RegisterBrokerAsJavaSendsIt) {
  auto h = FromPairs<RegisterBrokerRequestHeader>({{"brokerName", "broker-a"},
                                                   {"brokerAddr", "10.0.0.1:10911"},
                                                   {"clusterName", "DefaultCluster"},
                                                   {"haServerAddr", "10.0.0.1:10912"},
                                                   {"brokerId", "0"},
                                                   {"compressed", "false"},
                                                   {"bodyCrc32", "-12345"}});
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->broker_name, "broker-a");
  EXPECT_EQ(h->broker_addr, "10.0.0.1:10911");
  EXPECT_EQ(h->cluster_name, "DefaultCluster");
  EXPECT_EQ(h->ha_server_addr, "10.0.0.1:10912");
  EXPECT_EQ(h->broker_id, 0);
  EXPECT_FALSE(h->compressed);
  EXPECT_EQ(h->body_crc32, -12345);
  EXPECT_FALSE(h->heartbeat_timeout_millis.has_value());

  ExtFields out;
  HeaderToExtFields(*h, &out);
  EXPECT_EQ(out.size(), 7u);  // the two absent 5.x fields are not sent
  EXPECT_EQ(out.Get("compressed"), "false");
  EXPECT_EQ(out.Get("bodyCrc32"), "-12345");
}

TEST(NamesrvHeadersTest, RegisterBrokerNeedsHaServerAddr) {
  auto h = FromPairs<RegisterBrokerRequestHeader>(
      {{"brokerName", "b"}, {"brokerAddr", "a"}, {"clusterName", "c"}, {"brokerId", "1"}});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().message(), "the custom field haServerAddr is null");
}

TEST(NamesrvHeadersTest, GetRouteInfoFromTheCppClient) {
  // rocketmq-client-cpp adds ACL keys; they are ignored.
  auto h = FromPairs<GetRouteInfoRequestHeader>(
      {{"AccessKey", ""}, {"OnsChannel", "ALIYUN"}, {"Signature", "x"}, {"topic", "TopicTest"}});
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->topic, "TopicTest");
  EXPECT_FALSE(h->accept_standard_json_only.has_value());
  auto std_only =
      FromPairs<GetRouteInfoRequestHeader>({{"topic", "T"}, {"acceptStandardJsonOnly", "true"}});
  ASSERT_TRUE(std_only.ok());
  EXPECT_EQ(std_only->accept_standard_json_only, true);
  EXPECT_EQ(FromPairs<GetRouteInfoRequestHeader>({}).status().message(),
            "the custom field topic is null");
}

TEST(NamesrvHeadersTest, KVConfigHeadersUseJavaKeys) {
  PutKVConfigRequestHeader put{"ORDER_TOPIC_CONFIG", "TopicA", "broker-a:4"};
  ExtFields f;
  HeaderToExtFields(put, &f);
  EXPECT_EQ(f.Get("namespace"), "ORDER_TOPIC_CONFIG");
  EXPECT_EQ(f.Get("key"), "TopicA");
  EXPECT_EQ(f.Get("value"), "broker-a:4");
  auto get = HeaderFromExtFields<GetKVConfigRequestHeader>(f);
  ASSERT_TRUE(get.ok());
  EXPECT_EQ(get->namespace_name, "ORDER_TOPIC_CONFIG");
  auto del = HeaderFromExtFields<DeleteKVConfigRequestHeader>(f);
  ASSERT_TRUE(del.ok());
  EXPECT_EQ(del->key, "TopicA");
  auto list = HeaderFromExtFields<GetKVListByNamespaceRequestHeader>(f);
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->namespace_name, "ORDER_TOPIC_CONFIG");
  EXPECT_FALSE(FromPairs<PutKVConfigRequestHeader>({{"namespace", "n"}, {"key", "k"}}).ok());

  GetKVConfigResponseHeader none;
  ExtFields empty;
  HeaderToExtFields(none, &empty);
  EXPECT_TRUE(empty.empty());
}

TEST(NamesrvHeadersTest, ResponseHeadersAlwaysCarryTheirCounts) {
  ExtFields f;
  HeaderToExtFields(WipeWritePermOfBrokerResponseHeader{3}, &f);
  HeaderToExtFields(AddWritePermOfBrokerResponseHeader{0}, &f);
  HeaderToExtFields(QueryDataVersionResponseHeader{true}, &f);
  EXPECT_EQ(f.Get("wipeTopicCount"), "3");
  EXPECT_EQ(f.Get("addTopicCount"), "0");
  EXPECT_EQ(f.Get("changed"), "true");
}

TEST(NamesrvHeadersTest, OtherRequestHeadersDecode) {
  auto unreg = FromPairs<UnRegisterBrokerRequestHeader>(
      {{"brokerName", "b"}, {"brokerAddr", "a"}, {"clusterName", "c"}, {"brokerId", "2"}});
  ASSERT_TRUE(unreg.ok());
  EXPECT_EQ(unreg->broker_id, 2);
  auto qdv = FromPairs<QueryDataVersionRequestHeader>(
      {{"brokerName", "b"}, {"brokerAddr", "a"}, {"clusterName", "c"}});
  EXPECT_EQ(qdv.status().message(), "the custom field brokerId is null");
  auto del = FromPairs<DeleteTopicFromNamesrvRequestHeader>({{"topic", "T"}});
  ASSERT_TRUE(del.ok());
  EXPECT_FALSE(del->cluster_name.has_value());
  auto by_cluster = FromPairs<GetTopicsByClusterRequestHeader>({{"cluster", "DefaultCluster"}});
  ASSERT_TRUE(by_cluster.ok());
  EXPECT_EQ(by_cluster->cluster, "DefaultCluster");
  auto wipe = FromPairs<WipeWritePermOfBrokerRequestHeader>({{"brokerName", "broker-a"}});
  ASSERT_TRUE(wipe.ok());
  auto hb = FromPairs<BrokerHeartbeatRequestHeader>({{"clusterName", "c"},
                                                     {"brokerAddr", "a"},
                                                     {"brokerName", "b"},
                                                     {"heartbeatTimeoutMills", "30000"}});
  ASSERT_TRUE(hb.ok());
  EXPECT_EQ(hb->heartbeat_timeout_mills, 30000);
  EXPECT_FALSE(hb->epoch.has_value());
}

}  // namespace
}  // namespace apogee::protocol
