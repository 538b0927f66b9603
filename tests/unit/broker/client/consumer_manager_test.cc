#include "broker/client/consumer_manager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <utility>

#include "unit/broker/fake_client_channel.h"

namespace apogee::broker {
namespace {

using protocol::ConsumeFromWhere;
using protocol::ConsumeType;
using protocol::MessageModel;
using protocol::SubscriptionData;

class RecordingListener : public ConsumerIdsChangeListener {
 public:
  struct Event {
    std::string group;
    size_t channels = 0;
    bool unregistered = false;
  };
  void OnConsumerIdsChanged(const std::string& group,
                            const std::vector<remoting::ChannelPtr>& channels) override {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back({group, channels.size(), false});
  }
  void OnGroupUnregistered(const std::string& group) override {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back({group, 0, true});
  }
  std::vector<Event> Take() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(events_, {});
  }

 private:
  std::mutex mu_;
  std::vector<Event> events_;
};

ClientChannelInfo Member(const remoting::ChannelPtr& channel, const std::string& client_id) {
  ClientChannelInfo info;
  info.channel = channel;
  info.client_id = client_id;
  info.language = protocol::LanguageCode::kJava;
  info.version = 401;
  return info;
}

SubscriptionData Sub(const std::string& topic, int64_t version = 1) {
  SubscriptionData sub;
  sub.topic = topic;
  sub.sub_string = "TagA";
  sub.tags_set = {"TagA"};
  sub.code_set = {2598919};
  sub.sub_version = version;
  return sub;
}

class ConsumerManagerTest : public ::testing::Test {
 protected:
  bool Register(const remoting::ChannelPtr& channel, const std::string& id,
                const std::string& group = "G", std::vector<SubscriptionData> subs = {Sub("T")}) {
    return consumers_.RegisterConsumer(group, Member(channel, id), ConsumeType::kConsumePassively,
                                       MessageModel::kClustering,
                                       ConsumeFromWhere::kConsumeFromLastOffset, subs);
  }

  ManualClock clock_;
  std::shared_ptr<RecordingListener> listener_ = std::make_shared<RecordingListener>();
  ConsumerManager consumers_{&clock_, listener_};
};

TEST_F(ConsumerManagerTest, JoinNotifiesWithAllMembers) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  EXPECT_TRUE(Register(a, "a@1"));
  std::vector<RecordingListener::Event> events = listener_->Take();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].group, "G");
  EXPECT_EQ(events[0].channels, 1u);

  EXPECT_FALSE(Register(a, "a@1"));  // a heartbeat repeat changes nothing
  EXPECT_TRUE(listener_->Take().empty());

  EXPECT_TRUE(Register(b, "b@1"));
  events = listener_->Take();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].channels, 2u);
  EXPECT_EQ(consumers_.GetAllClientIds("G"), (std::vector<std::string>{"a@1", "b@1"}));
  EXPECT_TRUE(consumers_.GetAllClientIds("nope").empty());
}

TEST_F(ConsumerManagerTest, TopicSetChangeNotifies) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  Register(a, "a");
  listener_->Take();
  EXPECT_TRUE(Register(a, "a", "G", {Sub("T"), Sub("U")}));
  EXPECT_EQ(listener_->Take().size(), 1u);
  EXPECT_FALSE(Register(a, "a", "G", {Sub("T", 2), Sub("U")}));  // newer version only
  EXPECT_TRUE(listener_->Take().empty());
}

TEST_F(ConsumerManagerTest, FindSubscriptionDataForPull) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  Register(a, "a", "G", {Sub("T", 7)});
  std::shared_ptr<const SubscriptionData> sub = consumers_.FindSubscriptionData("G", "T");
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->sub_version, 7);
  EXPECT_EQ(sub->code_set, (std::set<int32_t>{2598919}));
  EXPECT_EQ(consumers_.FindSubscriptionData("G", "X"), nullptr);
  EXPECT_EQ(consumers_.FindSubscriptionData("H", "T"), nullptr);
  // A newer heartbeat replaces it; the pointer held by a running pull stays valid.
  Register(a, "a", "G", {Sub("T", 8)});
  EXPECT_EQ(sub->sub_version, 7);
  EXPECT_EQ(consumers_.FindSubscriptionData("G", "T")->sub_version, 8);
}

