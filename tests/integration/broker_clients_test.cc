// Client management against a real mqbroker (with a real mqnamesrv): heartbeats as
// ali-ons and the C++ client send them (from the recorded fixtures), the retry topic they
// create reaching the NameServer, NOTIFY_CONSUMER_IDS_CHANGED on join and leave, the
// consumer list on both ports, queue locks contested by two clients, unregister.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "broker_process.h"
#include "protocol/consumer_list_body.h"
#include "protocol/heartbeat_data.h"
#include "protocol/lock_batch_body.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "testutil/test_util.h"
#include "testutil/test_paths.h"

namespace apogee::testing {
namespace {

using protocol::RemotingCommand;
using std::chrono::milliseconds;
namespace code = protocol::request_code;
namespace rc = protocol::response_code;

// The first consumer HEART_BEAT of a fixture file, as the client sent it.
RemotingCommand FixtureHeartbeat(const std::string& file) {
  std::ifstream in(FixturesDir() + "/client-requests/" + file);
  EXPECT_TRUE(in) << file;
  std::string line;
  while (std::getline(in, line)) {
    rapidjson::Document record;
    record.Parse(line.data(), line.size());
    if (record.HasParseError() || record["code"].GetInt() != code::kHeartBeat) continue;
    if (!record["bodyJson"].HasMember("consumerDataSet")) continue;
    RemotingCommand request = RemotingCommand::MakeRequest(code::kHeartBeat);
    request.language = protocol::LanguageFromName(record["language"].GetString());
    request.version = record["version"].GetInt();
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    record["bodyJson"].Accept(writer);
    request.body.assign(buffer.GetString(), buffer.GetSize());
    return request;
  }
  ADD_FAILURE() << "no consumer HEART_BEAT in " << file;
  return RemotingCommand::MakeRequest(code::kHeartBeat);
}

// One client process: its own connections, counting NOTIFY_CONSUMER_IDS_CHANGED per group.
class Client {
 public:
  Client() {
    client_.RegisterProcessor(
        code::kNotifyConsumerIdsChanged,
        remoting::MakeProcessor([this](RemotingCommand request, remoting::Responder) {
          std::lock_guard<std::mutex> lock(mu_);
          ++notified_[std::string(request.ext_fields.Get("consumerGroup").value_or(""))];
        }));
    client_.Start();
  }
  ~Client() { client_.Shutdown(); }

  RemotingCommand Invoke(const std::string& address, RemotingCommand request) {
    Result<RemotingCommand> response =
        client_.InvokeSync(address, std::move(request), milliseconds(5000));
    EXPECT_TRUE(response.ok()) << response.status().ToString();
    return response.ok() ? *response : RemotingCommand{};
  }
  int Notified(const std::string& group) {
    std::lock_guard<std::mutex> lock(mu_);
    return notified_[group];
  }
  void Disconnect(const std::string& address) { client_.CloseChannel(address); }
  remoting::RemotingClient& raw() { return client_; }

 private:
  remoting::RemotingClient client_;
  std::mutex mu_;
  std::map<std::string, int> notified_;
};

RemotingCommand ConsumerListRequest(const std::string& group) {
  RemotingCommand request = RemotingCommand::MakeRequest(code::kGetConsumerListByGroup);
  request.has_ext_fields = true;
  request.ext_fields.Set("consumerGroup", group);
  return request;
}

std::vector<std::string> ConsumerList(Client& client, const std::string& address,
                                      const std::string& group) {
  RemotingCommand response = client.Invoke(address, ConsumerListRequest(group));
  if (response.code != rc::kSuccess) return {};
  Result<protocol::GetConsumerListByGroupResponseBody> body =
      protocol::DecodeConsumerListBody(response.body);
  EXPECT_TRUE(body.ok());
  return body.ok() ? body->consumer_id_list : std::vector<std::string>{};
}

RemotingCommand LockRequest(int32_t request_code, const std::string& client_id,
                            std::set<protocol::MessageQueue> queues) {
  protocol::LockBatchRequestBody body;
  body.consumer_group = "G1";
  body.client_id = client_id;
  body.mq_set = std::move(queues);
  RemotingCommand request = RemotingCommand::MakeRequest(request_code);
  request.body = protocol::EncodeLockBatchRequestBody(body);
  return request;
}

class BrokerClientsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cluster_.Start());
    broker_ = cluster_.broker().addr();
    fast_ = "127.0.0.1:" + std::to_string(cluster_.broker().fast_port());
  }

  // The registration period is the shortest allowed so the retry topic's route shows up
  // within a test's patience even without an immediate re-registration.
  SingleBrokerCluster cluster_{Props{{"registerNameServerPeriod", "10000"}}};
  std::string broker_;
  std::string fast_;
};

