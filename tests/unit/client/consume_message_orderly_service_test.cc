#include "client/consume_message_orderly_service.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

#include "client/offset_store_remote.h"
#include "testutil/test_util.h"

namespace apogee::client {
namespace {

const protocol::MessageQueue kMq{"T", "broker-a", 0};

class NullBroker : public OffsetBrokerAccess, public RebalanceBrokerAccess {
 public:
  Result<int64_t> QueryConsumerOffset(const std::string&, const protocol::MessageQueue&) override {
    return Status::NotFound("none");
  }
  Status UpdateConsumerOffset(const std::string&, const protocol::MessageQueue&, int64_t,
                              bool) override {
    return Status::OK();
  }
  std::string ClientId() const override { return "c"; }
  Result<std::vector<std::string>> FindConsumerIdList(const std::string&,
                                                      const std::string&) override {
    return std::vector<std::string>{"c"};
  }
  Result<std::set<protocol::MessageQueue>> LockBatch(
      const std::string&, const std::string&,
      const std::set<protocol::MessageQueue>& mqs) override {
    ++locks;
    return grant ? mqs : std::set<protocol::MessageQueue>{};
  }
  Status UnlockBatch(const std::string&, const std::string&,
                     const std::set<protocol::MessageQueue>&, bool) override {
    return Status::OK();
  }
  std::atomic<int> locks{0};
  std::atomic<bool> grant{true};
};

class NullDelegate : public RebalanceDelegate {
 public:
  bool RemoveUnnecessaryMessageQueue(const protocol::MessageQueue&, ProcessQueue&) override {
    return true;
  }
  void RemoveDirtyOffset(const protocol::MessageQueue&) override {}
  int64_t ComputePullFromWhere(const protocol::MessageQueue&) override { return 0; }
  void DispatchPullRequests(std::vector<PullRequest>) override {}
};

class FakeHost : public ConsumeServiceHost {
 public:
  explicit FakeHost(bool broadcasting)
      : broadcasting_(broadcasting),
        broker_(std::make_shared<NullBroker>()),
        store_("G", broker_),
        rebalance_("G", protocol::MessageModel::kClustering,
                   protocol::ConsumeType::kConsumePassively,
                   std::make_shared<AllocateMessageQueueAveragely>(), broker_, &delegate_) {}
  const std::string& ConsumerGroup() const override { return group_; }
  bool IsBroadcasting() const override { return broadcasting_; }
  OffsetStore& GetOffsetStore() override { return store_; }
  RebalanceImpl& GetRebalance() override { return rebalance_; }
  bool SendMessageBack(const MessageExt& msg, int32_t delay_level, const std::string&) override {
    std::lock_guard lock(mu);
    sent_back.push_back(msg.queue_offset());
    last_delay = delay_level;
    return true;
  }
  int32_t MaxReconsumeTimes(bool) const override { return max_reconsume; }

  std::mutex mu;
  std::vector<int64_t> sent_back;
  int32_t last_delay = 0;
  int32_t max_reconsume = INT32_MAX;
  std::shared_ptr<NullBroker> broker() { return broker_; }