TEST_F(ConsumerManagerTest, UnregisterNotifiesTheRestAndDropsEmptyGroup) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  Register(a, "a");
  Register(b, "b");
  listener_->Take();
  EXPECT_TRUE(consumers_.UnregisterConsumer("G", a->id()));
  std::vector<RecordingListener::Event> events = listener_->Take();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].channels, 1u);
  EXPECT_FALSE(consumers_.UnregisterConsumer("G", a->id()));
  EXPECT_TRUE(consumers_.UnregisterConsumer("G", b->id()));
  events = listener_->Take();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(events[0].unregistered);
  EXPECT_FALSE(consumers_.GetGroupSnapshot("G"));
}

TEST_F(ConsumerManagerTest, ChannelCloseLeavesEveryGroup) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  Register(a, "a", "G");
  Register(a, "a", "H");
  Register(b, "b", "H");
  listener_->Take();
  std::vector<std::string> left = consumers_.DoChannelCloseEvent(a->id());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"G", "H"}));
  std::vector<RecordingListener::Event> events = listener_->Take();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(consumers_.AllGroups(), (std::vector<std::string>{"H"}));
  EXPECT_EQ(consumers_.GetAllClientIds("H"), (std::vector<std::string>{"b"}));
}

TEST_F(ConsumerManagerTest, SilentMembersExpireAfter120Seconds) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  auto b = test::MakeFakeChannel("10.0.0.2:1");
  Register(a, "a");
  clock_.Advance(100'000);
  Register(b, "b");
  listener_->Take();
  clock_.Advance(20'000);
  EXPECT_EQ(consumers_.ScanNotActiveChannel(), 0u);  // a: exactly 120 s
  clock_.Advance(1);
  EXPECT_EQ(consumers_.ScanNotActiveChannel(), 1u);
  EXPECT_EQ(a->closes(), 1);
  EXPECT_EQ(consumers_.GetAllClientIds("G"), (std::vector<std::string>{"b"}));
  std::vector<RecordingListener::Event> events = listener_->Take();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].channels, 1u);
  clock_.Advance(120'000);
  EXPECT_EQ(consumers_.ScanNotActiveChannel(), 1u);
  EXPECT_TRUE(consumers_.AllGroups().empty());
}

TEST_F(ConsumerManagerTest, SnapshotAndTopicIndexForAdmin) {
  auto a = test::MakeFakeChannel("10.0.0.1:1");
  consumers_.RegisterConsumer("G", Member(a, "a@1"), ConsumeType::kConsumeActively,
                              MessageModel::kBroadcasting, ConsumeFromWhere::kConsumeFromTimestamp,
                              {Sub("T"), Sub("%RETRY%G")});
  Register(a, "a@1", "H", {Sub("T")});
  std::optional<ConsumerGroupSnapshot> snapshot = consumers_.GetGroupSnapshot("G");
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->consume_type, ConsumeType::kConsumeActively);
  EXPECT_EQ(snapshot->message_model, MessageModel::kBroadcasting);
  EXPECT_EQ(snapshot->consume_from_where, ConsumeFromWhere::kConsumeFromTimestamp);
  ASSERT_EQ(snapshot->connections.size(), 1u);
  EXPECT_EQ(snapshot->connections[0].client_id, "a@1");
  EXPECT_EQ(snapshot->connections[0].ClientAddress(), "10.0.0.1:1");
  EXPECT_EQ(snapshot->connections[0].version, 401);
  EXPECT_EQ(snapshot->subscriptions.size(), 2u);
  EXPECT_EQ(consumers_.GroupsOfTopic("T"), (std::set<std::string>{"G", "H"}));
  EXPECT_EQ(consumers_.GroupsOfTopic("%RETRY%G"), (std::set<std::string>{"G"}));
  EXPECT_TRUE(consumers_.HasGroup("G"));
  EXPECT_FALSE(consumers_.HasGroup("X"));
  EXPECT_EQ(consumers_.GetMessageModel("G"), MessageModel::kBroadcasting);
  EXPECT_EQ(consumers_.GetMessageModel("H"), MessageModel::kClustering);
  EXPECT_FALSE(consumers_.GetMessageModel("X"));
  ASSERT_TRUE(consumers_.FindChannel("H", "a@1"));
  EXPECT_FALSE(consumers_.FindChannel("H", "b"));
}

TEST_F(ConsumerManagerTest, OwnsTheLockTable) {
  protocol::MessageQueue mq{"T", "b", 0};
  EXPECT_EQ(consumers_.rebalance_lock_manager().TryLockBatch("G", {mq}, "a").size(), 1u);
  EXPECT_TRUE(consumers_.rebalance_lock_manager().IsLockedBy("G", mq, "a"));
}

}  // namespace
}  // namespace apogee::broker
