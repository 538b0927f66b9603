#include "broker/broker_controller.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "broker/broker_config.h"
#include "broker/processors/processor_table.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "env/env.h"
#include "env/mem_env.h"
#include "protocol/custom_header.h"
#include "protocol/namesrv_headers.h"
#include "protocol/register_broker_body.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "testutil/test_util.h"

namespace apogee::broker {
namespace {

using protocol::RemotingCommand;
namespace resp = protocol::response_code;
namespace req = protocol::request_code;
using namespace std::chrono_literals;

// Records REGISTER_BROKER / UNREGISTER_BROKER and answers SUCCESS.
class RecordingNamesrv {
 public:
  RecordingNamesrv() {
    remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    server_ = std::make_unique<remoting::RemotingServer>(options);
    auto handler = remoting::MakeProcessor([this](RemotingCommand request, remoting::Responder r) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        received_.push_back(request);
      }
      r.Send(RemotingCommand::MakeResponse(request, resp::kSuccess));
    });
    server_->RegisterProcessor(req::kRegisterBroker, handler);
    server_->RegisterProcessor(req::kUnregisterBroker, handler);
    EXPECT_TRUE(server_->Start().ok());
  }
  std::string addr() const { return "127.0.0.1:" + std::to_string(server_->port()); }
  size_t Count(int32_t code) {
    std::lock_guard<std::mutex> lock(mu_);
    size_t n = 0;
    for (const auto& c : received_) n += c.code == code ? 1 : 0;
    return n;
  }
  // The topic table of the last registration.
  protocol::TopicConfigSerializeWrapper LastTopics() {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = received_.rbegin(); it != received_.rend(); ++it) {
      if (it->code != req::kRegisterBroker) continue;
      auto h = protocol::DecodeCustomHeader<protocol::RegisterBrokerRequestHeader>(*it);
      auto body = protocol::DecodeRegisterBrokerRequestBody(it->body, h->compressed, it->version);
      if (body.ok()) return body->topic_config_serialize_wrapper;
    }
    return {};
  }

 private:
  std::unique_ptr<remoting::RemotingServer> server_;
  std::mutex mu_;
  std::vector<RemotingCommand> received_;
};

class BrokerControllerTest : public ::testing::Test {
 protected:
  std::unique_ptr<BrokerConfig> Config(const std::string& namesrv_addr,
                                       std::map<std::string, std::string> extra = {}) {
    BrokerSettings s;
    s.broker_name = "broker-a";
    s.broker_ip1 = "127.0.0.1";
    s.broker_ip2 = "127.0.0.1";
    s.bind_address = "127.0.0.1";
    s.listen_port = apogee::testing::PickFreePort({-2, +1});
    s.server_selector_threads = 1;
    s.store.store_path_root_dir = "/store";
    s.store.mapped_file_size_commit_log = 1 << 20;
    s.store.max_hash_slot_num = 1000;
    s.store.max_index_num = 4000;
    s.send_message_thread_pool_nums = 1;
    s.pull_message_thread_pool_nums = 1;
    s.namesrv_addr = namesrv_addr;
    auto config = std::make_unique<BrokerConfig>(s);
    EXPECT_TRUE(config->ApplyProperties(extra).ok());
    return config;
  }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
};

