#include "client/process_queue.h"

#include <gtest/gtest.h>

namespace apogee::client {
namespace {

std::vector<MessageExt> Msgs(std::initializer_list<int64_t> offsets) {
  std::vector<MessageExt> out;
  for (int64_t o : offsets) {
    MessageExt m;
    m.set_queue_offset(o);
    m.set_body("0123456789");
    out.push_back(m);
  }
  return out;
}

TEST(ProcessQueueTest, ConcurrentRemoveCommitsTheSmallestWaitingOffset) {
  ProcessQueue pq;
  EXPECT_EQ(pq.RemoveMessages(Msgs({1})), -1);  // empty tree
  EXPECT_TRUE(pq.PutMessages(Msgs({10, 11, 12, 13})));
  EXPECT_EQ(pq.msg_count(), 4);
  EXPECT_EQ(pq.msg_size(), 40);
  EXPECT_EQ(pq.MaxSpan(), 3);
  // 11 and 12 finish first: 10 still waits, so the offset stays at 10.
  EXPECT_EQ(pq.RemoveMessages(Msgs({11, 12})), 10);
  EXPECT_EQ(pq.RemoveMessages(Msgs({10})), 13);
  EXPECT_EQ(pq.RemoveMessages(Msgs({13})), 14);
  EXPECT_EQ(pq.msg_count(), 0);
  EXPECT_EQ(pq.msg_size(), 0);
  EXPECT_EQ(pq.MinOffset(), -1);
}

TEST(ProcessQueueTest, DuplicateOffsetsAreIgnored) {
  ProcessQueue pq;
  pq.PutMessages(Msgs({5, 6}));
  pq.PutMessages(Msgs({6, 7}));
  EXPECT_EQ(pq.msg_count(), 3);
  EXPECT_EQ(pq.msg_size(), 30);
  EXPECT_EQ(pq.MinOffset(), 5);
  EXPECT_EQ(pq.MaxOffset(), 7);
}

TEST(ProcessQueueTest, OrderlyTakeCommitAndRetry) {
  ProcessQueue pq;
  EXPECT_TRUE(pq.PutMessages(Msgs({0, 1, 2})));
  EXPECT_FALSE(pq.PutMessages(Msgs({3})));  // a task is already running
  auto batch = pq.TakeMessages(2);
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0].queue_offset(), 0);
  EXPECT_EQ(batch[1].queue_offset(), 1);
  pq.MakeMessagesToConsumeAgain(batch);
  batch = pq.TakeMessages(2);
  EXPECT_EQ(batch[0].queue_offset(), 0);
  EXPECT_EQ(pq.Commit(), 2);
  EXPECT_EQ(pq.Commit(), -1);
  batch = pq.TakeMessages(10);
  EXPECT_EQ(batch.size(), 2u);
  EXPECT_EQ(pq.Commit(), 4);
  EXPECT_TRUE(pq.TakeMessages(1).empty());  // idle now
  EXPECT_TRUE(pq.PutMessages(Msgs({4})));   // so the next put starts a task
  EXPECT_EQ(pq.msg_size(), 10);
}

TEST(ProcessQueueTest, LockAndPullExpiry) {
  ProcessQueue pq;
  pq.set_last_lock_timestamp(1000);
  EXPECT_FALSE(pq.IsLockExpired(1000 + kRebalanceLockMaxLiveTimeMs));
  EXPECT_TRUE(pq.IsLockExpired(1001 + kRebalanceLockMaxLiveTimeMs));
  pq.set_last_pull_timestamp(0);
  EXPECT_TRUE(pq.IsPullExpired(kPullMaxIdleTimeMs + 1));
  pq.set_dropped(true);
  EXPECT_TRUE(pq.dropped());
  pq.PutMessages(Msgs({1}));
  pq.Clear();
  EXPECT_EQ(pq.msg_count(), 0);
}

}  // namespace
}  // namespace apogee::client
