// IoContextPool: the IO threads of a server or client. N Asio io_contexts, each run by
// one thread, so everything bound to one io_context (a connection, its timers) runs
// serialized without locks (docs/architecture.md "Threads").
//
// Thread-safety: Start/Stop must be called from one owning thread; Next() and
// context(i) are safe from any thread once the pool is constructed. io_contexts are
// handed out as shared_ptr so an object that owns sockets (a connection) can keep its
// io_context alive after the pool is gone.
#pragma once

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace apogee::net {

class IoContextPool {
 public:
  // `threads` == 0 means one per hardware thread. `name` prefixes the thread names.
  explicit IoContextPool(size_t threads, std::string name = "io");
  ~IoContextPool();  // Stop()
  IoContextPool(const IoContextPool&) = delete;
  IoContextPool& operator=(const IoContextPool&) = delete;

  // Starts one thread per io_context. Idempotent.
  void Start();
  // Lets the threads finish the work that is left (sockets must have been closed and
  // timers cancelled by their owners), then joins them. Idempotent.
  void Stop();
  // Stops the io_contexts at once (pending handlers are not run) and joins the threads.
  void StopNow();

  // Round-robin choice of an io_context for a new connection.
  const std::shared_ptr<boost::asio::io_context>& Next();
  const std::shared_ptr<boost::asio::io_context>& context(size_t i) const { return contexts_[i]; }
  size_t size() const { return contexts_.size(); }
  // True when the calling thread is one of this pool's threads.
  bool InPoolThread() const;

 private:
  using WorkGuard = boost::asio::executor_work_guard<boost::asio::io_context::executor_type>;

  std::string name_;
  std::vector<std::shared_ptr<boost::asio::io_context>> contexts_;
  std::vector<std::optional<WorkGuard>> guards_;
  std::vector<std::thread> threads_;
  std::atomic<size_t> next_{0};
  bool started_ = false;
};

}  // namespace apogee::net
