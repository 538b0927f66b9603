#include "broker/client/broker_to_client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>

#include "protocol/custom_header.h"
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

constexpr int32_t kHello = 34;

// A server whose processor remembers the channel of the last client that said hello, and
// a client that records every request the server sends it.
class BrokerToClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    server_ = std::make_unique<remoting::RemotingServer>(options);
    server_->RegisterProcessor(
        kHello,
        remoting::MakeProcessor([this](RemotingCommand request, remoting::Responder responder) {
          {
            std::lock_guard<std::mutex> lock(mu_);
            client_channel_ = responder.channel();
          }
          responder.SendCode(protocol::response_code::kSuccess);
        }));
    ASSERT_TRUE(server_->Start().ok());
    address_ = "127.0.0.1:" + std::to_string(server_->port());

    for (int32_t c : {code::kNotifyConsumerIdsChanged, code::kCheckTransactionState,
                      code::kResetConsumerClientOffset}) {
      client_.RegisterProcessor(
          c, remoting::MakeProcessor([this](RemotingCommand request, remoting::Responder) {
            std::lock_guard<std::mutex> lock(mu_);
            received_.push_back(std::move(request));
          }));
    }
    client_.Start();
    Result<RemotingCommand> hello =
        client_.InvokeSync(address_, RemotingCommand::MakeRequest(kHello), milliseconds(3000));
    ASSERT_TRUE(hello.ok()) << hello.status().ToString();
  }

  void TearDown() override {
    client_.Shutdown();
    server_->Shutdown();
  }

  remoting::ChannelPtr ClientChannel() {
    std::lock_guard<std::mutex> lock(mu_);
    return client_channel_;
  }
  std::vector<RemotingCommand> Received() {
    std::lock_guard<std::mutex> lock(mu_);
    return received_;
  }
  bool WaitReceived(size_t n) {
    return apogee::testing::WaitUntil([&] { return Received().size() >= n; }, milliseconds(5000));
  }

  std::unique_ptr<remoting::RemotingServer> server_;
  remoting::RemotingClient client_;
  std::string address_;
  std::mutex mu_;
  remoting::ChannelPtr client_channel_;
  std::vector<RemotingCommand> received_;
};

TEST_F(BrokerToClientTest, NotifyConsumerIdsChangedIsOnewayWithGroupHeader) {
  NotifyConsumerIdsChanged(ClientChannel(), "G1");
  ASSERT_TRUE(WaitReceived(1));
  const RemotingCommand notify = Received()[0];
  EXPECT_EQ(notify.code, code::kNotifyConsumerIdsChanged);
  EXPECT_TRUE(notify.IsOneway());
  EXPECT_EQ(notify.serialize_type, protocol::SerializeType::kJson);  // pitfall 2
  EXPECT_EQ(notify.ext_fields.Get("consumerGroup"), "G1");
}

TEST_F(BrokerToClientTest, CheckTransactionStateCarriesHeaderAndRecord) {
  protocol::CheckTransactionStateRequestHeader header;
  header.tran_state_table_offset = 12;
  header.commit_log_offset = 3456;
  header.msg_id = "UNIQ";
  header.transaction_id = "UNIQ";
  CheckProducerTransactionState(ClientChannel(), header, std::string("\x01\x02record", 8));
  ASSERT_TRUE(WaitReceived(1));
  const RemotingCommand check = Received()[0];
  EXPECT_EQ(check.code, code::kCheckTransactionState);
  EXPECT_TRUE(check.IsOneway());
  EXPECT_EQ(check.ext_fields.Get("commitLogOffset"), "3456");
  EXPECT_EQ(check.ext_fields.Get("tranStateTableOffset"), "12");
  EXPECT_EQ(check.body, std::string("\x01\x02record", 8));
}

TEST_F(BrokerToClientTest, ResetOffsetCarriesBody) {
  protocol::ResetOffsetRequestHeader header;
  header.group = "G";
  header.topic = "T";
  header.timestamp = 99;
  ResetConsumerClientOffset(ClientChannel(), header, R"({"offsetTable":[]})");
  ASSERT_TRUE(WaitReceived(1));
  EXPECT_EQ(Received()[0].code, code::kResetConsumerClientOffset);
  EXPECT_EQ(Received()[0].ext_fields.Get("timestamp"), "99");
  EXPECT_EQ(Received()[0].body, R"({"offsetTable":[]})");
}

TEST_F(BrokerToClientTest, ClosedOrMissingChannelIsHarmless) {
  remoting::ChannelPtr channel = ClientChannel();
  NotifyConsumerIdsChanged(nullptr, "G");
  client_.Shutdown();
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return !channel->IsActive(); }, milliseconds(5000)));
  NotifyConsumerIdsChanged(channel, "G");  // logged, never blocks or throws
  SUCCEED();
}

}  // namespace
}  // namespace apogee::broker
