#include "namesrv/route_info_manager.h"

#include <gtest/gtest.h>

#include "protocol/topic_sys_flag.h"

namespace apogee::namesrv {
namespace {

constexpr int64_t kTimeout = 120000;

BrokerRegistration Reg(std::string cluster, std::string name, int64_t id, std::string addr,
                       std::vector<protocol::TopicConfig> topics, ChannelId channel = 0,
                       int64_t counter = 1) {
  BrokerRegistration r;
  r.cluster_name = std::move(cluster);
  r.broker_name = std::move(name);
  r.broker_id = id;
  r.broker_addr = addr;
  r.ha_server_addr = addr + "-ha";
  r.data_version = protocol::DataVersion{0, 1000, counter};
  r.topic_configs = std::move(topics);
  r.channel = channel;
  return r;
}

protocol::TopicConfig Topic(std::string name, int32_t queues = 4, int32_t perm = 6,
                            int32_t flag = 0) {
  protocol::TopicConfig tc;
  tc.topic_name = std::move(name);
  tc.read_queue_nums = queues;
  tc.write_queue_nums = queues;
  tc.perm = perm;
  tc.topic_sys_flag = flag;
  return tc;
}

class RouteInfoManagerTest : public ::testing::Test {
 protected:
  ManualClock clock_;
  RouteInfoManager rim_{&clock_, kTimeout};
};

TEST_F(RouteInfoManagerTest, MasterRegistrationBuildsRoute) {
  auto out = rim_.RegisterBroker(Reg("c1", "broker-a", 0, "10.0.0.1:10911", {Topic("T")}));
  EXPECT_TRUE(out.master_addr.empty());
  EXPECT_TRUE(out.ha_server_addr.empty());
  auto route = rim_.GetTopicRoute("T");
  ASSERT_TRUE(route.has_value());
  ASSERT_EQ(route->queue_datas.size(), 1u);
  EXPECT_EQ(route->queue_datas[0], (protocol::QueueData{"broker-a", 4, 4, 6, 0}));
  ASSERT_EQ(route->broker_datas.size(), 1u);
  EXPECT_EQ(route->broker_datas[0].cluster, "c1");
  EXPECT_EQ(route->broker_datas[0].broker_addrs.at(0), "10.0.0.1:10911");
  EXPECT_TRUE(route->filter_server_table.empty());
  EXPECT_FALSE(rim_.GetTopicRoute("Unknown").has_value());
}

TEST_F(RouteInfoManagerTest, SlaveLearnsMasterAndHaAddressButAddsNoQueues) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "m:10911", {Topic("T")}));
  auto out = rim_.RegisterBroker(Reg("c1", "broker-a", 1, "s:10911", {Topic("T", 8), Topic("S")}));
  EXPECT_EQ(out.master_addr, "m:10911");
  EXPECT_EQ(out.ha_server_addr, "m:10911-ha");
  auto route = rim_.GetTopicRoute("T");
  ASSERT_TRUE(route.has_value());
  EXPECT_EQ(route->queue_datas[0].read_queue_nums, 4);  // the slave's 8 is ignored
  EXPECT_EQ(route->broker_datas[0].broker_addrs.size(), 2u);
  EXPECT_EQ(route->broker_datas[0].broker_addrs.at(1), "s:10911");
  EXPECT_FALSE(rim_.GetTopicRoute("S").has_value());
}

TEST_F(RouteInfoManagerTest, SlaveWithoutMasterGetsNoMasterAddress) {
  auto out = rim_.RegisterBroker(Reg("c1", "broker-a", 1, "s:10911", {Topic("T")}));
  EXPECT_TRUE(out.master_addr.empty());
}

TEST_F(RouteInfoManagerTest, QueueDataUpdatesOnlyWhenDataVersionChanges) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "m:1", {Topic("T", 4)}, 0, /*counter=*/1));
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "m:1", {Topic("T", 8)}, 0, /*counter=*/1));
  EXPECT_EQ(rim_.GetTopicRoute("T")->queue_datas[0].write_queue_nums, 4);
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "m:1", {Topic("T", 8)}, 0, /*counter=*/2));
  EXPECT_EQ(rim_.GetTopicRoute("T")->queue_datas[0].write_queue_nums, 8);
}

