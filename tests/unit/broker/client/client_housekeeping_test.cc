#include "broker/client/client_housekeeping.h"

#include <gtest/gtest.h>

#include <chrono>

#include "broker/client/consumer_manager.h"
#include "broker/client/producer_manager.h"
#include "unit/broker/fake_client_channel.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "testutil/test_util.h"

namespace apogee::broker {
namespace {

using protocol::RemotingCommand;
using std::chrono::milliseconds;

ClientChannelInfo Member(const remoting::ChannelPtr& channel, const std::string& client_id) {
  ClientChannelInfo info;
  info.channel = channel;
  info.client_id = client_id;
  return info;
}

class ClientHousekeepingTest : public ::testing::Test {
 protected:
  void RegisterBoth(const remoting::ChannelPtr& channel, const std::string& id) {
    consumers_.RegisterConsumer("G", Member(channel, id), protocol::ConsumeType::kConsumePassively,
                                protocol::MessageModel::kClustering,
                                protocol::ConsumeFromWhere::kConsumeFromLastOffset, {});
    producers_.RegisterProducer("PG", Member(channel, id));
  }

  ManualClock clock_;
  ConsumerManager consumers_{&clock_, nullptr};
  ProducerManager producers_{&clock_};
};

TEST_F(ClientHousekeepingTest, ScanDropsSilentClientsOfBothKinds) {
  ClientHousekeeping housekeeping(&consumers_, &producers_);
  auto silent = test::MakeFakeChannel("10.0.0.1:1");
  auto chatty = test::MakeFakeChannel("10.0.0.2:1");
  RegisterBoth(silent, "silent");
  RegisterBoth(chatty, "chatty");
  clock_.Advance(100'000);
  RegisterBoth(chatty, "chatty");
  clock_.Advance(20'001);
  EXPECT_EQ(housekeeping.ScanOnce(), 2u);  // one producer + one consumer entry
  EXPECT_EQ(consumers_.GetAllClientIds("G"), (std::vector<std::string>{"chatty"}));
  ASSERT_TRUE(producers_.GetConnections("PG"));
  EXPECT_EQ(producers_.GetConnections("PG")->size(), 1u);
  EXPECT_GE(silent->closes(), 1);
  EXPECT_EQ(chatty->closes(), 0);
}

TEST_F(ClientHousekeepingTest, CloseAndIdleEventsRemoveTheChannel) {
  ClientHousekeeping housekeeping(&consumers_, &producers_);
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  RegisterBoth(a, "a");
  RegisterBoth(b, "b");
  housekeeping.OnChannelClosed(a);
  EXPECT_EQ(consumers_.GetAllClientIds("G"), (std::vector<std::string>{"b"}));
  housekeeping.OnChannelIdle(b);
  EXPECT_TRUE(consumers_.AllGroups().empty());
  EXPECT_FALSE(producers_.GetConnections("PG"));
}

TEST_F(ClientHousekeepingTest, ScanThreadRunsOnItsInterval) {
  ClientHousekeeping housekeeping(&consumers_, &producers_, /*scan_interval_millis=*/20);
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  RegisterBoth(a, "a");
  clock_.Advance(120'001);
  Scheduler scheduler;
  housekeeping.Start(&scheduler);
  EXPECT_TRUE(apogee::testing::WaitUntil([&] { return consumers_.AllGroups().empty(); },
                                         milliseconds(5000)));
  housekeeping.Shutdown();
  housekeeping.Shutdown();  // idempotent
}

TEST_F(ClientHousekeepingTest, RealDisconnectRemovesTheClient) {
  remoting::RemotingServerOptions options;
  options.listen_host = "127.0.0.1";
  options.io_threads = 1;
  remoting::RemotingServer server(options);
  server.AddChannelEventListener(std::make_shared<ClientHousekeeping>(&consumers_, &producers_));
  server.RegisterProcessor(
      34, remoting::MakeProcessor([this](RemotingCommand request, remoting::Responder responder) {
        RegisterBoth(responder.channel(), "client@1");
        responder.SendCode(protocol::response_code::kSuccess);
      }));
  ASSERT_TRUE(server.Start().ok());
  remoting::RemotingClient client;
  client.Start();
  const std::string address = "127.0.0.1:" + std::to_string(server.port());
  ASSERT_TRUE(
      client.InvokeSync(address, RemotingCommand::MakeRequest(34), milliseconds(3000)).ok());
  EXPECT_EQ(consumers_.GetAllClientIds("G"), (std::vector<std::string>{"client@1"}));
  client.CloseChannel(address);
  EXPECT_TRUE(apogee::testing::WaitUntil(
      [&] { return consumers_.AllGroups().empty() && !producers_.GetConnections("PG"); },
      milliseconds(5000)));
  client.Shutdown();
  server.Shutdown();
}

}  // namespace
}  // namespace apogee::broker
