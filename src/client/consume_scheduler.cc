#include "client/consume_scheduler.h"

#include <chrono>

#include "base/clock.h"
#include "base/logging.h"

namespace apogee::client {

DelayedTaskRunner::~DelayedTaskRunner() { Shutdown(); }

void DelayedTaskRunner::Start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable() || stopped_) return;
  thread_ = std::thread([this] { Loop(); });
}

void DelayedTaskRunner::Shutdown() {
  {
    std::lock_guard lock(mu_);
    stopped_ = true;
    tasks_.clear();
  }
  cv_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

bool DelayedTaskRunner::ExecuteLater(int64_t delay_ms, std::function<void()> task) {
  {
    std::lock_guard lock(mu_);
    if (stopped_) return false;
    tasks_.emplace(std::make_pair(SteadyMillis() + (delay_ms > 0 ? delay_ms : 0), sequence_++),
                   std::move(task));
  }
  cv_.notify_all();
  return true;
}

size_t DelayedTaskRunner::pending() const {
  std::lock_guard lock(mu_);
  return tasks_.size();
}

void DelayedTaskRunner::Loop() {
  std::unique_lock lock(mu_);
  while (!stopped_) {
    if (tasks_.empty()) {
      cv_.wait(lock);
      continue;
    }
    auto first = tasks_.begin();
    const int64_t now = SteadyMillis();
    if (first->first.first > now) {
      cv_.wait_for(lock, std::chrono::milliseconds(first->first.first - now));
      continue;
    }
    std::function<void()> task = std::move(first->second);
    tasks_.erase(first);
    lock.unlock();
    task();
    lock.lock();
  }
}

}  // namespace apogee::client
