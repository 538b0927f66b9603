#include "broker/processors/client_processors.h"
#include "unit/broker/processors/table_test_util.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>

#include "base/clock.h"
#include "base/scheduler.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/broker_services.h"
#include "broker/client/client_housekeeping.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/producer_manager.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "env/env.h"
#include "env/mem_env.h"
#include "protocol/consumer_list_body.h"
#include "protocol/heartbeat_data.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "testutil/test_util.h"

namespace apogee::broker {
namespace {

using protocol::RemotingCommand;
using std::chrono::milliseconds;
namespace code = protocol::request_code;
namespace rc = protocol::response_code;

// A consumer process: its own connection, counting the NOTIFY_CONSUMER_IDS_CHANGED it gets.
class FakeConsumer {
 public:
  explicit FakeConsumer(std::string client_id) : client_id_(std::move(client_id)) {
    client_.RegisterProcessor(
        code::kNotifyConsumerIdsChanged,
        remoting::MakeProcessor([this](RemotingCommand request, remoting::Responder) {
          std::lock_guard<std::mutex> lock(mu_);
          ++notified_[std::string(request.ext_fields.Get("consumerGroup").value_or(""))];
        }));
    client_.Start();
  }
  ~FakeConsumer() { client_.Shutdown(); }

  RemotingCommand Heartbeat(const std::string& address, const std::string& group) {
    protocol::HeartbeatData data;
    data.client_id = client_id_;
    protocol::ConsumerData consumer;
    consumer.group_name = group;
    protocol::SubscriptionData sub;
    sub.topic = "T";
    sub.sub_string = "*";
    consumer.subscription_data_set.push_back(sub);
    data.consumer_data_set.push_back(consumer);
    RemotingCommand request = RemotingCommand::MakeRequest(code::kHeartBeat);
    request.body = protocol::EncodeHeartbeatData(data);
    return Invoke(address, std::move(request));
  }
  RemotingCommand Unregister(const std::string& address, const std::string& group) {
    RemotingCommand request = RemotingCommand::MakeRequest(code::kUnregisterClient);
    request.has_ext_fields = true;
    request.ext_fields.Set("clientID", client_id_);
    request.ext_fields.Set("consumerGroup", group);
    return Invoke(address, std::move(request));
  }
  RemotingCommand Invoke(const std::string& address, RemotingCommand request) {
    Result<RemotingCommand> response =
        client_.InvokeSync(address, std::move(request), milliseconds(3000));
    EXPECT_TRUE(response.ok()) << response.status().ToString();
    return response.ok() ? *response : RemotingCommand{};
  }
  int Notified(const std::string& group) {
    std::lock_guard<std::mutex> lock(mu_);
    return notified_[group];
  }
  void Disconnect(const std::string& address) { client_.CloseChannel(address); }

 private:
  const std::string client_id_;
  remoting::RemotingClient client_;
  std::mutex mu_;
  std::map<std::string, int> notified_;
};

class ClientProcessorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    BrokerSettings settings;
    settings.broker_name = "broker-a";
    settings.broker_ip1 = "127.0.0.1";
    config_ = std::make_unique<BrokerConfig>(settings);
    topics_ = std::make_unique<TopicConfigManager>(config_.get(), env_.get(),
                                                   "/store/config/topics.json");
    groups_ = std::make_unique<SubscriptionGroupManager>(config_.get(), env_.get(),
                                                         "/store/config/subscriptionGroup.json");
    ASSERT_TRUE(topics_->Load().ok());
    ASSERT_TRUE(groups_->Load().ok());
    context_.config = config_.get();
    context_.scheduler = &scheduler_;
    context_.topic_config_manager = topics_.get();
    context_.subscription_group_manager = groups_.get();
    // Only the client part of the services: this context has no store.
    services_.BuildClients(context_);
    CreateClientProcessors(context_, services_, &processors_);
    server_ = StartServer();
    address_ = "127.0.0.1:" + std::to_string(server_->port());
    ASSERT_TRUE(services_.Start(&scheduler_, false).ok());
  }

  void TearDown() override {
    services_.Shutdown();
    for (auto& server : servers_) server->Shutdown();
  }

  remoting::RemotingServer* StartServer() {
    remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    servers_.push_back(std::make_unique<remoting::RemotingServer>(options));
    const ServerPort port = servers_.size() == 1 ? ServerPort::kMain : ServerPort::kFast;
    BuildProcessorTable(processors_, context_.executors).ApplyTo(*servers_.back(), port);
    EXPECT_TRUE(servers_.back()->Start().ok());
    return servers_.back().get();
  }

  std::vector<std::string> ConsumerList(FakeConsumer& consumer, const std::string& address,
                                        const std::string& group) {
    RemotingCommand request = RemotingCommand::MakeRequest(code::kGetConsumerListByGroup);
    request.has_ext_fields = true;
    request.ext_fields.Set("consumerGroup", group);
    RemotingCommand response = consumer.Invoke(address, std::move(request));
    if (response.code != rc::kSuccess) return {};
    return protocol::DecodeConsumerListBody(response.body)->consumer_id_list;
  }

  static bool Eventually(const std::function<bool()>& condition) {
    return apogee::testing::WaitUntil(condition, milliseconds(5000));
  }

  Scheduler scheduler_;
  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  std::unique_ptr<BrokerConfig> config_;
  std::unique_ptr<TopicConfigManager> topics_;
  std::unique_ptr<SubscriptionGroupManager> groups_;
  BrokerContext context_;
  BrokerServices services_;
  BrokerProcessors processors_;
  std::vector<std::unique_ptr<remoting::RemotingServer>> servers_;
  remoting::RemotingServer* server_ = nullptr;
  std::string address_;
};

