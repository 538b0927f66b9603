#include "admin/bench_runner.h"

#include <gtest/gtest.h>

#include <sstream>
#include <thread>

namespace apogee::admin {
namespace {

// Records `total` successes from one thread, `per_ms` per millisecond, then finishes.
class FakeWorkload : public BenchWorkload {
 public:
  FakeWorkload(int64_t total, int per_ms) : total_(total), per_ms_(per_ms) {}
  ~FakeWorkload() override { Stop(); }

  Status Start(BenchStats* stats) override {
    thread_ = std::thread([this, stats] {
      int64_t sent = 0;
      while (!stop_ && sent < total_) {
        for (int i = 0; i < per_ms_ && sent < total_; ++i, ++sent) stats->RecordSuccess(100, 1, 10);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      done_ = true;
    });
    return Status::OK();
  }
  bool Finished() const override { return done_; }
  void Stop() override {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    ++stops_;
  }
  int stops() const { return stops_; }

 private:
  int64_t total_;
  int per_ms_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> done_{false};
  int stops_ = 0;
};

class FailingWorkload : public BenchWorkload {
 public:
  Status Start(BenchStats*) override { return Status::NotFound("No route info of this topic: T"); }
  bool Finished() const override { return false; }
  void Stop() override {}
};

TEST(BenchRunnerTest, StopsWhenTheWorkloadFinishesAndSummarizes) {
  BenchConfig config;
  config.message_quantity = 500;
  config.report_interval_ms = 100;
  FakeWorkload w(500, 5);  // ~100 ms of work
  std::ostringstream out;
  auto s = RunWorkload(config, &w, out, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->ok, 500);
  EXPECT_EQ(s->bytes, 5000);
  EXPECT_GT(s->tps, 0);
  EXPECT_DOUBLE_EQ(s->p50_ms, 0.1);
  EXPECT_NE(out.str().find("=== mqbench producer summary ==="), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("total 500 / 500 (100%)"), std::string::npos) << out.str();
}

TEST(BenchRunnerTest, DurationEndsAnEndlessWorkloadAndJsonReplacesTheText) {
  BenchConfig config;
  config.duration_seconds = 0.35;
  config.report_interval_ms = 100;
  config.json = true;
  FakeWorkload w(INT64_MAX, 1);
  std::ostringstream out;
  auto s = RunWorkload(config, &w, out, nullptr);
  ASSERT_TRUE(s.ok());
  EXPECT_GE(s->elapsed_seconds, 0.35);
  EXPECT_LT(s->elapsed_seconds, 5.0);
  EXPECT_EQ(w.stops(), 1);
  std::string text = out.str();
  EXPECT_GE(std::count(text.begin(), text.end(), '\n'), 3);  // per-interval lines, then JSON
  EXPECT_EQ(text.find("summary ==="), std::string::npos);
  EXPECT_NE(text.rfind("{\"mode\":\"producer\""), std::string::npos);
}

TEST(BenchRunnerTest, InterruptStopsAtOnce) {
  BenchConfig config;
  std::atomic<bool> interrupted{true};
  FakeWorkload w(INT64_MAX, 1);
  std::ostringstream out;
  auto s = RunWorkload(config, &w, out, &interrupted);
  ASSERT_TRUE(s.ok());
  EXPECT_LT(s->elapsed_seconds, 1.0);
}

TEST(BenchRunnerTest, StartErrorIsReturned) {
  BenchConfig config;
  FailingWorkload w;
  std::ostringstream out;
  auto s = RunWorkload(config, &w, out, nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("No route info"), std::string::npos);
}

}  // namespace
}  // namespace apogee::admin
