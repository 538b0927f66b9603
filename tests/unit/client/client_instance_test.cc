#include "client/client_instance.h"

#include <gtest/gtest.h>

#include "fake_servers.h"
#include "protocol/heartbeat_data.h"
#include "remoting/sync_waiter.h"
#include "testutil/test_util.h"

namespace apogee::client {
namespace {

using protocol::RemotingCommand;
using test::FakeServer;
namespace rc = protocol::request_code;

class RecordingProducer : public ProducerInner {
 public:
  explicit RecordingProducer(std::string group) : group_(std::move(group)) {}
  std::string GroupName() const override { return group_; }
  void CheckTransactionState(const std::string&, const message::MessageExt&,
                             const protocol::CheckTransactionStateRequestHeader&) override {}

 private:
  std::string group_;
};

ClientConfig Config(const std::string& namesrv, const std::string& instance) {
  ClientConfig config;
  config.namesrv_addr = namesrv;
  config.instance_name = instance;
  config.client_ip = "10.1.2.3";
  return config;
}

// The public header cannot include the remoting one, so the default is written twice.
TEST(ClientInstanceTest, SyncWaitSpinDefaultIsTheRemotingClientsDefault) {
  EXPECT_EQ(ClientConfig{}.sync_wait_spin_us, remoting::kDefaultSyncWaitSpin.count());
}

TEST(ClientInstanceTest, ClientIdIsIpAtInstanceAtUnit) {
  ClientConfig config = Config("a:1", "inst");
  EXPECT_EQ(ClientInstance::BuildClientId(config), "10.1.2.3@inst");
  config.unit_name = "unitA";
  EXPECT_EQ(ClientInstance::BuildClientId(config), "10.1.2.3@inst@unitA");
  config.client_ip.clear();
  EXPECT_NE(ClientInstance::BuildClientId(config).find("@inst@unitA"), std::string::npos);
  EXPECT_EQ(ClientInstance::PidInstanceName(), std::to_string(::getpid()));
}

TEST(ClientInstanceTest, SameClientIdSharesOneInstance) {
  auto a = ClientInstance::GetOrCreate(Config("127.0.0.1:1", "share"));
  auto b = ClientInstance::GetOrCreate(Config("127.0.0.1:1", "share"));
  auto c = ClientInstance::GetOrCreate(Config("127.0.0.1:1", "other"));
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_NE(a->get(), c->get());
  (*a)->Shutdown();
  (*c)->Shutdown();
  // Shut down and unused: the next GetOrCreate makes a new one.
  auto d = ClientInstance::GetOrCreate(Config("127.0.0.1:1", "share"));
  ASSERT_TRUE(d.ok());
  EXPECT_NE(a->get(), d->get());
  (*d)->Shutdown();
}

TEST(ClientInstanceTest, MissingOrBadNameServerIsInvalidArgument) {
  unsetenv("NAMESRV_ADDR");
  auto none = ClientInstance::GetOrCreate(Config("", "x"));
  EXPECT_TRUE(none.status().Is(StatusCode::kInvalidArgument));
  EXPECT_NE(none.status().message().find("NAMESRV_ADDR"), std::string::npos);
  EXPECT_TRUE(ClientInstance::GetOrCreate(Config("bad", "y")).status().Is(StatusCode::kInvalidArgument));
}

TEST(ClientInstanceTest, GroupRegisteredTwiceIsRefused) {
  auto instance = ClientInstance::GetOrCreate(Config("127.0.0.1:1", "dup"));
  ASSERT_TRUE(instance.ok());
  RecordingProducer p1("G"), p2("G");
  ASSERT_TRUE((*instance)->RegisterProducer("G", &p1).ok());
  Status again = (*instance)->RegisterProducer("G", &p2);
  EXPECT_TRUE(again.Is(StatusCode::kAlreadyExists));
  EXPECT_NE(again.message().find("10.1.2.3@dup"), std::string::npos);
  (*instance)->Shutdown();  // still used: stays registered
  auto same = ClientInstance::GetOrCreate(Config("127.0.0.1:1", "dup"));
  EXPECT_EQ(same->get(), instance->get());
  (*instance)->UnregisterProducer("G");
  (*instance)->Shutdown();
}

class ClientInstanceRouteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ns_.Start());
    ASSERT_TRUE(broker_a_.Start());
    ASSERT_TRUE(broker_b_.Start());
    routes_ = std::make_shared<std::map<std::string, protocol::TopicRouteData>>();
    (*routes_)["T"] = test::MakeRoute({{"broker-a", broker_a_.addr()}, {"broker-b", broker_b_.addr()}});
    (*routes_)["TBW102"] = test::MakeRoute({{"broker-a", broker_a_.addr()}}, 8);
    test::ServeRoutes(ns_, routes_);
    auto instance = ClientInstance::GetOrCreate(Config(ns_.addr(), "route"));
    ASSERT_TRUE(instance.ok());
    instance_ = *instance;
    ASSERT_TRUE(instance_->Start().ok());
  }
  void TearDown() override {
    instance_->UnregisterProducer("G");
    instance_->Shutdown();
  }

  FakeServer ns_, broker_a_, broker_b_;
  std::shared_ptr<std::map<std::string, protocol::TopicRouteData>> routes_;
  std::shared_ptr<ClientInstance> instance_;
};

