#include "broker/client/producer_manager.h"

#include <gtest/gtest.h>

#include "unit/broker/fake_client_channel.h"

namespace apogee::broker {
namespace {

ClientChannelInfo Member(const remoting::ChannelPtr& channel, const std::string& client_id) {
  ClientChannelInfo info;
  info.channel = channel;
  info.client_id = client_id;
  info.language = protocol::LanguageCode::kCpp;
  info.version = 63;
  return info;
}

class ProducerManagerTest : public ::testing::Test {
 protected:
  ManualClock clock_;
  ProducerManager producers_{&clock_};
};

TEST_F(ProducerManagerTest, RegisterListsConnections) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  producers_.RegisterProducer("PG", Member(b, "b@1"));
  producers_.RegisterProducer("PG", Member(a, "a@1"));
  producers_.RegisterProducer("PG", Member(a, "a@1"));  // refresh only
  std::optional<std::vector<ClientChannelInfo>> members = producers_.GetConnections("PG");
  ASSERT_TRUE(members);
  ASSERT_EQ(members->size(), 2u);
  EXPECT_EQ((*members)[0].client_id, "a@1");
  EXPECT_EQ((*members)[0].ClientAddress(), "10.0.0.1:1");
  EXPECT_EQ((*members)[0].language, protocol::LanguageCode::kCpp);
  EXPECT_EQ((*members)[0].version, 63);
  EXPECT_EQ((*members)[0].last_update_timestamp, clock_.NowMillis());
  EXPECT_FALSE(producers_.GetConnections("other"));
  EXPECT_EQ(producers_.AllGroups(), (std::vector<std::string>{"PG"}));
  EXPECT_EQ(producers_.FindChannel("b@1"), b);
  EXPECT_EQ(producers_.FindChannel("nobody"), nullptr);
}

TEST_F(ProducerManagerTest, UnregisterAndCloseRemoveTheGroupWithItsLastMember) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  producers_.RegisterProducer("PG", Member(a, "a"));
  producers_.RegisterProducer("PG", Member(b, "b"));
  producers_.RegisterProducer("OTHER", Member(b, "b"));
  EXPECT_TRUE(producers_.UnregisterProducer("PG", a->id()));
  EXPECT_FALSE(producers_.UnregisterProducer("PG", a->id()));
  producers_.DoChannelCloseEvent(b->id());
  EXPECT_FALSE(producers_.GetConnections("PG"));
  EXPECT_FALSE(producers_.GetConnections("OTHER"));
}

TEST_F(ProducerManagerTest, SilentProducersExpireAfter120Seconds) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  producers_.RegisterProducer("PG", Member(a, "a"));
  clock_.Advance(60'000);
  producers_.RegisterProducer("PG", Member(b, "b"));
  clock_.Advance(60'000);
  EXPECT_EQ(producers_.ScanNotActiveChannel(), 0u);  // exactly 120 s: still alive
  clock_.Advance(1);
  EXPECT_EQ(producers_.ScanNotActiveChannel(), 1u);
  EXPECT_EQ(a->closes(), 1);
  EXPECT_EQ(b->closes(), 0);
  ASSERT_TRUE(producers_.GetConnections("PG"));
  EXPECT_EQ(producers_.GetConnections("PG")->size(), 1u);
}

TEST_F(ProducerManagerTest, AvailableChannelSkipsClosedOnesAndRotates) {
  EXPECT_EQ(producers_.GetAvailableChannel("PG"), nullptr);
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  producers_.RegisterProducer("PG", Member(a, "a"));
  producers_.RegisterProducer("PG", Member(b, "b"));
  std::set<remoting::ChannelPtr> seen;
  for (int i = 0; i < 4; ++i) seen.insert(producers_.GetAvailableChannel("PG"));
  EXPECT_EQ(seen.size(), 2u);
  a->Close();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(producers_.GetAvailableChannel("PG"), b);
  b->Close();
  EXPECT_EQ(producers_.GetAvailableChannel("PG"), nullptr);
}

}  // namespace
}  // namespace apogee::broker
