#include "client/rebalance_impl.h"

#include <gtest/gtest.h>

#include "client/consumer_subscription.h"

namespace apogee::client {
namespace {

class FakeBroker : public RebalanceBrokerAccess {
 public:
  std::string ClientId() const override { return client_id; }
  Result<std::vector<std::string>> FindConsumerIdList(const std::string&,
                                                      const std::string&) override {
    return cids;
  }
  Result<std::set<protocol::MessageQueue>> LockBatch(
      const std::string&, const std::string&,
      const std::set<protocol::MessageQueue>& mqs) override {
    ++lock_calls;
    std::set<protocol::MessageQueue> granted;
    for (const auto& mq : mqs) {
      if (refused.count(mq) == 0) granted.insert(mq);
    }
    return granted;
  }
  Status UnlockBatch(const std::string&, const std::string&,
                     const std::set<protocol::MessageQueue>& mqs, bool) override {
    unlocked.insert(mqs.begin(), mqs.end());
    return Status::OK();
  }
  std::string client_id = "c1";
  std::vector<std::string> cids;
  std::set<protocol::MessageQueue> refused;
  std::set<protocol::MessageQueue> unlocked;
  int lock_calls = 0;
};

class FakeDelegate : public RebalanceDelegate {
 public:
  void MessageQueueChanged(const std::string&, const std::set<protocol::MessageQueue>&,
                           const std::set<protocol::MessageQueue>& divided) override {
    last_divided = divided;
    ++changes;
  }
  bool RemoveUnnecessaryMessageQueue(const protocol::MessageQueue& mq, ProcessQueue&) override {
    removed.insert(mq);
    return true;
  }
  void RemoveDirtyOffset(const protocol::MessageQueue&) override {}
  int64_t ComputePullFromWhere(const protocol::MessageQueue& mq) override {
    return mq.queue_id == skip_queue ? -1 : 100 + mq.queue_id;
  }
  void DispatchPullRequests(std::vector<PullRequest> requests) override {
    for (auto& r : requests) dispatched.push_back(std::move(r));
  }
  std::set<protocol::MessageQueue> last_divided;
  std::set<protocol::MessageQueue> removed;
  std::vector<PullRequest> dispatched;
  int changes = 0;
  int skip_queue = -1;
};

std::set<protocol::MessageQueue> Queues(int n) {
  std::set<protocol::MessageQueue> out;
  for (int q = 0; q < n; ++q) out.insert(protocol::MessageQueue{"T", "broker-a", q});
  return out;
}

struct Fixture {
  explicit Fixture(protocol::MessageModel model = protocol::MessageModel::kClustering)
      : broker(std::make_shared<FakeBroker>()),
        rebalance("G", model, protocol::ConsumeType::kConsumePassively,
                  std::make_shared<AllocateMessageQueueAveragely>(), broker, &delegate) {
    rebalance.SetSubscription(*BuildSubscriptionData("T", "*", 1));
  }
  std::shared_ptr<FakeBroker> broker;
  FakeDelegate delegate;
  RebalanceImpl rebalance;
};

TEST(RebalanceImplTest, ClusteringTakesItsShareSortedAsJava) {
  Fixture f;
  EXPECT_TRUE(f.rebalance.IsSubscribeTopicNeedUpdate("T"));
  f.rebalance.UpdateTopicSubscribeInfo("T", Queues(4));
  EXPECT_FALSE(f.rebalance.IsSubscribeTopicNeedUpdate("T"));
  f.broker->cids = {"c2", "c1"};  // unsorted on purpose: c1 sorts first
  f.rebalance.DoRebalance(false);
  EXPECT_EQ(f.delegate.last_divided,
            (std::set<protocol::MessageQueue>{{"T", "broker-a", 0}, {"T", "broker-a", 1}}));
  ASSERT_EQ(f.delegate.dispatched.size(), 2u);
  EXPECT_EQ(f.delegate.dispatched[0].next_offset, 100);
  EXPECT_EQ(f.delegate.dispatched[1].next_offset, 101);
  EXPECT_EQ(f.rebalance.ProcessQueueTable().size(), 2u);

  // Same membership: nothing changes, no new pull requests.
  f.rebalance.DoRebalance(false);
  EXPECT_EQ(f.delegate.changes, 1);
  EXPECT_EQ(f.delegate.dispatched.size(), 2u);

  // A third member "c0" sorts first: AVG over 4 queues gives c0 {0,1}, c1 {2}, c2 {3}.
  f.broker->cids = {"c0", "c1", "c2"};
  f.rebalance.DoRebalance(false);
  EXPECT_EQ(f.delegate.last_divided, (std::set<protocol::MessageQueue>{{"T", "broker-a", 2}}));
  EXPECT_EQ(f.delegate.removed,
            (std::set<protocol::MessageQueue>{{"T", "broker-a", 0}, {"T", "broker-a", 1}}));
  auto table = f.rebalance.ProcessQueueTable();
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table.begin()->first.queue_id, 2);
  EXPECT_TRUE(f.delegate.dispatched[0].pq->dropped());
}

TEST(RebalanceImplTest, NotInTheListHoldsNothing) {
  Fixture f;
  f.rebalance.UpdateTopicSubscribeInfo("T", Queues(2));
  f.broker->cids = {"other"};
  f.rebalance.DoRebalance(false);
  EXPECT_TRUE(f.rebalance.ProcessQueueTable().empty());
}

TEST(RebalanceImplTest, BroadcastingTakesEveryQueue) {
  Fixture f(protocol::MessageModel::kBroadcasting);
  f.rebalance.UpdateTopicSubscribeInfo("T", Queues(3));
  f.rebalance.DoRebalance(false);
  EXPECT_EQ(f.rebalance.ProcessQueueTable().size(), 3u);
}

TEST(RebalanceImplTest, NegativeStartOffsetSkipsTheQueueThisRound) {
  Fixture f;
  f.delegate.skip_queue = 1;
  f.rebalance.UpdateTopicSubscribeInfo("T", Queues(2));
  f.broker->cids = {"c1"};
  f.rebalance.DoRebalance(false);
  EXPECT_EQ(f.rebalance.ProcessQueueTable().size(), 1u);
  f.delegate.skip_queue = -1;
  f.rebalance.DoRebalance(false);
  EXPECT_EQ(f.rebalance.ProcessQueueTable().size(), 2u);
}

TEST(RebalanceImplTest, OrderlyTakesOnlyLockedQueues) {
  Fixture f;
  f.rebalance.UpdateTopicSubscribeInfo("T", Queues(2));
  f.broker->cids = {"c1"};
  f.broker->refused = {{"T", "broker-a", 1}};
  f.rebalance.DoRebalance(true);
  auto table = f.rebalance.ProcessQueueTable();
  ASSERT_EQ(table.size(), 1u);
  EXPECT_TRUE(table.begin()->second->locked());
  // LockAll renews; a queue the broker refuses is marked unlocked.
  f.broker->refused = {{"T", "broker-a", 0}};
  f.rebalance.LockAll();
  EXPECT_FALSE(table.begin()->second->locked());
  f.rebalance.UnlockAll(true);
  EXPECT_EQ(f.broker->unlocked.count({"T", "broker-a", 0}), 1u);
}

TEST(RebalanceImplTest, UnsubscribedTopicsAreTruncated) {
  Fixture f;
  f.rebalance.UpdateTopicSubscribeInfo("T", Queues(1));
  f.broker->cids = {"c1"};
  f.rebalance.DoRebalance(false);
  auto pq = f.rebalance.ProcessQueueTable().begin()->second;
  f.rebalance.RemoveSubscription("T");
  f.rebalance.DoRebalance(false);
  EXPECT_TRUE(f.rebalance.ProcessQueueTable().empty());
  EXPECT_TRUE(pq->dropped());
}

}  // namespace
}  // namespace apogee::client
