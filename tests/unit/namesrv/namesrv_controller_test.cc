#include "namesrv/namesrv_controller.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "base/crc32.h"
#include "protocol/register_broker_body.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "testutil/test_util.h"

namespace apogee::namesrv {
namespace {

namespace rc = protocol::request_code;
namespace resp = protocol::response_code;
using protocol::RemotingCommand;
using namespace std::chrono_literals;

RemotingCommand RegisterRequest(const std::string& topic) {
  protocol::RegisterBrokerBody body;
  protocol::TopicConfig tc;
  tc.topic_name = topic;
  tc.read_queue_nums = tc.write_queue_nums = 4;
  body.topic_config_serialize_wrapper.topic_config_table[topic] = tc;
  RemotingCommand req = RemotingCommand::MakeRequest(rc::kRegisterBroker);
  req.body = protocol::EncodeRegisterBrokerBody(body);
  req.has_ext_fields = true;
  req.ext_fields.Set("brokerName", "broker-a");
  req.ext_fields.Set("brokerAddr", "127.0.0.1:10911");
  req.ext_fields.Set("clusterName", "c1");
  req.ext_fields.Set("haServerAddr", "127.0.0.1:10912");
  req.ext_fields.Set("brokerId", "0");
  req.ext_fields.Set("bodyCrc32", std::to_string(Crc32Masked(req.body)));
  return req;
}

RemotingCommand RouteRequest(const std::string& topic) {
  RemotingCommand req = RemotingCommand::MakeRequest(rc::kGetRouteinfoByTopic);
  req.has_ext_fields = true;
  req.ext_fields.Set("topic", topic);
  return req;
}

class NamesrvControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(config_
                    .ApplyProperties({{"listenPort", "0"},
                                      {"bindAddress", "127.0.0.1"},
                                      {"kvConfigPath", dir_.Join("kvConfig.json")},
                                      {"scanNotActiveBrokerInterval", "20"},
                                      {"brokerChannelExpiredTime", "10000"}})
                    .ok());
    controller_ = std::make_unique<NamesrvController>(&config_, &clock_);
    ASSERT_TRUE(controller_->Start().ok());
    ASSERT_NE(controller_->port(), 0);
    addr_ = "127.0.0.1:" + std::to_string(controller_->port());
    broker_.Start();
    client_.Start();
  }

  int32_t RouteCode(const std::string& topic) {
    auto r = client_.InvokeSync(addr_, RouteRequest(topic), 3s);
    return r.ok() ? r->code : -1;
  }

  testing::TempDir dir_;
  ManualClock clock_;
  NamesrvConfig config_;
  std::unique_ptr<NamesrvController> controller_;
  std::string addr_;
  remoting::RemotingClient broker_;
  remoting::RemotingClient client_;
};

TEST_F(NamesrvControllerTest, ServesRegistrationAndRoutes) {
  auto reg = broker_.InvokeSync(addr_, RegisterRequest("T"), 3s);
  ASSERT_TRUE(reg.ok()) << reg.status().ToString();
  EXPECT_EQ(reg->code, resp::kSuccess) << reg->remark.value_or("");
  EXPECT_EQ(RouteCode("T"), resp::kSuccess);
  EXPECT_EQ(RouteCode("Other"), resp::kTopicNotExist);
}

TEST_F(NamesrvControllerTest, ScanExpiresSilentBrokerAndClosesItsConnection) {
  ASSERT_TRUE(broker_.InvokeSync(addr_, RegisterRequest("T"), 3s).ok());
  ASSERT_EQ(broker_.ConnectedAddresses().size(), 1u);
  clock_.Advance(10000);  // exactly the timeout: still alive
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(RouteCode("T"), resp::kSuccess);
  clock_.Advance(1);
  EXPECT_TRUE(testing::WaitUntil([&] { return RouteCode("T") == resp::kTopicNotExist; }, 5s));
  // Java closes the expired broker's channel; the broker reconnects on its next call.
  EXPECT_TRUE(testing::WaitUntil([&] { return broker_.ConnectedAddresses().empty(); }, 5s));
}

TEST_F(NamesrvControllerTest, ClosedConnectionRemovesBroker) {
  ASSERT_TRUE(broker_.InvokeSync(addr_, RegisterRequest("T"), 3s).ok());
  broker_.CloseChannel(addr_);
  EXPECT_TRUE(testing::WaitUntil([&] { return RouteCode("T") == resp::kTopicNotExist; }, 5s));
}

TEST_F(NamesrvControllerTest, ShutdownIsIdempotentAndFreesThePort) {
  uint16_t port = controller_->port();
  controller_->Shutdown();
  controller_->Shutdown();
  EXPECT_NE(RouteCode("T"), resp::kSuccess);
  NamesrvConfig again;
  ASSERT_TRUE(again
                  .ApplyProperties({{"listenPort", std::to_string(port)},
                                    {"bindAddress", "127.0.0.1"},
                                    {"kvConfigPath", dir_.Join("kv2.json")}})
                  .ok());
  NamesrvController second(&again, &clock_);
  EXPECT_TRUE(second.Start().ok());
}

TEST(NamesrvControllerStartTest, CorruptKvConfigFailsStartNamingTheFile) {
  testing::TempDir dir;
  std::string kv = dir.Join("kvConfig.json");
  std::ofstream(kv) << "garbage";
  NamesrvConfig config;
  ASSERT_TRUE(config.ApplyProperties({{"listenPort", "0"}, {"kvConfigPath", kv}}).ok());
  NamesrvController controller(&config);
  Status s = controller.Start();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(kv), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace apogee::namesrv
