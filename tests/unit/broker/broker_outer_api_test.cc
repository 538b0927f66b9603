#include "broker/broker_outer_api.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/crc32.h"
#include "protocol/custom_header.h"
#include "protocol/namesrv_headers.h"
#include "protocol/register_broker_body.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_server.h"

namespace apogee::broker {
namespace {

using protocol::RemotingCommand;
namespace resp = protocol::response_code;
namespace req = protocol::request_code;
using namespace std::chrono_literals;

// A fake NameServer: records what it receives and answers as configured.
class FakeNamesrv {
 public:
  explicit FakeNamesrv(int32_t code = resp::kSuccess, std::chrono::milliseconds delay = 0ms)
      : code_(code), delay_(delay) {
    remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    server_ = std::make_unique<remoting::RemotingServer>(options);
    executor_ = std::make_shared<remoting::ThreadPoolExecutor>("fake-ns", 2, 100);
    auto handler = remoting::MakeProcessor([this](RemotingCommand request, remoting::Responder r) {
      if (delay_ > 0ms) std::this_thread::sleep_for(delay_);
      {
        std::lock_guard<std::mutex> lock(mu_);
        received_.push_back(request);
      }
      RemotingCommand response = RemotingCommand::MakeResponse(request, code_, "fake answer");
      if (code_ == resp::kSuccess && request.code == req::kRegisterBroker) {
        protocol::RegisterBrokerResult result;
        result.master_addr = "10.0.0.9:10911";
        result.ha_server_addr = "10.0.0.9:10912";
        result.kv_table.table["OrderTopic"] = "broker-a:4";
        protocol::EncodeRegisterBrokerResult(result, &response);
      }
      r.Send(std::move(response));
    });
    server_->RegisterProcessor(req::kRegisterBroker, handler, executor_);
    server_->RegisterProcessor(req::kUnregisterBroker, handler, executor_);
    EXPECT_TRUE(server_->Start().ok());
  }
  ~FakeNamesrv() {
    server_->Shutdown();
    executor_->Shutdown();
  }

  std::string addr() const { return "127.0.0.1:" + std::to_string(server_->port()); }
  std::vector<RemotingCommand> received() {
    std::lock_guard<std::mutex> lock(mu_);
    return received_;
  }

