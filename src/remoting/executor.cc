#include "remoting/executor.h"

#include <pthread.h>

#include <algorithm>

namespace apogee::remoting {

ThreadPoolExecutor::ThreadPoolExecutor(std::string name, size_t threads, size_t queue_capacity)
    : name_(std::move(name)), capacity_(queue_capacity) {
  threads = std::max<size_t>(threads, 1);
  for (size_t i = 0; i < threads; ++i) {
    threads_.emplace_back([this, i] {
      std::string thread_name = (name_ + "-" + std::to_string(i)).substr(0, 15);
      pthread_setname_np(pthread_self(), thread_name.c_str());
      Loop();
    });
  }
}

ThreadPoolExecutor::~ThreadPoolExecutor() { Shutdown(); }

bool ThreadPoolExecutor::TryExecute(std::function<void()> task) {
  {
    std::lock_guard lock(mu_);
    if (shutdown_ || queue_.size() >= capacity_) return false;
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
  return true;
}

void ThreadPoolExecutor::Loop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return shutdown_ || !queue_.empty(); });
      if (queue_.empty()) return;  // shut down and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

void ThreadPoolExecutor::Shutdown() {
  {
    std::lock_guard lock(mu_);
    shutdown_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
}

size_t ThreadPoolExecutor::queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

}  // namespace apogee::remoting
