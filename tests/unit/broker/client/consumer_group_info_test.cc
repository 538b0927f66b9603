#include "broker/client/consumer_group_info.h"

#include <gtest/gtest.h>

#include "unit/broker/fake_client_channel.h"

namespace apogee::broker {
namespace {

using protocol::ConsumeFromWhere;
using protocol::ConsumeType;
using protocol::MessageModel;
using protocol::SubscriptionData;

ClientChannelInfo Member(const remoting::ChannelPtr& channel, const std::string& client_id) {
  ClientChannelInfo info;
  info.channel = channel;
  info.client_id = client_id;
  return info;
}

SubscriptionData Sub(const std::string& topic, int64_t version, const std::string& expr = "*") {
  SubscriptionData sub;
  sub.topic = topic;
  sub.sub_string = expr;
  sub.sub_version = version;
  return sub;
}

class ConsumerGroupInfoTest : public ::testing::Test {
 protected:
  ConsumerGroupInfo group_{"G", ConsumeType::kConsumePassively, MessageModel::kClustering,
                           ConsumeFromWhere::kConsumeFromLastOffset};
};

TEST_F(ConsumerGroupInfoTest, NewChannelIsAChangeAndRepeatIsNot) {
  auto channel = test::MakeFakeChannel("10.0.0.1:1");
  EXPECT_TRUE(group_.UpdateChannel(Member(channel, "c1"), ConsumeType::kConsumeActively,
                                   MessageModel::kBroadcasting,
                                   ConsumeFromWhere::kConsumeFromFirstOffset, 100));
  EXPECT_FALSE(group_.UpdateChannel(Member(channel, "c1"), ConsumeType::kConsumeActively,
                                    MessageModel::kBroadcasting,
                                    ConsumeFromWhere::kConsumeFromFirstOffset, 200));
  EXPECT_EQ(group_.consume_type(), ConsumeType::kConsumeActively);
  EXPECT_EQ(group_.message_model(), MessageModel::kBroadcasting);
  EXPECT_EQ(group_.consume_from_where(), ConsumeFromWhere::kConsumeFromFirstOffset);
  ASSERT_EQ(group_.Channels().size(), 1u);
  EXPECT_EQ(group_.Channels()[0].last_update_timestamp, 200);
}

TEST_F(ConsumerGroupInfoTest, ClientIdChangeOnSameChannelIsAChange) {
  auto channel = test::MakeFakeChannel("10.0.0.1:1");
  group_.UpdateChannel(Member(channel, "c1"), ConsumeType::kConsumePassively,
                       MessageModel::kClustering, ConsumeFromWhere::kConsumeFromLastOffset, 1);
  EXPECT_TRUE(group_.UpdateChannel(Member(channel, "c2"), ConsumeType::kConsumePassively,
                                   MessageModel::kClustering,
                                   ConsumeFromWhere::kConsumeFromLastOffset, 2));
  EXPECT_EQ(group_.AllClientIds(), (std::vector<std::string>{"c2"}));
}

TEST_F(ConsumerGroupInfoTest, SubscriptionAddRemoveAndNewerVersion) {
  EXPECT_TRUE(group_.UpdateSubscription({Sub("A", 1), Sub("B", 1)}));
  EXPECT_FALSE(group_.UpdateSubscription({Sub("A", 1), Sub("B", 1)}));
  // A newer version replaces without being a membership change.
  EXPECT_FALSE(group_.UpdateSubscription({Sub("A", 5, "x"), Sub("B", 1)}));
  EXPECT_EQ(group_.FindSubscriptionData("A")->sub_string, "x");
  // An older version does not replace.
  EXPECT_FALSE(group_.UpdateSubscription({Sub("A", 3, "old"), Sub("B", 1)}));
  EXPECT_EQ(group_.FindSubscriptionData("A")->sub_string, "x");
  // Dropping a topic is a change.
  EXPECT_TRUE(group_.UpdateSubscription({Sub("A", 5, "x")}));
  EXPECT_EQ(group_.FindSubscriptionData("B"), nullptr);
  EXPECT_TRUE(group_.HasTopic("A"));
}

TEST_F(ConsumerGroupInfoTest, ClientIdsSortedAndUnique) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  auto c = test::MakeFakeChannel("10.0.0.3:1");
  for (auto [channel, id] : {std::pair{b, "z@1"}, {a, "a@1"}, {c, "z@1"}}) {
    group_.UpdateChannel(Member(channel, id), ConsumeType::kConsumePassively,
                         MessageModel::kClustering, ConsumeFromWhere::kConsumeFromLastOffset, 1);
  }
  EXPECT_EQ(group_.AllClientIds(), (std::vector<std::string>{"a@1", "z@1"}));
  EXPECT_EQ(group_.AllChannels().size(), 3u);
  ASSERT_TRUE(group_.FindChannel("a@1"));
  EXPECT_EQ(group_.FindChannel("a@1")->channel, a);
  EXPECT_FALSE(group_.FindChannel("nobody"));
}

TEST_F(ConsumerGroupInfoTest, RemoveAndExpire) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  group_.UpdateChannel(Member(a, "a"), ConsumeType::kConsumePassively, MessageModel::kClustering,
                       ConsumeFromWhere::kConsumeFromLastOffset, 1000);
  group_.UpdateChannel(Member(b, "b"), ConsumeType::kConsumePassively, MessageModel::kClustering,
                       ConsumeFromWhere::kConsumeFromLastOffset, 5000);
  // Exactly at the timeout is still alive (Java: now - last > timeout).
  EXPECT_TRUE(group_.RemoveExpiredChannels(1000 + 120'000, 120'000).empty());
  std::vector<ClientChannelInfo> expired = group_.RemoveExpiredChannels(1001 + 120'000, 120'000);
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(expired[0].client_id, "a");
  EXPECT_FALSE(group_.RemoveChannel(a->id()));
  EXPECT_TRUE(group_.RemoveChannel(b->id()));
  EXPECT_TRUE(group_.empty());
}

}  // namespace
}  // namespace apogee::broker
