// DelayedTaskRunner: one thread that runs tasks at or after their due time, in due order.
// The push consumer uses one as its PullMessageService (pull requests are cheap: they only
// start an async PULL_MESSAGE) and one for delayed consume work (resubmits, orderly
// re-locks), so a slow lock RPC never holds up pulls. Java uses a ScheduledExecutorService
// and a LinkedBlockingQueue for the same jobs.
//
// Thread-safety: every method may be called from any thread, including from a task.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace apogee::client {

class DelayedTaskRunner {
 public:
  explicit DelayedTaskRunner(std::string name) : name_(std::move(name)) {}
  ~DelayedTaskRunner();  // Shutdown()
  DelayedTaskRunner(const DelayedTaskRunner&) = delete;
  DelayedTaskRunner& operator=(const DelayedTaskRunner&) = delete;

  void Start();
  // Drops the tasks not yet run and joins the thread. Idempotent.
  void Shutdown();

  void Execute(std::function<void()> task) { ExecuteLater(0, std::move(task)); }
  // False after Shutdown().
  bool ExecuteLater(int64_t delay_ms, std::function<void()> task);
  size_t pending() const;

 private:
  void Loop();

  const std::string name_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  // (due steady ms, sequence) -> task; the sequence keeps equal due times in FIFO order.
  std::map<std::pair<int64_t, uint64_t>, std::function<void()>> tasks_;  // guarded by mu_
  uint64_t sequence_ = 0;                                                // guarded by mu_
  bool stopped_ = false;                                                 // guarded by mu_
  std::thread thread_;
};

}  // namespace apogee::client
