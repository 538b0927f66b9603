#include "remoting/executor.h"

#include <pthread.h>

#include <algorithm>
#include <thread>

namespace apogee::remoting {

namespace {
// Set on a pool thread whose pool was shut down from that very thread (the last reference
// to the pool was dropped by one of its own tasks): Loop must then return without touching
// the pool, which may be gone.
thread_local bool t_pool_shut_down_here = false;
}  // namespace

ThreadPoolExecutor::ThreadPoolExecutor(std::string name, size_t threads, size_t queue_capacity)
    : name_(std::move(name)), max_threads_(std::max<size_t>(threads, 1)), capacity_(queue_capacity) {
  threads_.reserve(max_threads_);
}

ThreadPoolExecutor::~ThreadPoolExecutor() { Shutdown(); }

bool ThreadPoolExecutor::TryExecute(std::function<void()> task) {
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    if (shutdown_ || queue_.size() >= capacity_) return false;
    queue_.push_back(std::move(task));
    // Tasks queued beyond the idle threads need one more thread, while the pool may grow.
    if (queue_.size() > idle_ && threads_.size() < max_threads_) {
      const size_t index = threads_.size();
      threads_.emplace_back([this, index] { Loop(index); });
    } else {
      wake = idle_ > 0;
    }
  }
  if (wake) cv_.notify_one();
  return true;
}

void ThreadPoolExecutor::Loop(size_t index) {
  std::string thread_name = (name_ + "-" + std::to_string(index)).substr(0, 15);
  pthread_setname_np(pthread_self(), thread_name.c_str());
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mu_);
      ++idle_;
      cv_.wait(lock, [this] { return shutdown_ || !queue_.empty(); });
      --idle_;
      if (queue_.empty()) return;  // shut down and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
    // The task's captures may hold the last reference to this pool: destroy them here, then
    // leave at once if that shut the pool down (and destroyed it) on this thread.
    task = nullptr;
    if (t_pool_shut_down_here) return;
  }
}

void ThreadPoolExecutor::Shutdown() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    shutdown_ = true;
  }
  cv_.notify_all();
  // No thread starts after shutdown_ is set, so the list is final; join outside the lock
  // (a running task may still call TryExecute, which then sees shutdown_ and refuses).
  {
    std::lock_guard lock(mu_);
    threads.swap(threads_);
  }
  for (auto& t : threads) {
    if (!t.joinable()) continue;
    if (t.get_id() == std::this_thread::get_id()) {
      // Called by one of its own tasks (typically ~ThreadPoolExecutor when a task dropped
      // the last reference): a thread cannot join itself. It ends on its own (Loop).
      t.detach();
      t_pool_shut_down_here = true;
      continue;
    }
    t.join();
  }
}

size_t ThreadPoolExecutor::started_threads() const {
  std::lock_guard lock(mu_);
  return threads_.size();
}

size_t ThreadPoolExecutor::queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

}  // namespace apogee::remoting