TEST_F(BrokerControllerTest, StartsServesRegistersAndStopsCleanly) {
  RecordingNamesrv ns1, ns2;
  auto config = Config(ns1.addr() + ";" + ns2.addr());
  {
    BrokerController controller(config.get(), env_.get());
    ASSERT_TRUE(controller.Initialize().ok());
    ASSERT_TRUE(controller.Start().ok());
    EXPECT_EQ(controller.port(), config->Get()->listen_port);
    EXPECT_EQ(controller.fast_port(), config->Get()->listen_port - 2);
    EXPECT_EQ(controller.context().broker_addr, config->Get()->BrokerAddr());
    EXPECT_NE(controller.context().store, nullptr);
    EXPECT_TRUE(controller.context().topic_config_manager->ContainsTopic("TBW102"));
    // The first registration happens during Start, on both NameServers.
    EXPECT_EQ(ns1.Count(req::kRegisterBroker), 1u);
    EXPECT_EQ(ns2.Count(req::kRegisterBroker), 1u);

    // Both ports answer (an unknown code is refused, not dropped).
    remoting::RemotingClient client;
    client.Start();
    for (uint16_t port : {controller.port(), controller.fast_port()}) {
      auto res = client.InvokeSync("127.0.0.1:" + std::to_string(port),
                                   RemotingCommand::MakeRequest(9999), 3s);
      ASSERT_TRUE(res.ok()) << res.status().ToString();
      EXPECT_EQ(res->code, resp::kRequestCodeNotSupported);
    }

    // Pulls are served on the main port only (Java's fastRemotingServer has no pull
    // processor); a send goes to either port.
    auto pull = client.InvokeSync("127.0.0.1:" + std::to_string(controller.fast_port()),
                                  RemotingCommand::MakeRequest(req::kPullMessage), 3s);
    ASSERT_TRUE(pull.ok()) << pull.status().ToString();
    EXPECT_EQ(pull->code, resp::kRequestCodeNotSupported);
    pull = client.InvokeSync("127.0.0.1:" + std::to_string(controller.port()),
                             RemotingCommand::MakeRequest(req::kPullMessage), 3s);
    ASSERT_TRUE(pull.ok()) << pull.status().ToString();
    EXPECT_NE(pull->code, resp::kRequestCodeNotSupported);

    // A topic change is registered at once (not after 30 s).
    protocol::TopicConfig t;
    t.topic_name = "Fresh";
    ASSERT_TRUE(controller.context().topic_config_manager->UpdateTopicConfig(t).ok());
    ASSERT_TRUE(apogee::testing::WaitUntil(
        [&] { return ns1.LastTopics().topic_config_table.count("Fresh") == 1; }, 5s));
    // Registration goes to every NameServer in parallel: ns2 may answer a moment after ns1.
    EXPECT_TRUE(apogee::testing::WaitUntil(
        [&] { return ns2.LastTopics().topic_config_table.count("Fresh") == 1; }, 5s));
    EXPECT_GE(ns2.Count(req::kRegisterBroker), 2u);
    controller.Shutdown();
  }
  // Unregistered from both; config persisted under <root>/config.
  EXPECT_EQ(ns1.Count(req::kUnregisterBroker), 1u);
  EXPECT_EQ(ns2.Count(req::kUnregisterBroker), 1u);
  EXPECT_TRUE(env_->FileExists("/store/config/topics.json"));
  EXPECT_TRUE(env_->FileExists("/store/config/subscriptionGroup.json"));

  // A new controller on the same store sees the topic.
  BrokerController again(config.get(), env_.get());
  ASSERT_TRUE(again.Initialize().ok());
  EXPECT_TRUE(again.context().topic_config_manager->ContainsTopic("Fresh"));
}

TEST_F(BrokerControllerTest, WipedPermissionIsRegisteredAndReRegisteredOnChange) {
  RecordingNamesrv ns;
  auto config = Config(ns.addr(), {{"brokerPermission", "4"}});
  BrokerController controller(config.get(), env_.get());
  ASSERT_TRUE(controller.Initialize().ok());
  ASSERT_TRUE(controller.Start().ok());
  auto topics = ns.LastTopics();
  ASSERT_EQ(topics.topic_config_table.count("TBW102"), 1u);
  EXPECT_EQ(topics.topic_config_table.at("TBW102").perm, 4);
  // The stored config keeps its own bits; only the registration is narrowed.
  EXPECT_EQ(controller.context().topic_config_manager->SelectTopicConfig("TBW102")->perm, 7);

  size_t before = ns.Count(req::kRegisterBroker);
  ASSERT_TRUE(config->UpdateAtRuntime({{"brokerPermission", "6"}}).ok());
  ASSERT_TRUE(
      apogee::testing::WaitUntil([&] { return ns.Count(req::kRegisterBroker) > before; }, 5s));
  ASSERT_TRUE(apogee::testing::WaitUntil(
      [&] { return ns.LastTopics().topic_config_table.at("TBW102").perm == 7; }, 5s));
}

TEST_F(BrokerControllerTest, RegisterFailsWhenNoNameServerAnswers) {
  auto config = Config("127.0.0.1:1");
  BrokerController controller(config.get(), env_.get());
  ASSERT_TRUE(controller.Initialize().ok());
  // Start succeeds: NameServers may come up later.
  ASSERT_TRUE(controller.Start().ok());
  Status s = controller.RegisterBrokerAll();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("127.0.0.1:1"), std::string::npos) << s.ToString();
}