 private:
  std::string group_ = "G";
  bool broadcasting_;
  std::shared_ptr<NullBroker> broker_;
  NullDelegate delegate_;
  RemoteBrokerOffsetStore store_;
  RebalanceImpl rebalance_;
};

std::vector<MessageExt> Msgs(int from, int to) {
  std::vector<MessageExt> out;
  for (int o = from; o < to; ++o) {
    MessageExt m;
    m.set_topic("T");
    m.set_queue_offset(o);
    out.push_back(m);
  }
  return out;
}

TEST(ConsumeOrderlyTest, ConsumesInOffsetOrderAndCommits) {
  FakeHost host(/*broadcasting=*/true);
  std::vector<int64_t> order;
  ConsumeMessageOrderlyService service(
      &host,
      [&](const std::vector<MessageExt>& msgs, ConsumeOrderlyContext&) {
        for (const auto& m : msgs) order.push_back(m.queue_offset());
        return ConsumeOrderlyStatus::kSuccess;
      },
      1, 2, 1000);
  auto pq = std::make_shared<ProcessQueue>();
  ASSERT_TRUE(pq->PutMessages(Msgs(0, 5)));
  service.ConsumeQueue(pq, kMq);
  EXPECT_EQ(order, (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(host.GetOffsetStore().ReadOffset(kMq, ReadOffsetType::kReadFromMemory), 5);
  EXPECT_EQ(pq->msg_count(), 0);
}

TEST(ConsumeOrderlyTest, SuspendRetriesTheSameBatchLater) {
  FakeHost host(true);
  std::mutex mu;
  std::vector<int64_t> order;
  std::atomic<int> calls{0};
  ConsumeMessageOrderlyService service(
      &host,
      [&](const std::vector<MessageExt>& msgs, ConsumeOrderlyContext& ctx) {
        std::lock_guard lock(mu);
        for (const auto& m : msgs) order.push_back(m.queue_offset());
        ctx.suspend_current_queue_time_millis = 10;
        return ++calls == 1 ? ConsumeOrderlyStatus::kSuspendCurrentQueueAMoment
                            : ConsumeOrderlyStatus::kSuccess;
      },
      1, 1, 1000);
  service.Start();
  auto pq = std::make_shared<ProcessQueue>();
  ASSERT_TRUE(pq->PutMessages(Msgs(0, 2)));
  service.ConsumeQueue(pq, kMq);
  ASSERT_TRUE(testing::WaitUntil([&] { return pq->msg_count() == 0; }, std::chrono::seconds(5)));
  service.Shutdown();
  std::lock_guard lock(mu);
  EXPECT_EQ(order, (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(host.GetOffsetStore().ReadOffset(kMq, ReadOffsetType::kReadFromMemory), 2);
}

TEST(ConsumeOrderlyTest, PastMaxReconsumeTimesGoesToTheDlqAndMovesOn) {
  FakeHost host(true);
  host.max_reconsume = 0;
  ConsumeMessageOrderlyService service(
      &host,
      [&](const std::vector<MessageExt>&, ConsumeOrderlyContext&) {
        return ConsumeOrderlyStatus::kSuspendCurrentQueueAMoment;
      },
      1, 1, 1000);
  auto pq = std::make_shared<ProcessQueue>();
  ASSERT_TRUE(pq->PutMessages(Msgs(0, 1)));
  service.ConsumeQueue(pq, kMq);
  EXPECT_EQ(host.sent_back, (std::vector<int64_t>{0}));
  EXPECT_EQ(host.last_delay, -1);  // straight to %DLQ%
  EXPECT_EQ(host.GetOffsetStore().ReadOffset(kMq, ReadOffsetType::kReadFromMemory), 1);
}

TEST(ConsumeOrderlyTest, ClusteringWithoutTheLockDoesNotConsume) {
  FakeHost host(/*broadcasting=*/false);
  host.broker()->grant = false;
  std::atomic<int> calls{0};
  ConsumeMessageOrderlyService service(
      &host,
      [&](const std::vector<MessageExt>&, ConsumeOrderlyContext&) {
        ++calls;
        return ConsumeOrderlyStatus::kSuccess;
      },
      1, 1, 1000, /*lock_interval_ms=*/50);
  service.Start();
  auto pq = std::make_shared<ProcessQueue>();
  pq->PutMessages(Msgs(0, 1));
  service.ConsumeQueue(pq, kMq);  // not locked: retries the lock later
  ASSERT_TRUE(testing::WaitUntil([&] { return host.broker()->locks.load() >= 1; },
                                 std::chrono::seconds(5)));
  EXPECT_EQ(calls.load(), 0);
  service.Shutdown();
}

}  // namespace
}  // namespace apogee::client
