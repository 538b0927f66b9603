#include "base/scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace apogee {
namespace {

using namespace std::chrono_literals;
using Lane = Scheduler::LaneKind;

// Waits (bounded) until `pred` holds; no timing assertions, only progress.
template <typename Pred>
bool Eventually(Pred pred) {
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return pred();
}

// Records the order jobs ran in.
struct Log {
  std::mutex mu;
  std::vector<std::string> runs;
  void Add(std::string s) {
    std::lock_guard lock(mu);
    runs.push_back(std::move(s));
  }
  std::vector<std::string> Get() {
    std::lock_guard lock(mu);
    return runs;
  }
};

TEST(SchedulerTest, RunsJobsInDeadlineOrder) {
  Scheduler scheduler("sched-test");
  Log log;
  // Held until all three are queued, so their first deadlines alone decide the order.
  std::promise<void> gate;
  std::shared_future<void> open = gate.get_future().share();
  ScheduledJob hold = scheduler.Every("hold", Lane::kQuick, 0, [] { return 1'000'000; }, [&] {
    open.wait();
    return Status::OK();
  });
  ScheduledJob c = scheduler.Every("c", Lane::kQuick, 300, [] { return 1'000'000; }, [&] {
    log.Add("c");
    return Status::OK();
  });
  ScheduledJob a = scheduler.Every("a", Lane::kQuick, 100, [] { return 1'000'000; }, [&] {
    log.Add("a");
    return Status::OK();
  });
  ScheduledJob b = scheduler.Every("b", Lane::kQuick, 200, [] { return 1'000'000; }, [&] {
    log.Add("b");
    return Status::OK();
  });
  gate.set_value();
  ASSERT_TRUE(Eventually([&] { return log.Get().size() == 3; }));
  EXPECT_EQ(log.Get(), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(SchedulerTest, RepeatsWithTheIntervalReadAfterEachRun) {
  Scheduler scheduler("sched-test");
  std::atomic<int> runs{0};
  std::atomic<int> interval_reads{0};
  ScheduledJob job = scheduler.Every(
      "repeat", Lane::kQuick, 0,
      [&] {
        interval_reads.fetch_add(1);
        return 1;
      },
      [&] {
        runs.fetch_add(1);
        return Status::OK();
      });
  ASSERT_TRUE(Eventually([&] { return runs.load() >= 5; }));
  job.Cancel();
  EXPECT_GE(interval_reads.load(), 4);
}

TEST(SchedulerTest, RunNowCutsALongWaitShort) {
  Scheduler scheduler("sched-test");
  std::atomic<int> runs{0};
  ScheduledJob job = scheduler.Every("slow", Lane::kQuick, 3'600'000, [&] {
    runs.fetch_add(1);
    return Status::OK();
  });
  job.RunNow();
  ASSERT_TRUE(Eventually([&] { return runs.load() == 1; }));
  job.RunNow();
  ASSERT_TRUE(Eventually([&] { return runs.load() == 2; }));
}

TEST(SchedulerTest, RunNowDuringARunRunsOnceMoreAfterIt) {
  Scheduler scheduler("sched-test");
  std::atomic<int> runs{0};
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  ScheduledJob job = scheduler.Every("job", Lane::kQuick, 0, [] { return 3'600'000; }, [&] {
    if (runs.fetch_add(1) == 0) {
      entered.set_value();
      released.wait();
    }
    return Status::OK();
  });
  entered.get_future().wait();
  job.RunNow();
  job.RunNow();  // merged with the previous one
  release.set_value();
  ASSERT_TRUE(Eventually([&] { return runs.load() == 2; }));
  std::this_thread::sleep_for(20ms);  // a third run would show up here
  EXPECT_EQ(runs.load(), 2);
}

TEST(SchedulerTest, CancelWaitsForTheRunningJobAndStopsIt) {
  Scheduler scheduler("sched-test");
  std::atomic<int> runs{0};
  std::atomic<bool> in_job{false};
  std::promise<void> entered;
  ScheduledJob job = scheduler.Every("job", Lane::kQuick, 0, [] { return 1; }, [&] {
    in_job = true;
    if (runs.fetch_add(1) == 0) {
      entered.set_value();
      std::this_thread::sleep_for(50ms);
    }
    in_job = false;
    return Status::OK();
  });
  entered.get_future().wait();
  job.Cancel();
  EXPECT_FALSE(in_job.load());  // Cancel returned only after the run ended
  const int after_cancel = runs.load();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(runs.load(), after_cancel);
  job.RunNow();  // a no-op once cancelled
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(runs.load(), after_cancel);
  job.Cancel();  // idempotent
}

TEST(SchedulerTest, DestroyingTheHandleCancels) {
  Scheduler scheduler("sched-test");
  std::atomic<int> runs{0};
  {
    ScheduledJob job = scheduler.Every("job", Lane::kQuick, 10, [&] {
      runs.fetch_add(1);
      return Status::OK();
    });
  }
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(runs.load(), 0);
}

TEST(SchedulerTest, AJobMayCancelItself) {
  Scheduler scheduler("sched-test");
  std::atomic<int> runs{0};
  ScheduledJob job;
  std::mutex mu;  // job is assigned after Every returns; the first run waits for that
  std::unique_lock assigning(mu);
  job = scheduler.Every("self", Lane::kQuick, 0, [] { return 1; }, [&] {
    std::lock_guard lock(mu);
    runs.fetch_add(1);
    job.Cancel();
    return Status::OK();
  });
  assigning.unlock();
  ASSERT_TRUE(Eventually([&] { return runs.load() == 1; }));
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(runs.load(), 1);
}

TEST(SchedulerTest, AJobThatFailsOrThrowsStaysScheduledAndOthersRun) {
  Scheduler scheduler("sched-test");
  std::atomic<int> failing{0};
  std::atomic<int> throwing{0};
  std::atomic<int> healthy{0};
  ScheduledJob a = scheduler.Every("failing", Lane::kQuick, 1, [&] {
    failing.fetch_add(1);
    return Status::IOError("disk on fire");
  });
  ScheduledJob b = scheduler.Every("throwing", Lane::kQuick, 1, [&]() -> Status {
    throwing.fetch_add(1);
    throw std::runtime_error("boom");
  });
  ScheduledJob c = scheduler.Every("healthy", Lane::kQuick, 1, [&] {
    healthy.fetch_add(1);
    return Status::OK();
  });
  ASSERT_TRUE(Eventually([&] { return failing >= 3 && throwing >= 3 && healthy >= 3; }));
}

TEST(SchedulerTest, ABlockedSlowJobDoesNotStallTheQuickLane) {
  Scheduler scheduler("sched-test");
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> slow_entered{false};
  ScheduledJob slow = scheduler.Every("register", Lane::kBlocking, 0, [] { return 3'600'000; },
                                      [&] {
                                        slow_entered = true;
                                        released.wait();
                                        return Status::OK();
                                      });
  ASSERT_TRUE(Eventually([&] { return slow_entered.load(); }));
  std::atomic<int> quick{0};
  ScheduledJob q = scheduler.Every("sample", Lane::kQuick, 1, [&] {
    quick.fetch_add(1);
    return Status::OK();
  });
  EXPECT_TRUE(Eventually([&] { return quick.load() >= 3; }));
  release.set_value();
}

// The lane threads' names, as the kernel lists them for this process.
std::vector<std::string> ThreadNames() {
  std::vector<std::string> names;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    names.push_back(name);
  }
  return names;
}

size_t CountNamed(const std::string& name) {
  size_t n = 0;
  for (const std::string& t : ThreadNames()) n += t == name ? 1 : 0;
  return n;
}

TEST(SchedulerTest, OneThreadPerLaneStartedOnDemandAndStopJoins) {
  auto scheduler = std::make_unique<Scheduler>("schedT");
  EXPECT_EQ(CountNamed("schedT"), 0u);
  std::vector<ScheduledJob> jobs;
  std::atomic<int> runs{0};
  for (int i = 0; i < 8; ++i) {
    jobs.push_back(scheduler->Every("job" + std::to_string(i), Lane::kQuick, 1, [&] {
      runs.fetch_add(1);
      return Status::OK();
    }));
  }
  ASSERT_TRUE(Eventually([&] { return runs.load() >= 16; }));
  EXPECT_EQ(CountNamed("schedT"), 1u);
  EXPECT_EQ(CountNamed("schedTSlow"), 0u);
  jobs.push_back(scheduler->Every("slow", Lane::kBlocking, 1, [] { return Status::OK(); }));
  ASSERT_TRUE(Eventually([] { return CountNamed("schedTSlow") == 1; }));

  // Stop waits for a running job, joins both threads, and nothing runs after it.
  std::atomic<bool> in_job{false};
  std::promise<void> entered;
  bool entered_set = false;
  jobs.push_back(scheduler->Every("long", Lane::kQuick, 0, [] { return 1; }, [&] {
    in_job = true;
    if (!entered_set) {
      entered_set = true;
      entered.set_value();
    }
    std::this_thread::sleep_for(30ms);
    in_job = false;
    return Status::OK();
  }));
  entered.get_future().wait();
  scheduler->Stop();
  EXPECT_FALSE(in_job.load());
  EXPECT_EQ(CountNamed("schedT"), 0u);
  EXPECT_EQ(CountNamed("schedTSlow"), 0u);
  const int after_stop = runs.load();
  // Scheduling after Stop runs nothing; handles outlive the scheduler safely.
  jobs.push_back(scheduler->Every("late", Lane::kQuick, 0, [&] {
    runs.fetch_add(1);
    return Status::OK();
  }));
  scheduler.reset();
  std::this_thread::sleep_for(10ms);
  EXPECT_EQ(runs.load(), after_stop);
  for (auto& job : jobs) job.RunNow();
  jobs.clear();  // cancels on a stopped, destroyed scheduler: no-ops
}

}  // namespace
}  // namespace apogee
