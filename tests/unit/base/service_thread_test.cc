#include "base/service_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "base/wakeup_batch.h"

namespace apogee {
namespace {

class CountingThread : public ServiceThread {
 public:
  CountingThread() : ServiceThread("counting") {}
  ~CountingThread() override { Shutdown(); }
  std::atomic<int> rounds{0};

 protected:
  void Run() override {
    while (!stopped()) {
      WaitForRunning(10'000);
      rounds.fetch_add(1);
    }
  }
};

TEST(ServiceThreadTest, WakeupCutsWaitShortAndShutdownJoins) {
  CountingThread t;
  t.Start();
  t.Wakeup();
  for (int i = 0; i < 200 && t.rounds.load() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GE(t.rounds.load(), 1);
  t.Shutdown();
  EXPECT_TRUE(t.stopped());
}

// A batch holds the wake-ups made on its thread until the outermost batch ends, then
// delivers each once (the IO thread's read of many ASYNC_FLUSH sends wakes the reput once).
TEST(ServiceThreadTest, WakeupsInABatchAreDeliveredWhenTheOutermostBatchEnds) {
  CountingThread t;
  t.Start();
  {
    ScopedWakeupBatch outer;
    {
      ScopedWakeupBatch inner;
      t.Wakeup();
      t.Wakeup();
    }
    // Held: without the batch's end nothing wakes the thread before its 10 s interval.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(t.rounds.load(), 0);
  }
  for (int i = 0; i < 400 && t.rounds.load() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(t.rounds.load(), 1);
  // Without a batch a wake-up goes out at once, as before.
  EXPECT_FALSE(ScopedWakeupBatch::Defer(&t, [](ServiceThread*) {}));
  t.Wakeup();
  for (int i = 0; i < 400 && t.rounds.load() == 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(t.rounds.load(), 2);
}

// End actions (the CommitLog's write of a read's records) run once per target at the end of
// the outermost batch, before the held threads are woken, and a failed one fails the batch.
TEST(ServiceThreadTest, BatchEndActionsRunOnceBeforeTheWakeupsAndReportFailure) {
  struct Log {
    std::vector<std::string> events;
    bool fail = false;
  } log;
  static Log* current = nullptr;
  current = &log;
  auto write = [](void* target) {
    static_cast<Log*>(target)->events.push_back("write");
    return !static_cast<Log*>(target)->fail;
  };
  EXPECT_FALSE(ScopedWakeupBatch::DeferAction(&log, write));  // no batch open
  {
    ScopedWakeupBatch outer;
    {
      ScopedWakeupBatch inner;
      EXPECT_TRUE(ScopedWakeupBatch::DeferAction(&log, write));
      EXPECT_TRUE(ScopedWakeupBatch::Defer(
          nullptr, [](ServiceThread*) { current->events.push_back("wake"); }));
      EXPECT_TRUE(inner.Finish());  // inner: nothing runs yet
    }
    EXPECT_TRUE(ScopedWakeupBatch::DeferAction(&log, write));  // the same target: once
    EXPECT_TRUE(log.events.empty());
    EXPECT_TRUE(outer.Finish());
    EXPECT_TRUE(outer.Finish());  // finished: the second call and the destructor do nothing
  }
  EXPECT_EQ(log.events, (std::vector<std::string>{"write", "wake"}));
  log.events.clear();
  log.fail = true;
  {
    ScopedWakeupBatch batch;
    ASSERT_TRUE(ScopedWakeupBatch::DeferAction(&log, write));
    EXPECT_FALSE(batch.Finish());
  }
  EXPECT_EQ(log.events, (std::vector<std::string>{"write"}));
  {
    ScopedWakeupBatch batch;  // nothing left over from the failed one
    EXPECT_TRUE(batch.Finish());
  }
  EXPECT_EQ(log.events.size(), 1u);
}

// Sees the value a producer published before each Wakeup(): a lost wake-up leaves it behind
// for the whole (long) wait interval.
class LatestValueThread : public ServiceThread {
 public:
  LatestValueThread() : ServiceThread("latest") {}
  ~LatestValueThread() override { Shutdown(); }
  std::atomic<int> published{0};
  std::atomic<int> seen{0};

 protected:
  void Run() override {
    while (!stopped()) {
      WaitForRunning(60'000);
      seen.store(published.load(std::memory_order_relaxed), std::memory_order_relaxed);
    }
  }
};

TEST(ServiceThreadTest, NoWakeupIsLostWhileTheThreadConsumesAnother) {
  // Wakeup() skips the lock when a wake-up is already pending; one that races with the
  // thread consuming the pending one must still be seen (the thread runs again), or the
  // last value would wait out the 60 s interval.
  LatestValueThread t;
  t.Start();
  constexpr int kRounds = 20'000;
  for (int i = 1; i <= kRounds; ++i) {
    t.published.store(i, std::memory_order_relaxed);
    t.Wakeup();
    if (i % 64 == 0) std::this_thread::yield();
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (t.seen.load() != kRounds && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(t.seen.load(), kRounds);
}

}  // namespace
}  // namespace apogee
