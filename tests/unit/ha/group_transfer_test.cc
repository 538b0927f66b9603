#include "ha/group_transfer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "testutil/test_util.h"

namespace apogee::ha {
namespace {

using store::PutStatus;
constexpr auto kWait = std::chrono::seconds(5);

struct Outcome {
  std::atomic<int> calls{0};
  std::atomic<PutStatus> status{PutStatus::kUnknownError};
  GroupTransfer::Done Callback() {
    return [this](PutStatus s) {
      status = s;
      ++calls;
    };
  }
};

TEST(GroupTransferTest, AckAtOrPastTheOffsetCompletesTheWait) {
  ManualClock clock;
  GroupTransfer transfer(&clock);
  transfer.Start();
  Outcome a, b;
  transfer.Wait(100, 3000, a.Callback());
  transfer.Wait(200, 3000, b.Callback());
  EXPECT_EQ(transfer.pending(), 2u);
  transfer.OnAck(99);
  EXPECT_EQ(a.calls, 0);
  transfer.OnAck(150);
  EXPECT_EQ(a.calls, 1);
  EXPECT_EQ(a.status, PutStatus::kPutOk);
  EXPECT_EQ(b.calls, 0);
  transfer.OnAck(200);
  EXPECT_EQ(b.calls, 1);
  EXPECT_EQ(transfer.pending(), 0u);
}

TEST(GroupTransferTest, AlreadyAckedAnswersAtOnce) {
  ManualClock clock;
  GroupTransfer transfer(&clock);
  transfer.OnAck(500);
  Outcome a;
  transfer.Wait(400, 3000, a.Callback());
  EXPECT_EQ(a.calls, 1);
  EXPECT_EQ(a.status, PutStatus::kPutOk);
}

TEST(GroupTransferTest, AckNeverMovesBackwards) {
  ManualClock clock;
  GroupTransfer transfer(&clock);
  transfer.OnAck(500);
  transfer.OnAck(100);
  EXPECT_EQ(transfer.acked_offset(), 500);
}

TEST(GroupTransferTest, DeadlineCompletesWithFlushSlaveTimeout) {
  ManualClock clock;
  GroupTransfer transfer(&clock);
  transfer.Start();
  Outcome a, b;
  transfer.Wait(100, 1000, a.Callback());
  clock.Advance(500);
  transfer.Wait(100, 1000, b.Callback());
  clock.Advance(600);  // a is past its deadline, b is not
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return a.calls == 1; }, kWait));
  EXPECT_EQ(a.status, PutStatus::kFlushSlaveTimeout);
  EXPECT_EQ(b.calls, 0);
  transfer.OnAck(100);
  EXPECT_EQ(b.calls, 1);
  EXPECT_EQ(b.status, PutStatus::kPutOk);
}

TEST(GroupTransferTest, StopAnswersPendingWaits) {
  ManualClock clock;
  GroupTransfer transfer(&clock);
  transfer.Start();
  Outcome a;
  transfer.Wait(100, 60000, a.Callback());
  transfer.Stop();
  EXPECT_EQ(a.calls, 1);
  EXPECT_EQ(a.status, PutStatus::kFlushSlaveTimeout);
  Outcome late;
  transfer.Wait(100, 60000, late.Callback());
  EXPECT_EQ(late.calls, 1);
  EXPECT_EQ(late.status, PutStatus::kFlushSlaveTimeout);
}

}  // namespace
}  // namespace apogee::ha
