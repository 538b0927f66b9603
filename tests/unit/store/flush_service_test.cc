#include "store/flush_service.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "env/fault_injection_env.h"
#include "env/mem_env.h"
#include "store/commit_log.h"
#include "store/store_checkpoint.h"
#include "store_test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;

class FlushServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cl_ = std::make_unique<CommitLog>(&fault_, config_, &clock_, nullptr);
    ASSERT_TRUE(cl_->Load().ok());
    auto cp = StoreCheckpoint::Open(&fault_, "/f/checkpoint");
    ASSERT_TRUE(cp.ok());
    checkpoint_ = std::move(*cp);
  }
  PutResult Append() { return cl_->Append(TestMessage("T", 0, "x").fields); }

  std::unique_ptr<env::Env> mem_ = env::NewMemEnv();
  env::FaultInjectionEnv fault_{mem_.get()};
  StoreConfig config_ = SmallConfig("/f");
  ManualClock clock_;
  std::unique_ptr<CommitLog> cl_;
  std::unique_ptr<StoreCheckpoint> checkpoint_;
};

TEST_F(FlushServiceTest, GroupCommitAcknowledgesDurableBytes) {
  GroupCommitService gc(cl_.get(), checkpoint_.get(), Clock::Real(), nullptr);
  gc.Start();
  std::vector<std::future<PutStatus>> futures;
  for (int i = 0; i < 20; ++i) {
    PutResult r = Append();
    auto p = std::make_shared<std::promise<PutStatus>>();
    futures.push_back(p->get_future());
    gc.Submit(r.wrote_offset.value() + r.wrote_bytes, SteadyMillis() + 5000,
              [p](PutStatus s) { p->set_value(s); });
  }
  for (auto& f : futures) EXPECT_EQ(f.get(), PutStatus::kPutOk);
  EXPECT_EQ(cl_->FlushedOffset(), cl_->MaxOffset());
  EXPECT_EQ(checkpoint_->physic_msg_timestamp(), clock_.NowMillis());
  // Durable: dropping unsynced data loses nothing.
  ASSERT_TRUE(fault_.UnsyncedBytes().ok());
  EXPECT_EQ(*fault_.UnsyncedBytes(), 0u);
}

TEST_F(FlushServiceTest, GroupCommitRecordsBatchSizesAndFlushTimes) {
  FlushStats stats;
  GroupCommitService gc(cl_.get(), checkpoint_.get(), Clock::Real(), nullptr, nullptr, &stats);
  gc.Start();
  std::vector<std::future<PutStatus>> futures;
  for (int i = 0; i < 20; ++i) {
    PutResult r = Append();
    auto p = std::make_shared<std::promise<PutStatus>>();
    futures.push_back(p->get_future());
    gc.Submit(r.wrote_offset.value() + r.wrote_bytes, SteadyMillis() + 5000,
              [p](PutStatus s) { p->set_value(s); });
  }
  for (auto& f : futures) EXPECT_EQ(f.get(), PutStatus::kPutOk);
  gc.Shutdown();
  // Every request was in exactly one batch; at least one flush wrote pages.
  EXPECT_EQ(stats.group_commit_batch.sum(), 20);
  EXPECT_GE(stats.group_commit_batch.count(), 1);
  EXPECT_LE(stats.group_commit_batch.count(), 20);
  EXPECT_GE(stats.sync_micros.count(), 1);
}

TEST(FlushDistributionTest, BucketsByInclusiveUpperBound) {
  FlushDistribution<3> d({1, 10, 100});
  for (int64_t v : {0, 1, 2, 10, 11, 100, 101, 5000}) d.Record(v);
  EXPECT_EQ(d.bucket(0), 2);  // 0, 1
  EXPECT_EQ(d.bucket(1), 2);  // 2, 10
  EXPECT_EQ(d.bucket(2), 2);  // 11, 100
  EXPECT_EQ(d.bucket(3), 2);  // above 100
  EXPECT_EQ(d.count(), 8);
  EXPECT_EQ(d.sum(), 0 + 1 + 2 + 10 + 11 + 100 + 101 + 5000);
}

