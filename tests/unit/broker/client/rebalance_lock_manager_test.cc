#include "broker/client/rebalance_lock_manager.h"

#include <gtest/gtest.h>

namespace apogee::broker {
namespace {

using protocol::MessageQueue;

class RebalanceLockManagerTest : public ::testing::Test {
 protected:
  ManualClock clock_;
  RebalanceLockManager locks_{&clock_};
  const MessageQueue q0_{"T", "b", 0};
  const MessageQueue q1_{"T", "b", 1};
  const MessageQueue q2_{"T", "b", 2};
};

TEST_F(RebalanceLockManagerTest, ContestedByTwoClients) {
  EXPECT_EQ(locks_.TryLockBatch("G", {q0_, q1_}, "c1"), (std::set<MessageQueue>{q0_, q1_}));
  // c2 only gets what c1 does not hold.
  EXPECT_EQ(locks_.TryLockBatch("G", {q1_, q2_}, "c2"), (std::set<MessageQueue>{q2_}));
  EXPECT_TRUE(locks_.IsLockedBy("G", q1_, "c1"));
  EXPECT_FALSE(locks_.IsLockedBy("G", q1_, "c2"));
  // Re-locking by the owner succeeds.
  EXPECT_EQ(locks_.TryLockBatch("G", {q0_, q1_}, "c1"), (std::set<MessageQueue>{q0_, q1_}));
  // Another group is independent.
  EXPECT_EQ(locks_.TryLockBatch("H", {q0_}, "c2"), (std::set<MessageQueue>{q0_}));
}

TEST_F(RebalanceLockManagerTest, ExpiresSixtySecondsAfterLastLock) {
  locks_.TryLockBatch("G", {q0_, q1_}, "c1");
  clock_.Advance(40'000);
  locks_.TryLockBatch("G", {q1_}, "c1");  // refreshes q1 only
  clock_.Advance(20'001);                 // q0: 60.001 s old, q1: 20.001 s
  EXPECT_FALSE(locks_.IsLockedBy("G", q0_, "c1"));
  EXPECT_TRUE(locks_.IsLockedBy("G", q1_, "c1"));
  EXPECT_EQ(locks_.TryLockBatch("G", {q0_, q1_}, "c2"), (std::set<MessageQueue>{q0_}));
  EXPECT_TRUE(locks_.IsLockedBy("G", q0_, "c2"));
}

TEST_F(RebalanceLockManagerTest, NotExpiredAtExactlySixtySeconds) {
  locks_.TryLockBatch("G", {q0_}, "c1");
  clock_.Advance(60'000);
  EXPECT_TRUE(locks_.TryLockBatch("G", {q0_}, "c2").empty());
}

TEST_F(RebalanceLockManagerTest, UnlockOnlyByOwner) {
  locks_.TryLockBatch("G", {q0_, q1_}, "c1");
  locks_.UnlockBatch("G", {q0_, q1_}, "c2");
  EXPECT_TRUE(locks_.IsLockedBy("G", q0_, "c1"));
  locks_.UnlockBatch("G", {q0_}, "c1");
  EXPECT_FALSE(locks_.IsLockedBy("G", q0_, "c1"));
  EXPECT_EQ(locks_.TryLockBatch("G", {q0_, q1_}, "c2"), (std::set<MessageQueue>{q0_}));
  locks_.UnlockBatch("nogroup", {q0_}, "c1");  // harmless
}

TEST_F(RebalanceLockManagerTest, ConfigurableLiveTime) {
  RebalanceLockManager short_locks(&clock_, 1000);
  short_locks.TryLockBatch("G", {q0_}, "c1");
  clock_.Advance(1001);
  EXPECT_EQ(short_locks.TryLockBatch("G", {q0_}, "c2"), (std::set<MessageQueue>{q0_}));
}

}  // namespace
}  // namespace apogee::broker