TEST_F(RouteInfoManagerTest, AddressChangingIdReplacesOldEntry) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 1, "x:1", {}));
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "x:1", {Topic("T")}));
  auto route = rim_.GetTopicRoute("T");
  ASSERT_TRUE(route.has_value());
  EXPECT_EQ(route->broker_datas[0].broker_addrs, (std::map<int64_t, std::string>{{0, "x:1"}}));
}

TEST_F(RouteInfoManagerTest, TwoClustersAndClusterInfo) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {Topic("T"), Topic("A")}));
  rim_.RegisterBroker(Reg("c1", "broker-a", 1, "a:2", {}));
  rim_.RegisterBroker(Reg("c2", "broker-b", 0, "b:1", {Topic("T"), Topic("B")}));
  auto route = rim_.GetTopicRoute("T");
  ASSERT_EQ(route->queue_datas.size(), 2u);
  EXPECT_EQ(route->queue_datas[0].broker_name, "broker-a");
  EXPECT_EQ(route->queue_datas[1].broker_name, "broker-b");
  ASSERT_EQ(route->broker_datas.size(), 2u);

  protocol::ClusterInfo info = rim_.GetClusterInfo();
  EXPECT_EQ(info.cluster_addr_table.at("c1"), std::set<std::string>{"broker-a"});
  EXPECT_EQ(info.cluster_addr_table.at("c2"), std::set<std::string>{"broker-b"});
  EXPECT_EQ(info.broker_addr_table.at("broker-a").broker_addrs.size(), 2u);

  EXPECT_EQ(rim_.GetAllTopics(), (std::vector<std::string>{"A", "B", "T"}));
  EXPECT_EQ(rim_.GetTopicsByCluster("c1"), (std::vector<std::string>{"A", "T"}));
  EXPECT_EQ(rim_.GetTopicsByCluster("c2"), (std::vector<std::string>{"B", "T"}));
  EXPECT_TRUE(rim_.GetTopicsByCluster("nope").empty());

  protocol::TopicList sys = rim_.GetSystemTopicList();
  EXPECT_EQ(sys.topic_list, (std::set<std::string>{"broker-a", "broker-b", "c1", "c2"}));
  EXPECT_EQ(sys.broker_addr.value(), "a:1");
}

TEST_F(RouteInfoManagerTest, UnitTopicLists) {
  rim_.RegisterBroker(
      Reg("c1", "broker-a", 0, "a:1",
          {Topic("Plain"), Topic("Unit", 4, 6, protocol::kTopicSysFlagUnit),
           Topic("UnitSub", 4, 6, protocol::kTopicSysFlagUnitSub),
           Topic("Both", 4, 6, protocol::kTopicSysFlagUnit | protocol::kTopicSysFlagUnitSub)}));
  EXPECT_EQ(rim_.GetUnitTopics(), (std::vector<std::string>{"Both", "Unit"}));
  EXPECT_EQ(rim_.GetHasUnitSubTopics(), (std::vector<std::string>{"Both", "UnitSub"}));
  EXPECT_EQ(rim_.GetHasUnitSubUnUnitTopics(), (std::vector<std::string>{"UnitSub"}));
}

