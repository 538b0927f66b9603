// Executors for request processors: each request family (send, pull, admin, heartbeat)
// gets its own small pool so a slow family cannot starve the others (RocketMQ's
// sendMessageExecutor, pullMessageExecutor, ...). A processor registered without an
// executor runs inline on the IO thread and must then be cheap and non-blocking.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace apogee::remoting {

// Thread-safety: every method may be called from any thread.
class Executor {
 public:
  virtual ~Executor() = default;
  // Queues `task`; false when the executor is full or shut down (the server then
  // answers SYSTEM_BUSY, as Java does on RejectedExecutionException).
  virtual bool TryExecute(std::function<void()> task) = 0;
};

// Up to `threads` threads over a bounded FIFO queue. Threads start on demand: a task queued
// while no thread is idle starts one more, up to the maximum, and started threads stay until
// Shutdown(). A broker with a dozen families therefore idles with only the threads its
// traffic ever needed (the idle count is in docs/benchmarks.md), while a configured pool size
// (Java's *ThreadPoolNums keys) still bounds the concurrency under load.
class ThreadPoolExecutor final : public Executor {
 public:
  // `queue_capacity` bounds the tasks waiting (not counting those running).
  ThreadPoolExecutor(std::string name, size_t threads, size_t queue_capacity);
  ~ThreadPoolExecutor() override;  // Shutdown()
  ThreadPoolExecutor(const ThreadPoolExecutor&) = delete;
  ThreadPoolExecutor& operator=(const ThreadPoolExecutor&) = delete;

  bool TryExecute(std::function<void()> task) override;
  // Rejects new tasks, runs the queued ones, joins the threads. Idempotent.
  void Shutdown();
  size_t queued() const;
  // Threads started so far (at most the maximum given to the constructor).
  size_t started_threads() const;

 private:
  void Loop(size_t index);

  const std::string name_;
  const size_t max_threads_;
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;  // guarded by mu_
  bool shutdown_ = false;                    // guarded by mu_
  size_t idle_ = 0;                          // guarded by mu_: threads waiting for a task
  std::vector<std::thread> threads_;         // guarded by mu_
};

}  // namespace apogee::remoting