TEST_F(ClientProcessorsTest, CreatesTheManagersOnceForBothPorts) {
  ASSERT_NE(context_.consumer_manager, nullptr);
  ASSERT_NE(context_.producer_manager, nullptr);
  ASSERT_NE(processors_.client_housekeeping, nullptr);
  StartServer();  // the fast server: the same processors and housekeeping
  EXPECT_EQ(processors_.client_housekeeping, services_.client_housekeeping);
  EXPECT_TRUE(context_.start_hooks.empty());
}

TEST_F(ClientProcessorsTest, JoinAndLeaveNotifyTheGroupsConsumers) {
  FakeConsumer a("10.0.0.1@a");
  FakeConsumer b("10.0.0.2@b");
  EXPECT_EQ(a.Heartbeat(address_, "G").code, rc::kSuccess);
  EXPECT_TRUE(Eventually([&] { return a.Notified("G") == 1; }));

  // b joins: both members are told.
  EXPECT_EQ(b.Heartbeat(address_, "G").code, rc::kSuccess);
  EXPECT_TRUE(Eventually([&] { return a.Notified("G") == 2 && b.Notified("G") == 1; }));
  EXPECT_EQ(ConsumerList(a, address_, "G"), (std::vector<std::string>{"10.0.0.1@a", "10.0.0.2@b"}));

  // A repeated heartbeat changes nothing and notifies nobody.
  EXPECT_EQ(b.Heartbeat(address_, "G").code, rc::kSuccess);

  // b leaves with UNREGISTER_CLIENT: a is told.
  EXPECT_EQ(b.Unregister(address_, "G").code, rc::kSuccess);
  EXPECT_TRUE(Eventually([&] { return a.Notified("G") == 3; }));
  EXPECT_EQ(b.Notified("G"), 1);
  EXPECT_EQ(ConsumerList(a, address_, "G"), (std::vector<std::string>{"10.0.0.1@a"}));

  // b joins again and its connection drops: a is told again.
  b.Heartbeat(address_, "G");
  EXPECT_TRUE(Eventually([&] { return a.Notified("G") == 4; }));
  b.Disconnect(address_);
  EXPECT_TRUE(Eventually([&] { return a.Notified("G") == 5; }));
  EXPECT_EQ(ConsumerList(a, address_, "G"), (std::vector<std::string>{"10.0.0.1@a"}));
}

TEST_F(ClientProcessorsTest, GroupFlagOffSuppressesNotifications) {
  SubscriptionGroupConfig quiet;
  quiet.group_name = "Quiet";
  quiet.notify_consumer_ids_changed_enable = false;
  ASSERT_TRUE(groups_->UpdateSubscriptionGroupConfig(quiet).ok());
  FakeConsumer a("10.0.0.1@a");
  FakeConsumer b("10.0.0.2@b");
  a.Heartbeat(address_, "Quiet");
  b.Heartbeat(address_, "Quiet");
  a.Heartbeat(address_, "Loud");  // a control group on the same connection
  EXPECT_TRUE(Eventually([&] { return a.Notified("Loud") == 1; }));
  EXPECT_EQ(a.Notified("Quiet"), 0);
  EXPECT_EQ(b.Notified("Quiet"), 0);
}

TEST_F(ClientProcessorsTest, BothServersShareOneView) {
  remoting::RemotingServer* fast = StartServer();
  const std::string fast_address = "127.0.0.1:" + std::to_string(fast->port());
  FakeConsumer a("10.0.0.1@a");
  FakeConsumer b("10.0.0.2@b");
  a.Heartbeat(address_, "G");
  b.Heartbeat(fast_address, "G");
  EXPECT_EQ(ConsumerList(a, fast_address, "G"),
            (std::vector<std::string>{"10.0.0.1@a", "10.0.0.2@b"}));
  // A disconnect from the fast server is seen too.
  b.Disconnect(fast_address);
  EXPECT_TRUE(Eventually([&] {
    return context_.consumer_manager->GetAllClientIds("G") ==
           std::vector<std::string>{"10.0.0.1@a"};
  }));
}

TEST_F(ClientProcessorsTest, LocksOverTheWire) {
  FakeConsumer a("10.0.0.1@a");
  RemotingCommand lock = RemotingCommand::MakeRequest(code::kLockBatchMq);
  lock.body =
      R"({"consumerGroup":"G","clientId":"10.0.0.1@a","mqSet":[{"topic":"T","brokerName":"broker-a","queueId":0}]})";
  RemotingCommand response = a.Invoke(address_, lock);
  ASSERT_EQ(response.code, rc::kSuccess);
  EXPECT_EQ(response.body,
            R"({"lockOKMQSet":[{"brokerName":"broker-a","queueId":0,"topic":"T"}]})");
  RemotingCommand unlock = RemotingCommand::MakeRequest(code::kUnlockBatchMq);
  unlock.body = lock.body;
  EXPECT_EQ(a.Invoke(address_, unlock).code, rc::kSuccess);
  RemotingCommand check = RemotingCommand::MakeRequest(code::kCheckClientConfig);
  check.body = R"({"clientId":"c","group":"G","subscriptionData":{"topic":"T","subString":"*"}})";
  EXPECT_EQ(a.Invoke(address_, check).code, rc::kSuccess);
}

}  // namespace
}  // namespace apogee::broker