TEST_F(RouteInfoManagerTest, UnregisterLastAddressRemovesBrokerEverywhere) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {Topic("T")}));
  rim_.RegisterBroker(Reg("c1", "broker-a", 1, "a:2", {}));
  rim_.RegisterBroker(Reg("c1", "broker-b", 0, "b:1", {Topic("T")}));
  rim_.UnregisterBroker("c1", "a:1", "broker-a", 0);
  auto route = rim_.GetTopicRoute("T");
  ASSERT_EQ(route->queue_datas.size(), 2u);  // the slave still serves reads
  rim_.UnregisterBroker("c1", "a:2", "broker-a", 1);
  route = rim_.GetTopicRoute("T");
  ASSERT_EQ(route->queue_datas.size(), 1u);
  EXPECT_EQ(route->queue_datas[0].broker_name, "broker-b");
  EXPECT_EQ(rim_.GetClusterInfo().cluster_addr_table.at("c1"), std::set<std::string>{"broker-b"});
  rim_.UnregisterBroker("c1", "b:1", "broker-b", 0);
  EXPECT_FALSE(rim_.GetTopicRoute("T").has_value());
  EXPECT_TRUE(rim_.GetClusterInfo().cluster_addr_table.empty());
  EXPECT_EQ(rim_.LiveBrokerCount(), 0u);
}

TEST_F(RouteInfoManagerTest, ExpiryAfterTimeoutUsingManualClock) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {Topic("T")}, /*channel=*/7));
  auto reg_b = Reg("c1", "broker-b", 0, "b:1", {Topic("T")}, /*channel=*/8);
  reg_b.heartbeat_timeout_millis = 10000;
  rim_.RegisterBroker(reg_b);

  clock_.Advance(10000);
  EXPECT_TRUE(rim_.ScanNotActiveBroker().empty());  // exactly at the timeout: still alive
  clock_.Advance(1);
  EXPECT_EQ(rim_.ScanNotActiveBroker(), std::vector<ChannelId>{8});
  EXPECT_EQ(rim_.GetTopicRoute("T")->queue_datas.size(), 1u);

  clock_.Advance(kTimeout - 20000);
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {Topic("T")}, 7));  // refresh
  clock_.Advance(kTimeout);
  EXPECT_TRUE(rim_.ScanNotActiveBroker().empty());
  clock_.Advance(1);
  EXPECT_EQ(rim_.ScanNotActiveBroker(), std::vector<ChannelId>{7});
  EXPECT_FALSE(rim_.GetTopicRoute("T").has_value());
  EXPECT_EQ(rim_.LiveBrokerCount(), 0u);
}

TEST_F(RouteInfoManagerTest, DefaultTimeoutCanChange) {
  rim_.set_default_timeout_millis(500);
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {Topic("T")}, 3));
  clock_.Advance(501);
  EXPECT_EQ(rim_.ScanNotActiveBroker(), std::vector<ChannelId>{3});
}

TEST_F(RouteInfoManagerTest, QueryDataVersionRefreshesLiveness) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {Topic("T")}, 1, /*counter=*/5));
  protocol::DataVersion same{0, 1000, 5};
  EXPECT_FALSE(rim_.IsBrokerTopicConfigChanged("c1", "a:1", same));
  EXPECT_TRUE(rim_.IsBrokerTopicConfigChanged("c1", "a:1", protocol::DataVersion{0, 1000, 6}));
  EXPECT_TRUE(rim_.IsBrokerTopicConfigChanged("c1", "other:1", same));
  EXPECT_EQ(rim_.QueryBrokerDataVersion("c1", "a:1").value(), same);
  EXPECT_FALSE(rim_.QueryBrokerDataVersion("c1", "other:1").has_value());

  clock_.Advance(kTimeout);
  rim_.UpdateBrokerInfoUpdateTimestamp("c1", "a:1");
  clock_.Advance(kTimeout);
  EXPECT_TRUE(rim_.ScanNotActiveBroker().empty());
}

TEST_F(RouteInfoManagerTest, ChannelCloseRemovesOnlyThatBroker) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {Topic("T")}, 11));
  rim_.RegisterBroker(Reg("c1", "broker-a", 1, "a:2", {}, 12));
  rim_.OnChannelDestroy(12);
  auto route = rim_.GetTopicRoute("T");
  ASSERT_TRUE(route.has_value());
  EXPECT_EQ(route->broker_datas[0].broker_addrs, (std::map<int64_t, std::string>{{0, "a:1"}}));
  rim_.OnChannelDestroy(999);  // unknown: nothing happens
  EXPECT_EQ(rim_.LiveBrokerCount(), 1u);
  rim_.OnChannelDestroy(11);
  EXPECT_FALSE(rim_.GetTopicRoute("T").has_value());
}

