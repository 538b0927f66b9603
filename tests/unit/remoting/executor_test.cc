#include "remoting/executor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

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

TEST(ThreadPoolExecutorTest, RejectsAfterShutdown) {
  ThreadPoolExecutor executor("test", 1, 10);
  executor.Shutdown();
  EXPECT_FALSE(executor.TryExecute([] {}));
  executor.Shutdown();  // idempotent
}

}  // namespace
}  // namespace apogee::remoting
