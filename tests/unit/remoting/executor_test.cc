#include "remoting/executor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <thread>

#include "testutil/test_util.h"

namespace apogee::remoting {
namespace {

TEST(ThreadPoolExecutorTest, RunsTasksOnItsThreads) {
  ThreadPoolExecutor executor("test", 2, 100);
  std::atomic<int> ran{0};
  std::promise<std::thread::id> where;
  ASSERT_TRUE(executor.TryExecute([&] { where.set_value(std::this_thread::get_id()); }));
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(executor.TryExecute([&] { ran++; }));
  EXPECT_NE(where.get_future().get(), std::this_thread::get_id());
  executor.Shutdown();
  EXPECT_EQ(ran.load(), 50);
}

// A task that holds the last reference to its own pool destroys it on a pool thread, which
// cannot join itself: it must end cleanly (this aborted with "terminate called without an
// active exception" in unit_broker, about one run in ten).
TEST(ThreadPoolExecutorTest, ThePoolDestroyedByItsOwnTaskEndsCleanly) {
  for (int round = 0; round < 20; ++round) {
    auto pool = std::make_shared<ThreadPoolExecutor>("own", 2, 16);
    std::weak_ptr<ThreadPoolExecutor> weak = pool;
    std::promise<void> released;
    std::shared_future<void> go = released.get_future().share();
    std::atomic<bool> ran{false};
    // A second task keeps the other thread busy for a moment, so that one is joined.
    ASSERT_TRUE(pool->TryExecute([go] { go.wait(); }));
    ASSERT_TRUE(pool->TryExecute([keep = pool, go, &ran] {
      go.wait();
      ran = true;
    }));
    pool.reset();  // the task's capture is now the only reference
    released.set_value();
    ASSERT_TRUE(apogee::testing::WaitUntil([&] { return weak.expired(); },
                                           std::chrono::seconds(10)));
    EXPECT_TRUE(ran.load());
  }
}

TEST(ThreadPoolExecutorTest, RejectsWhenQueueFull) {
  ThreadPoolExecutor executor("test", 1, 2);
  std::promise<void> release;
  auto released = release.get_future().share();
  std::promise<void> started;
  ASSERT_TRUE(executor.TryExecute([&] {
    started.set_value();
    released.wait();
  }));
  started.get_future().wait();  // the only thread is busy now
  EXPECT_TRUE(executor.TryExecute([] {}));
  EXPECT_TRUE(executor.TryExecute([] {}));
  EXPECT_EQ(executor.queued(), 2u);
  EXPECT_FALSE(executor.TryExecute([] {}));
  release.set_value();
  executor.Shutdown();
  EXPECT_EQ(executor.queued(), 0u);
}

TEST(ThreadPoolExecutorTest, StartsThreadsOnlyWhenTasksNeedThem) {
  ThreadPoolExecutor executor("test", 4, 100);
  EXPECT_EQ(executor.started_threads(), 0u);  // an idle pool costs no thread
  for (int i = 0; i < 3; ++i) {
    std::promise<void> done;
    ASSERT_TRUE(executor.TryExecute([&] { done.set_value(); }));
    done.get_future().wait();
  }
  // One task at a time: a thread starts only when none is idle (one may not yet be back to
  // waiting when the next task comes), so never more threads than tasks.
  EXPECT_GE(executor.started_threads(), 1u);
  EXPECT_LE(executor.started_threads(), 3u);

  // Four tasks blocked at once need four threads; the maximum bounds the pool.
  std::promise<void> release;
  auto released = release.get_future().share();
  std::atomic<int> running{0};
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(executor.TryExecute([&] {
      running++;
      released.wait();
    }));
  }
  while (running.load() < 4) std::this_thread::yield();
  EXPECT_EQ(executor.started_threads(), 4u);
  EXPECT_EQ(running.load(), 4);
  release.set_value();
  executor.Shutdown();
  EXPECT_EQ(running.load(), 6);
}

TEST(ThreadPoolExecutorTest, RejectsAfterShutdown) {
  ThreadPoolExecutor executor("test", 1, 10);
  executor.Shutdown();
  EXPECT_FALSE(executor.TryExecute([] {}));
  executor.Shutdown();  // idempotent
}

}  // namespace
}  // namespace apogee::remoting