TEST_F(RouteInfoManagerTest, WipeAndAddWritePerm) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {Topic("T1"), Topic("T2", 4, 7)}));
  rim_.RegisterBroker(Reg("c1", "broker-b", 0, "b:1", {Topic("T1")}));
  EXPECT_EQ(rim_.WipeWritePermOfBroker("broker-a"), 2);
  EXPECT_EQ(rim_.GetTopicRoute("T1")->queue_datas[0].perm, 4);
  EXPECT_EQ(rim_.GetTopicRoute("T2")->queue_datas[0].perm, 5);
  EXPECT_EQ(rim_.GetTopicRoute("T1")->queue_datas[1].perm, 6);  // broker-b untouched
  EXPECT_EQ(rim_.AddWritePermOfBroker("broker-a"), 2);
  EXPECT_EQ(rim_.GetTopicRoute("T2")->queue_datas[0].perm, 6);
  EXPECT_EQ(rim_.WipeWritePermOfBroker("nobody"), 0);
}

TEST_F(RouteInfoManagerTest, DeleteTopicWholeOrPerCluster) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {Topic("T"), Topic("U")}));
  rim_.RegisterBroker(Reg("c2", "broker-b", 0, "b:1", {Topic("T")}));
  rim_.DeleteTopic("T", std::string("c1"));
  auto route = rim_.GetTopicRoute("T");
  ASSERT_EQ(route->queue_datas.size(), 1u);
  EXPECT_EQ(route->queue_datas[0].broker_name, "broker-b");
  rim_.DeleteTopic("U", std::nullopt);
  EXPECT_FALSE(rim_.GetTopicRoute("U").has_value());
  rim_.DeleteTopic("T", std::string("c2"));
  EXPECT_FALSE(rim_.GetTopicRoute("T").has_value());
  EXPECT_EQ(rim_.GetAllTopics().size(), 0u);
}

TEST_F(RouteInfoManagerTest, RegisterTopicNeedsKnownBrokers) {
  rim_.RegisterBroker(Reg("c1", "broker-a", 0, "a:1", {}));
  Status bad = rim_.RegisterTopic("New", {protocol::QueueData{"broker-a", 2, 2, 6, 0},
                                          protocol::QueueData{"ghost", 2, 2, 6, 0}});
  ASSERT_TRUE(bad.Is(StatusCode::kInvalidArgument));
  EXPECT_NE(bad.message().find("ghost"), std::string::npos);
  EXPECT_FALSE(rim_.GetTopicRoute("New").has_value());  // nothing applied
  ASSERT_TRUE(rim_.RegisterTopic("New", {protocol::QueueData{"broker-a", 2, 3, 6, 0}}).ok());
  EXPECT_EQ(rim_.GetTopicRoute("New")->queue_datas[0].write_queue_nums, 3);
  EXPECT_TRUE(rim_.RegisterTopic("Empty", {}).ok());
  EXPECT_FALSE(rim_.GetTopicRoute("Empty").has_value());
}

TEST_F(RouteInfoManagerTest, FilterServersAppearInRoute) {
  auto reg = Reg("c1", "broker-a", 0, "a:1", {Topic("T")});
  reg.filter_server_list = {"f:1", "f:2"};
  rim_.RegisterBroker(reg);
  EXPECT_EQ(rim_.GetTopicRoute("T")->filter_server_table.at("a:1"),
            (std::vector<std::string>{"f:1", "f:2"}));
  reg.filter_server_list.clear();
  rim_.RegisterBroker(reg);
  EXPECT_TRUE(rim_.GetTopicRoute("T")->filter_server_table.empty());
}

}  // namespace
}  // namespace apogee::namesrv