TEST_F(FlushServiceTest, GroupCommitReportsEachFlushThatMadeBytesDurable) {
  // The store wakes its reput from this listener (SYNC_FLUSH dispatches durable bytes only):
  // it must run after the flush, with the bytes durable, before the puts are answered.
  std::atomic<int> calls{0};
  std::atomic<int64_t> durable_at_call{-1};
  GroupCommitService gc(cl_.get(), checkpoint_.get(), Clock::Real(), nullptr, [&] {
    durable_at_call = cl_->FlushedOffset();
    calls++;
  });
  gc.Start();
  PutResult r = Append();
  const int64_t end = r.wrote_offset.value() + r.wrote_bytes;
  std::promise<PutStatus> done;
  gc.Submit(end, SteadyMillis() + 5000, [&](PutStatus s) {
    EXPECT_GE(calls.load(), 1) << "listener before the answer";
    done.set_value(s);
  });
  EXPECT_EQ(done.get_future().get(), PutStatus::kPutOk);
  EXPECT_GE(durable_at_call.load(), end);
  // Idle loops that flush nothing new do not call it again.
  const int before = calls.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(calls.load(), before);
  gc.Shutdown();
}

TEST_F(FlushServiceTest, DeadlinePassedAnswersFlushDiskTimeout) {
  ManualClock steady(0);
  GroupCommitService gc(cl_.get(), checkpoint_.get(), &steady, nullptr);
  // A request for bytes that are never written times out once its deadline has passed.
  std::promise<PutStatus> p;
  gc.Submit(cl_->MaxOffset() + 1000, 50, [&](PutStatus s) { p.set_value(s); });
  gc.Start();
  steady.Advance(100);
  EXPECT_EQ(p.get_future().get(), PutStatus::kFlushDiskTimeout);
}

TEST_F(FlushServiceTest, SyncErrorIsFatalAndNeverAcknowledged) {
  std::atomic<int> errors{0};
  GroupCommitService gc(cl_.get(), checkpoint_.get(), Clock::Real(),
                        [&](const Status&) { errors++; });
  fault_.FailNext(env::FaultPoint::kSync, 100);
  gc.Start();
  PutResult r = Append();
  std::promise<PutStatus> p;
  gc.Submit(r.wrote_offset.value() + r.wrote_bytes, SteadyMillis() + 5000,
            [&](PutStatus s) { p.set_value(s); });
  EXPECT_EQ(p.get_future().get(), PutStatus::kServiceNotAvailable);
  EXPECT_EQ(errors.load(), 1);
  // Later requests are refused too, even once the disk works again.
  fault_.ClearAllFaults();
  std::promise<PutStatus> later;
  gc.Submit(r.wrote_offset.value() + r.wrote_bytes, SteadyMillis() + 5000,
            [&](PutStatus s) { later.set_value(s); });
  EXPECT_EQ(later.get_future().get(), PutStatus::kServiceNotAvailable);
}

TEST_F(FlushServiceTest, ShutdownAnswersEveryPendingRequest) {
  GroupCommitService gc(cl_.get(), checkpoint_.get(), Clock::Real(), nullptr);
  gc.Start();
  gc.Shutdown();
  std::promise<PutStatus> p;
  gc.Submit(1, SteadyMillis() + 5000, [&](PutStatus s) { p.set_value(s); });
  EXPECT_EQ(p.get_future().get(), PutStatus::kServiceNotAvailable);
}

TEST_F(FlushServiceTest, RealTimeServiceFlushesPeriodicallyAndAtShutdown) {
  FlushRealTimeService svc(cl_.get(), checkpoint_.get(), Clock::Real(), 5, 1000, 1000000,
                           nullptr);
  svc.Start();
  Append();  // far below 1000 dirty pages: not flushed by the periodic pass
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_LT(cl_->FlushedOffset(), cl_->MaxOffset());
  svc.Shutdown();  // flushes everything
  EXPECT_EQ(cl_->FlushedOffset(), cl_->MaxOffset());
}

}  // namespace
}  // namespace apogee::store
