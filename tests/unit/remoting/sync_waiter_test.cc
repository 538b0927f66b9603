// SyncWaiter: the answer reaches the caller whether it arrives before the wait, while the
// caller spins or after it went to sleep; the waiter may die right after Wait returns; the spin
// policy lets one caller spin and stops spinning for a caller whose waits outlast the budget.
#include "remoting/sync_waiter.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace apogee::remoting {
namespace {

using namespace std::chrono_literals;
using protocol::RemotingCommand;

RemotingCommand Answer(int32_t opaque) {
  RemotingCommand command;
  command.opaque = opaque;
  return command;
}

TEST(SyncWaiterTest, AnswerGivenBeforeTheWaitIsReturned) {
  SyncSpinPolicy policy(100us, 2);
  SyncWaiter waiter(policy);
  waiter.Complete(Answer(7));
  auto result = waiter.Wait();
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->opaque, 7);
}

TEST(SyncWaiterTest, ErrorsArePassedThrough) {
  SyncSpinPolicy policy(100us, 2);
  SyncWaiter waiter(policy);
  waiter.Complete(Status::Timeout("request code 10 to 127.0.0.1:1 timed out after 3 ms"));
  auto result = waiter.Wait();
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsTimeout());
}

// The answer arrives long after the spin budget: the caller must have gone to sleep and be woken.
TEST(SyncWaiterTest, AnswerAfterTheSpinWakesTheSleepingCaller) {
  SyncSpinPolicy policy(50us, 2);
  SyncWaiter waiter(policy);
  std::thread completer([&] {
    std::this_thread::sleep_for(30ms);
    waiter.Complete(Answer(9));
  });
  const auto start = std::chrono::steady_clock::now();
  auto result = waiter.Wait();
  EXPECT_GE(std::chrono::steady_clock::now() - start, 25ms);
  completer.join();
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->opaque, 9);
}

// Each waiter lives on the caller's stack and dies as Wait returns, while the completing
// thread may still be inside Complete (ASan reports a use after the waiter's end).
TEST(SyncWaiterTest, ManyCallsWithTheWaiterDestroyedAtOnce) {
  SyncSpinPolicy policy(20us, 2);
  for (int round = 0; round < 2000; ++round) {
    auto waiter = std::make_unique<SyncWaiter>(policy);
    std::thread completer([w = waiter.get(), round] {
      if (round % 3 == 1) std::this_thread::sleep_for(50us);
      w->Complete(Answer(round));
    });
    auto result = waiter->Wait();
    waiter.reset();
    completer.join();
    ASSERT_TRUE(result.ok());
    ASSERT_EQ(result->opaque, round);
  }
}

TEST(SyncSpinPolicyTest, ACallerSpinsOnlyWhileNoOtherWaits) {
  SyncSpinPolicy policy(100us, 2);
  policy.Enter();
  EXPECT_TRUE(policy.Spin());
  policy.Enter();  // a second caller starts waiting
  EXPECT_FALSE(policy.Spin());
  policy.Leave();
  policy.Leave();
}

// Senders taking turns: after a caller found company, the kAloneBeforeSpinning-th caller in a
// row to wait alone is the first to spin again.
TEST(SyncSpinPolicyTest, SpinningResumesAfterCallersWaitedAloneForAWhile) {
  SyncSpinPolicy policy(100us, 2);
  policy.Enter();
  policy.Enter();
  policy.Leave();
  policy.Leave();
  for (int i = 1; i < SyncSpinPolicy::kAloneBeforeSpinning; ++i) {
    policy.Enter();
    EXPECT_FALSE(policy.Spin()) << "call " << i;
    policy.Leave();
  }
  policy.Enter();
  EXPECT_TRUE(policy.Spin());
  policy.Leave();
}

TEST(SyncSpinPolicyTest, NoSpinningOnOneCoreOrWithoutABudget) {
  SyncSpinPolicy one_core(100us, 1);
  one_core.Enter();
  EXPECT_FALSE(one_core.Spin());
  one_core.Leave();
  SyncSpinPolicy no_budget(0us, 8);
  no_budget.Enter();
  EXPECT_FALSE(no_budget.Spin());
  no_budget.Leave();
}

// A broker that answers slower than the budget (SYNC_FLUSH, a remote one) makes the caller
// sleep at once; faster answers bring the spinning back.
TEST(SyncSpinPolicyTest, WaitsLongerThanTheBudgetStopTheSpinningUntilWaitsGetShortAgain) {
  SyncSpinPolicy policy(100us, 2);
  policy.Enter();
  for (int i = 0; i < 20; ++i) policy.Record(400us);
  EXPECT_FALSE(policy.Spin());
  for (int i = 0; i < 30; ++i) policy.Record(40us);
  EXPECT_TRUE(policy.Spin());
  policy.Leave();
}

// A long-polling pull waits for seconds; one such wait must not stop the spinning for long.
TEST(SyncSpinPolicyTest, OneLongWaitCountsAsAFewBudgetsOnly) {
  SyncSpinPolicy policy(100us, 2);
  for (int i = 0; i < 30; ++i) policy.Record(40us);
  policy.Record(15s);
  for (int i = 0; i < 12; ++i) policy.Record(40us);
  policy.Enter();
  EXPECT_TRUE(policy.Spin());
  policy.Leave();
}

}  // namespace
}  // namespace apogee::remoting
