#include "base/service_thread.h"

#include <gtest/gtest.h>

#include <atomic>

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

}  // namespace
}  // namespace apogee
