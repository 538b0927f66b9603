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

// A fixed number of threads over a bounded FIFO queue.
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

 private:
  void Loop();

  const std::string name_;
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;  // guarded by mu_
  bool shutdown_ = false;                    // guarded by mu_
  std::vector<std::thread> threads_;
};

}  // namespace apogee::remoting