TEST_F(BrokerClientsTest, AliOnsAndCppConsumersShareAGroup) {
  Client ons;
  Client cpp;
  RemotingCommand ons_heartbeat = FixtureHeartbeat("ali-ons-3.12.0.jsonl");
  RemotingCommand response = ons.Invoke(broker_, ons_heartbeat);
  ASSERT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
  EXPECT_GE(response.version, 401);
  EXPECT_TRUE(WaitUntil([&] { return ons.Notified("G1") >= 1; }, milliseconds(5000)));

  // The retry topic was created at heartbeat time and reaches the NameServer (pitfall 15).
  remoting::RemotingClient ns_client;
  ns_client.Start();
  EXPECT_TRUE(
      WaitUntil([&] { return QueryRoute(ns_client, cluster_.namesrv().addr(), "%RETRY%G1").ok(); },
                milliseconds(25000)))
      << cluster_.broker().ReadLog();

  // The C++ client joins (enum ordinals, string subVersion): both members are told.
  const int ons_before = ons.Notified("G1");
  response = cpp.Invoke(broker_, FixtureHeartbeat("rocketmq-client-cpp-1.2.jsonl"));
  ASSERT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
  EXPECT_TRUE(WaitUntil([&] { return ons.Notified("G1") > ons_before && cpp.Notified("G1") >= 1; },
                        milliseconds(5000)));
  // Sorted as strings: "127." < "131".
  const std::vector<std::string> both = {"127.0.0.1@24594", "1314-127.0.0.1@smoke-c-1314"};
  EXPECT_EQ(ConsumerList(ons, broker_, "G1"), both);
  EXPECT_EQ(ConsumerList(cpp, fast_, "G1"), both);  // the fast port sees the same table

  // The C++ consumer's connection drops: the other member is told and the list shrinks.
  const int ons_after_join = ons.Notified("G1");
  cpp.Disconnect(broker_);
  EXPECT_TRUE(WaitUntil([&] { return ons.Notified("G1") > ons_after_join; }, milliseconds(5000)));
  EXPECT_EQ(ConsumerList(ons, broker_, "G1"), (std::vector<std::string>{"127.0.0.1@24594"}));

  // ali-ons leaves with UNREGISTER_CLIENT: no consumer remains.
  RemotingCommand unregister = RemotingCommand::MakeRequest(code::kUnregisterClient);
  unregister.has_ext_fields = true;
  unregister.ext_fields.Set("clientID", "127.0.0.1@24594");
  unregister.ext_fields.Set("consumerGroup", "G1");
  EXPECT_EQ(ons.Invoke(broker_, unregister).code, rc::kSuccess);
  response = ons.Invoke(broker_, ConsumerListRequest("G1"));
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_EQ(response.remark, "no consumer for this group, G1");
}

TEST_F(BrokerClientsTest, QueueLocksAreExclusiveAcrossClients) {
  Client a;
  Client b;
  const std::string broker_name = cluster_.broker().broker_name();
  const protocol::MessageQueue q0{"TopicTest", broker_name, 0};
  const protocol::MessageQueue q1{"TopicTest", broker_name, 1};
  auto locked = [](const RemotingCommand& response) {
    EXPECT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
    Result<protocol::LockBatchResponseBody> body =
        protocol::DecodeLockBatchResponseBody(response.body);
    EXPECT_TRUE(body.ok()) << response.body;
    return body.ok() ? body->lock_ok_mq_set : std::set<protocol::MessageQueue>{};
  };
  EXPECT_EQ(locked(a.Invoke(broker_, LockRequest(code::kLockBatchMq, "a", {q0}))),
            (std::set<protocol::MessageQueue>{q0}));
  EXPECT_EQ(locked(b.Invoke(broker_, LockRequest(code::kLockBatchMq, "b", {q0, q1}))),
            (std::set<protocol::MessageQueue>{q1}));
  // A disconnect does not release a lock (Java's behaviour); UNLOCK_BATCH_MQ does.
  a.Disconnect(broker_);
  EXPECT_TRUE(locked(b.Invoke(broker_, LockRequest(code::kLockBatchMq, "b", {q0}))).empty());
  EXPECT_EQ(a.Invoke(broker_, LockRequest(code::kUnlockBatchMq, "a", {q0})).code, rc::kSuccess);
  EXPECT_EQ(locked(b.Invoke(fast_, LockRequest(code::kLockBatchMq, "b", {q0}))),
            (std::set<protocol::MessageQueue>{q0}));
}

TEST_F(BrokerClientsTest, HeartbeatCreatesAPersistedSubscriptionGroup) {
  Client a;
  ASSERT_EQ(a.Invoke(broker_, FixtureHeartbeat("ali-ons-3.12.0.jsonl")).code, rc::kSuccess);
  EXPECT_EQ(cluster_.broker().Stop(), 0);
  const std::string groups =
      ReadFileOrEmpty(cluster_.broker().config_dir() + "/subscriptionGroup.json");
  EXPECT_NE(groups.find("\"G1\""), std::string::npos) << groups;
  const std::string topics = ReadFileOrEmpty(cluster_.broker().config_dir() + "/topics.json");
  EXPECT_NE(topics.find("%RETRY%G1"), std::string::npos) << topics;
}

}  // namespace
}  // namespace apogee::testing