TEST_F(ClientInstanceRouteTest, PublishInfoFromTheRouteAndCached) {
  auto info = instance_->TryToFindTopicPublishInfo("T");
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ((*info)->message_queues().size(), 8u);
  size_t asked = ns_.Count(rc::kGetRouteinfoByTopic);
  auto again = instance_->TryToFindTopicPublishInfo("T");
  EXPECT_EQ(again->get(), info->get());
  EXPECT_EQ(ns_.Count(rc::kGetRouteinfoByTopic), asked);
  EXPECT_EQ(instance_->FindBrokerAddressInPublish("broker-b"), broker_b_.addr());
  EXPECT_FALSE(instance_->FindBrokerAddressInPublish("broker-x"));
}

TEST_F(ClientInstanceRouteTest, UnknownTopicFallsBackToTBW102WithDefaultQueueNums) {
  auto info = instance_->TryToFindTopicPublishInfo("NewTopic", 4);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  ASSERT_EQ((*info)->message_queues().size(), 4u);
  EXPECT_EQ((*info)->message_queues()[0], MessageQueue("NewTopic", "broker-a", 0));
}

TEST_F(ClientInstanceRouteTest, NoRouteAtAllNamesTheNameServers) {
  routes_->erase("TBW102");
  auto info = instance_->TryToFindTopicPublishInfo("Missing");
  ASSERT_FALSE(info.ok());
  EXPECT_TRUE(info.status().IsNotFound());
  EXPECT_NE(info.status().message().find("No route info of this topic: Missing, NameServers asked: " +
                                         ns_.addr()),
            std::string::npos)
      << info.status().message();
}

TEST_F(ClientInstanceRouteTest, SubscribeLookupFallsBackUnlessOnlyThisBroker) {
  protocol::TopicRouteData route = test::MakeRoute({{"broker-a", broker_a_.addr()}});
  route.broker_datas[0].broker_addrs[1] = "127.0.0.1:2";
  (*routes_)["S"] = route;
  ASSERT_TRUE(instance_->UpdateTopicRouteInfoFromNameServer("S").ok());
  auto slave = instance_->FindBrokerAddressInSubscribe("broker-a", 1, true);
  ASSERT_TRUE(slave);
  EXPECT_EQ(slave->broker_addr, "127.0.0.1:2");
  EXPECT_TRUE(slave->slave);
  EXPECT_FALSE(instance_->FindBrokerAddressInSubscribe("broker-a", 2, true));
  auto any = instance_->FindBrokerAddressInSubscribe("broker-a", 2, false);
  ASSERT_TRUE(any);
  EXPECT_EQ(any->broker_addr, broker_a_.addr());
  EXPECT_FALSE(any->slave);
  EXPECT_EQ(instance_->FindBrokerAddrByTopic("S"), broker_a_.addr());
}

TEST_F(ClientInstanceRouteTest, RegisteredProducerHeartbeatsToMasters) {
  RecordingProducer producer("G");
  ASSERT_TRUE(instance_->TryToFindTopicPublishInfo("T").ok());
  ASSERT_TRUE(instance_->RegisterProducer("G", &producer).ok());
  ASSERT_TRUE(apogee::testing::WaitUntil(
      [&] { return broker_a_.Count(rc::kHeartBeat) > 0 && broker_b_.Count(rc::kHeartBeat) > 0; },
      std::chrono::seconds(5)));
  auto heartbeats = broker_a_.Requests(rc::kHeartBeat);
  auto data = protocol::DecodeHeartbeatData(heartbeats.back().body);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->client_id, instance_->client_id());
  ASSERT_EQ(data->producer_data_set.size(), 1u);
  EXPECT_EQ(data->producer_data_set[0].group_name, "G");

  instance_->UnregisterProducer("G");
  EXPECT_GE(broker_a_.Count(rc::kUnregisterClient), 1u);
}

}  // namespace
}  // namespace apogee::client
