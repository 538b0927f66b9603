#include "broker/slave_synchronize.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "broker/client/consumer_offset_manager.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "env/env.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/topic_config.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using testing::BrokerHarness;

// A fake master answering the four metadata requests with fixed bodies.
class FakeMaster {
 public:
  FakeMaster() : server_(remoting::RemotingServerOptions{"127.0.0.1", 0, 1}) {
    Answer(req::kGetAllTopicConfig, [this] { return topics_; });
    Answer(req::kGetAllConsumerOffset, [this] { return offsets_; });
    Answer(req::kGetAllDelayOffset, [this] { return delay_; });
    Answer(req::kGetAllSubscriptiongroupConfig, [this] { return groups_; });
    EXPECT_TRUE(server_.Start().ok());
  }
  std::string addr() const { return "127.0.0.1:" + std::to_string(server_.port()); }
  int calls() const { return calls_.load(); }

  std::string topics_;
  std::string offsets_ = R"({"offsetTable":{}})";
  std::string delay_;  // empty: "No delay offset" (SYSTEM_ERROR), as a master without any
  std::string groups_ = R"({"subscriptionGroupTable":{},"dataVersion":{"timestamp":1,"counter":1}})";

 private:
  void Answer(int32_t code, std::function<std::string()> body) {
    server_.RegisterProcessor(
        code, remoting::MakeProcessor([this, body](protocol::RemotingCommand request,
                                                   remoting::Responder responder) {
          ++calls_;
          std::string b = body();
          if (b.empty()) {
            responder.SendCode(rc::kSystemError, "No delay offset in this broker");
            return;
          }
          auto response = protocol::RemotingCommand::MakeResponse(request, rc::kSuccess);
          response.body = std::move(b);
          responder.Send(std::move(response));
        }));
  }
  remoting::RemotingServer server_;
  std::atomic<int> calls_{0};
};

std::string TopicsBody(const std::string& name, int64_t counter) {
  protocol::TopicConfigSerializeWrapper w;
  protocol::TopicConfig c;
  c.topic_name = name;
  c.read_queue_nums = 3;
  c.write_queue_nums = 3;
  w.topic_config_table[name] = c;
  w.data_version.timestamp = 1700000000000;
  w.data_version.counter = counter;
  return protocol::EncodeTopicConfigSerializeWrapper(w);
}

class SlaveSynchronizeTest : public ::testing::Test {
 protected:
  SlaveSynchronizeTest() {
    harness_.context.consumer_offset_manager =
        std::make_shared<ConsumerOffsetManager>(harness_.env.get(), "/store/config/co.json");
    client_.Start();
  }

  BrokerHarness harness_;
  FakeMaster master_;
  remoting::RemotingClient client_;
};

TEST_F(SlaveSynchronizeTest, CopiesTopicsOffsetsDelayOffsetsAndGroups) {
  master_.topics_ = TopicsBody("FromMaster", 5);
  master_.offsets_ = R"({"offsetTable":{"FromMaster@G1":{0:7,2:9}}})";
  master_.delay_ = R"({"offsetTable":{1:33}})";
  master_.groups_ =
      R"({"subscriptionGroupTable":{"G1":{"groupName":"G1","consumeEnable":true}},)"
      R"("dataVersion":{"timestamp":2,"counter":3}})";
  SlaveSynchronize sync(&harness_.context, harness_.env.get(), &client_);
  sync.SetMasterAddr(master_.addr());
  Status s = sync.SyncAll();
  ASSERT_TRUE(s.ok()) << s.ToString();

  auto topic = harness_.topics->SelectTopicConfig("FromMaster");
  ASSERT_TRUE(topic.has_value());
  EXPECT_EQ(topic->read_queue_nums, 3);
  EXPECT_EQ(harness_.context.consumer_offset_manager->QueryOffset("G1", "FromMaster", 2), 9);
  EXPECT_EQ(harness_.context.consumer_offset_manager->QueryOffset("G1", "FromMaster", 0), 7);
  EXPECT_TRUE(harness_.groups->ContainsSubscriptionGroup("G1"));
  auto delay = env::ReadFileToString(harness_.env.get(), "/store/config/delayOffset.json");
  ASSERT_TRUE(delay.ok());
  EXPECT_EQ(*delay, master_.delay_);
  // Persisted.
  auto topics_file = env::ReadFileToString(harness_.env.get(), "/store/config/topics.json");
  ASSERT_TRUE(topics_file.ok());
  EXPECT_NE(topics_file->find("FromMaster"), std::string::npos);
}

TEST_F(SlaveSynchronizeTest, TopicsTheMasterDroppedAreDropped) {
  harness_.AddTopic("OnlyOnSlave", 2);
  master_.topics_ = TopicsBody("FromMaster", 1);
  SlaveSynchronize sync(&harness_.context, harness_.env.get(), &client_);
  sync.SetMasterAddr(master_.addr());
  ASSERT_TRUE(sync.SyncTopicConfig().ok());
  EXPECT_FALSE(harness_.topics->ContainsTopic("OnlyOnSlave"));
  EXPECT_TRUE(harness_.topics->ContainsTopic("FromMaster"));
}

TEST_F(SlaveSynchronizeTest, NoMasterOrOwnAddressSkipsEverything) {
  SlaveSynchronize sync(&harness_.context, harness_.env.get(), &client_);
  EXPECT_TRUE(sync.SyncAll().ok());
  sync.SetMasterAddr(harness_.context.broker_addr);
  EXPECT_TRUE(sync.SyncAll().ok());
  EXPECT_EQ(master_.calls(), 0);
}

TEST_F(SlaveSynchronizeTest, UnreachableMasterIsAnErrorNamingIt) {
  SlaveSynchronize sync(&harness_.context, harness_.env.get(), &client_);
  sync.SetMasterAddr("127.0.0.1:1");
  Status s = sync.SyncAll();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("127.0.0.1:1"), std::string::npos) << s.ToString();
}

TEST(SlaveSynchronizeAddrTest, RemotingAddressIsTheHaPortMinusOne) {
  auto a = SlaveSynchronize::RemotingAddrFromHaAddr("10.0.0.1:10912");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, "10.0.0.1:10911");
  EXPECT_FALSE(SlaveSynchronize::RemotingAddrFromHaAddr("10.0.0.1").ok());
  EXPECT_FALSE(SlaveSynchronize::RemotingAddrFromHaAddr("10.0.0.1:x").ok());
}

}  // namespace
}  // namespace apogee::broker