 private:
  int32_t code_;
  std::chrono::milliseconds delay_;
  std::unique_ptr<remoting::RemotingServer> server_;
  std::shared_ptr<remoting::ThreadPoolExecutor> executor_;
  std::mutex mu_;
  std::vector<RemotingCommand> received_;
};

RegisterBrokerRequest Request(bool compressed = false) {
  RegisterBrokerRequest r;
  r.cluster_name = "DefaultCluster";
  r.broker_addr = "127.0.0.1:10911";
  r.broker_name = "broker-a";
  r.broker_id = 0;
  r.ha_server_addr = "127.0.0.1:10912";
  r.compressed = compressed;
  r.timeout = 3000ms;
  protocol::TopicConfig t;
  t.topic_name = "TopicTest";
  t.read_queue_nums = 4;
  t.write_queue_nums = 4;
  r.topic_config_wrapper.topic_config_table["TopicTest"] = t;
  r.topic_config_wrapper.data_version = protocol::DataVersion{0, 1700000000000, 3};
  return r;
}

TEST(BrokerOuterApiTest, RegisterRequestCarriesHeaderCrcAndBody) {
  for (bool compressed : {false, true}) {
    RemotingCommand command = BrokerOuterAPI::BuildRegisterRequest(Request(compressed));
    EXPECT_EQ(command.code, req::kRegisterBroker);
    auto header = protocol::DecodeCustomHeader<protocol::RegisterBrokerRequestHeader>(command);
    ASSERT_TRUE(header.ok());
    EXPECT_EQ(header->broker_name, "broker-a");
    EXPECT_EQ(header->broker_addr, "127.0.0.1:10911");
    EXPECT_EQ(header->cluster_name, "DefaultCluster");
    EXPECT_EQ(header->ha_server_addr, "127.0.0.1:10912");
    EXPECT_EQ(header->broker_id, 0);
    EXPECT_EQ(header->compressed, compressed);
    EXPECT_EQ(static_cast<uint32_t>(header->body_crc32), Crc32Masked(command.body));
    auto body =
        protocol::DecodeRegisterBrokerRequestBody(command.body, compressed, command.version);
    ASSERT_TRUE(body.ok()) << body.status().ToString();
    EXPECT_EQ(body->topic_config_serialize_wrapper.data_version.counter, 3);
    EXPECT_EQ(
        body->topic_config_serialize_wrapper.topic_config_table.at("TopicTest").write_queue_nums,
        4);
  }
}

TEST(BrokerOuterApiTest, RegistersWithEveryNameServerInParallel) {
  // Each fake NameServer takes 400 ms; in parallel the round takes well under 3 x 400 ms.
  FakeNamesrv a(resp::kSuccess, 400ms), b(resp::kSuccess, 400ms), c(resp::kSuccess, 400ms);
  BrokerOuterAPI api;
  api.Start();
  api.UpdateNameServerAddressList({a.addr(), b.addr(), c.addr()});
  auto start = std::chrono::steady_clock::now();
  std::vector<RegisterOutcome> outcomes = api.RegisterBrokerAll(Request());
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, 1100ms);
  ASSERT_EQ(outcomes.size(), 3u);
  for (const RegisterOutcome& o : outcomes) {
    EXPECT_TRUE(o.status.ok()) << o.status.ToString();
    EXPECT_EQ(o.result.master_addr, "10.0.0.9:10911");
    EXPECT_EQ(o.result.ha_server_addr, "10.0.0.9:10912");
    EXPECT_EQ(o.result.kv_table.table.at("OrderTopic"), "broker-a:4");
  }
  EXPECT_EQ(outcomes[1].namesrv_addr, b.addr());
  EXPECT_EQ(a.received().size(), 1u);
  EXPECT_EQ(c.received().size(), 1u);
}

TEST(BrokerOuterApiTest, OneFailingNameServerDoesNotHideTheOthers) {
  FakeNamesrv good, refusing(resp::kSystemError);
  BrokerOuterAPI api;
  api.Start();
  // The last address has nothing listening.
  api.UpdateNameServerAddressList({good.addr(), refusing.addr(), "127.0.0.1:1"});
  std::vector<RegisterOutcome> outcomes = api.RegisterBrokerAll(Request());
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_TRUE(outcomes[0].status.ok());
  EXPECT_FALSE(outcomes[1].status.ok());
  EXPECT_NE(outcomes[1].status.message().find("code 1"), std::string::npos)
      << outcomes[1].status.ToString();
  EXPECT_NE(outcomes[1].status.message().find(refusing.addr()), std::string::npos);
  EXPECT_FALSE(outcomes[2].status.ok());
  EXPECT_NE(outcomes[2].status.message().find("127.0.0.1:1"), std::string::npos)
      << outcomes[2].status.ToString();
}

TEST(BrokerOuterApiTest, NoNameServersIsNoWork) {
  BrokerOuterAPI api;
  api.Start();
  EXPECT_TRUE(api.RegisterBrokerAll(Request()).empty());
  EXPECT_TRUE(api.UnregisterBrokerAll("c", "a", "b", 0, 1000ms).empty());
}

TEST(BrokerOuterApiTest, UnregisterFromEveryNameServer) {
  FakeNamesrv a, b;
  BrokerOuterAPI api;
  api.Start();
  api.UpdateNameServerAddressList({a.addr(), b.addr()});
  std::vector<Status> results =
      api.UnregisterBrokerAll("DefaultCluster", "127.0.0.1:10911", "broker-a", 0, 3000ms);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].ok());
  EXPECT_TRUE(results[1].ok());
  for (FakeNamesrv* ns : {&a, &b}) {
    auto received = ns->received();
    ASSERT_EQ(received.size(), 1u);
    EXPECT_EQ(received[0].code, req::kUnregisterBroker);
    auto h = protocol::DecodeCustomHeader<protocol::UnRegisterBrokerRequestHeader>(received[0]);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->broker_name, "broker-a");
    EXPECT_EQ(h->broker_addr, "127.0.0.1:10911");
    EXPECT_EQ(h->cluster_name, "DefaultCluster");
  }
}

}  // namespace
}  // namespace apogee::broker
