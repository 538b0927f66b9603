#include "broker/processors/admin_processors.h"

#include <gtest/gtest.h>

#include <atomic>

#include "broker/stats/broker_stats_manager.h"
#include "broker/processors/client_processors.h"
#include "broker/processors/send_pull_processors.h"
#include "unit/broker/processors/table_test_util.h"
#include "protocol/kv_table.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/executor.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;

class AdminProcessorsTest : public ::testing::Test {
 protected:
  AdminProcessorsTest() {
    remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    main_ = std::make_unique<remoting::RemotingServer>(options);
    fast_ = std::make_unique<remoting::RemotingServer>(options);
    harness_.context.executors.admin = std::make_shared<remoting::ThreadPoolExecutor>("admin", 1, 10);
    // The controller's order: clients, send / pull, admin; one table for both servers.
    BrokerProcessors processors;
    CreateClientProcessors(harness_.context, harness_.Services(), &processors);
    CreateSendPullProcessors(harness_.context, harness_.Services(), &processors);
    CreateAdminProcessors(harness_.context, &processors, harness_.env.get());
    testing::ApplyTable(harness_.context, processors, *main_, fast_.get());
    EXPECT_TRUE(harness_.RunStartHooks().ok());
    EXPECT_TRUE(main_->Start().ok());
    EXPECT_TRUE(fast_->Start().ok());
    client_.Start();
  }
  ~AdminProcessorsTest() override {
    client_.Shutdown();
    main_->Shutdown();
    fast_->Shutdown();
  }
  std::string AddrOf(const remoting::RemotingServer& s) const {
    return "127.0.0.1:" + std::to_string(s.port());
  }
  RemotingCommand Invoke(const remoting::RemotingServer& s, int32_t code) {
    auto r = client_.InvokeSync(AddrOf(s), RemotingCommand::MakeRequest(code), std::chrono::seconds(5));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : RemotingCommand{};
  }

  testing::BrokerHarness harness_;
  std::unique_ptr<remoting::RemotingServer> main_;
  std::unique_ptr<remoting::RemotingServer> fast_;
  remoting::RemotingClient client_;
};

TEST_F(AdminProcessorsTest, BothServersShareOneStats) {
  // Puts are counted where the send is answered (BrokerStatsManager::OnPut), one stats object
  // for the context: both servers' runtime info reads it.
  ASSERT_NE(harness_.context.stats, nullptr);
  harness_.context.stats->OnPut("T", 5, 5 * 100, 1);
  for (const auto* server : {main_.get(), fast_.get()}) {
    RemotingCommand response = Invoke(*server, req::kGetBrokerRuntimeInfo);
    ASSERT_EQ(response.code, rc::kSuccess);
    auto kv = protocol::DecodeKVTable(response.body);
    ASSERT_TRUE(kv.ok());
    EXPECT_EQ(kv->table.at("msgPutTotalTodayNow"), "5");
  }
}

TEST_F(AdminProcessorsTest, EveryAdminAndQueryCodeIsRegisteredOnBothServers) {
  for (int32_t code :
       {req::kUpdateAndCreateTopic, req::kDeleteTopicInBroker, req::kGetAllTopicConfig,
        req::kUpdateBrokerConfig, req::kGetBrokerConfig, req::kGetBrokerRuntimeInfo,
        req::kUpdateAndCreateSubscriptiongroup, req::kGetAllSubscriptiongroupConfig,
        req::kDeleteSubscriptiongroup, req::kGetTopicStatsInfo, req::kGetConsumeStats,
        req::kGetConsumerConnectionList, req::kGetProducerConnectionList,
        req::kGetAllConsumerOffset, req::kGetAllDelayOffset, req::kQueryTopicConsumeByWho,
        req::kInvokeBrokerToResetOffset, req::kCloneGroupOffset, req::kQueryMessage,
        req::kViewMessageById}) {
    for (const auto* server : {main_.get(), fast_.get()}) {
      EXPECT_NE(Invoke(*server, code).code, rc::kRequestCodeNotSupported) << code;
    }
  }
}

}  // namespace
}  // namespace apogee::broker
