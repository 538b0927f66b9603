#include "client/consume_scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "testutil/test_util.h"

namespace apogee::client {
namespace {

TEST(DelayedTaskRunnerTest, RunsInDueOrder) {
  DelayedTaskRunner runner("test");
  runner.Start();
  std::mutex mu;
  std::vector<int> order;
  auto record = [&](int v) {
    return [&, v] {
      std::lock_guard lock(mu);
      order.push_back(v);
    };
  };
  runner.ExecuteLater(200, record(3));
  runner.ExecuteLater(50, record(2));
  runner.Execute(record(1));
  runner.Execute(record(11));  // same due time: FIFO
  ASSERT_TRUE(testing::WaitUntil(
      [&] {
        std::lock_guard lock(mu);
        return order.size() == 4;
      },
      std::chrono::seconds(5)));
  EXPECT_EQ(order, (std::vector<int>{1, 11, 2, 3}));
}

TEST(DelayedTaskRunnerTest, ShutdownDropsPendingAndRejectsNew) {
  DelayedTaskRunner runner("test");
  runner.Start();
  std::atomic<int> ran{0};
  runner.ExecuteLater(60'000, [&] { ++ran; });
  EXPECT_EQ(runner.pending(), 1u);
  runner.Shutdown();
  EXPECT_EQ(runner.pending(), 0u);
  EXPECT_FALSE(runner.ExecuteLater(0, [&] { ++ran; }));
  EXPECT_EQ(ran.load(), 0);
}

TEST(DelayedTaskRunnerTest, TasksMayScheduleTasks) {
  DelayedTaskRunner runner("test");
  runner.Start();
  std::atomic<int> ran{0};
  runner.Execute([&] {
    ++ran;
    runner.ExecuteLater(10, [&] { ++ran; });
  });
  EXPECT_TRUE(testing::WaitUntil([&] { return ran.load() == 2; }, std::chrono::seconds(5)));
}

}  // namespace
}  // namespace apogee::client