TEST_F(BrokerControllerTest, PortInUseFailsNamingTheAddress) {
  auto config = Config("");
  BrokerController first(config.get(), env_.get());
  ASSERT_TRUE(first.Initialize().ok());
  ASSERT_TRUE(first.Start().ok());
  auto other_env = env::NewMemEnv();
  BrokerController second(config.get(), other_env.get());
  ASSERT_TRUE(second.Initialize().ok());
  Status s = second.Start();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(std::to_string(config->Get()->listen_port)), std::string::npos)
      << s.ToString();
}

TEST_F(BrokerControllerTest, SecondBrokerOnSameStoreIsRefused) {
  auto config = Config("");
  BrokerController first(config.get(), env_.get());
  ASSERT_TRUE(first.Initialize().ok());
  BrokerController second(config.get(), env_.get());
  Status s = second.Initialize();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("open message store"), std::string::npos) << s.ToString();
}

// The one table both ports are built from (processor_table.h): today's mapping of the
// key codes to executors and ports, as Java's BrokerController.registerProcessor has it.
TEST_F(BrokerControllerTest, ProcessorTableMapsKeyCodesToExecutorsAndPorts) {
  auto check = [](BrokerController& controller) {
    const ProcessorTable& table = controller.processor_table();
    const BrokerExecutors& ex = controller.context().executors;
    auto row = [&](int32_t code) {
      const ProcessorRow* r = table.Find(code);
      EXPECT_NE(r, nullptr) << code;
      return r ? *r : ProcessorRow{};
    };
    for (int32_t code : {req::kSendMessage, req::kSendMessageV2, req::kSendBatchMessage}) {
      EXPECT_EQ(row(code).executor, nullptr) << code;  // inline on the IO thread
      EXPECT_EQ(row(code).ports, RowPorts::kMainAndFast) << code;
      EXPECT_NE(row(code).handler, nullptr);
    }
    EXPECT_EQ(row(req::kSendMessage).handler, row(req::kSendBatchMessage).handler);
    for (int32_t code : {req::kPullMessage, req::kLitePullMessage}) {
      EXPECT_EQ(row(code).executor, ex.pull) << code;
      EXPECT_EQ(row(code).ports, RowPorts::kMainOnly) << code;
    }
    EXPECT_EQ(row(req::kHeartBeat).executor, ex.heartbeat);
    EXPECT_EQ(row(req::kHeartBeat).ports, RowPorts::kMainAndFast);
    EXPECT_EQ(row(req::kUnregisterClient).executor, ex.client_manage);
    EXPECT_EQ(row(req::kGetConsumerListByGroup).executor, ex.consumer_manage);
    EXPECT_EQ(row(req::kUpdateConsumerOffset).executor, ex.consumer_manage);
    EXPECT_EQ(row(req::kGetMaxOffset).executor, ex.admin);
    EXPECT_EQ(row(req::kLockBatchMq).executor, ex.admin);
    EXPECT_EQ(row(req::kGetBrokerRuntimeInfo).executor, ex.admin);
    EXPECT_EQ(row(req::kQueryMessage).executor, ex.query_message);
    EXPECT_EQ(row(req::kConsumerSendMsgBack).executor, ex.send);
    EXPECT_EQ(row(req::kEndTransaction).executor, ex.send);
    EXPECT_EQ(row(req::kApogeeRedriveDlqMessage).executor, ex.admin);
    // No default processor: an unlisted code is REQUEST_CODE_NOT_SUPPORTED.
    EXPECT_EQ(table.Find(9999), nullptr);
    // The fast port serves every row but the two pulls.
    size_t main_only = 0;
    for (const ProcessorRow& r : table.rows()) {
      EXPECT_NE(r.handler, nullptr) << r.request_code;
      EXPECT_TRUE(ProcessorTable::Serves(r, ServerPort::kMain));
      if (!ProcessorTable::Serves(r, ServerPort::kFast)) ++main_only;
    }
    EXPECT_EQ(main_only, 2u);
    EXPECT_EQ(table.rows().size(), 43u);
  };
  {
    auto config = Config("");
    BrokerController controller(config.get(), env_.get());
    ASSERT_TRUE(controller.Initialize().ok());
    check(controller);
  }
  {
    // SYNC_FLUSH: sends are inline too (answered from the group commit callback).
    auto config = Config("", {{"flushDiskType", "SYNC_FLUSH"}, {"storePathRootDir", "/sync"}});
    BrokerController controller(config.get(), env_.get());
    ASSERT_TRUE(controller.Initialize().ok());
    check(controller);
  }
}

}  // namespace
}  // namespace apogee::broker
