#include "base/service_thread.h"

#include <pthread.h>

#include <chrono>

namespace apogee {

ServiceThread::~ServiceThread() {
  // Subclasses must call Shutdown() in their own destructor: by the time this runs the
  // derived part that Run() uses is gone. Join anyway so the thread never outlives us.
  if (thread_.joinable()) {
    stopped_.store(true, std::memory_order_release);
    Notify();
    thread_.join();
  }
}

void ServiceThread::Start() {
  bool expected = false;
  if (!started_.compare_exchange_strong(expected, true)) return;
  stopped_.store(false, std::memory_order_release);
  thread_ = std::thread([this] {
    // Thread names are limited to 15 characters on Linux.
    pthread_setname_np(pthread_self(), name_.substr(0, 15).c_str());
    Run();
  });
}

void ServiceThread::Shutdown() {
  stopped_.store(true, std::memory_order_release);
  Notify();  // never the fast path: the loop must see stopped_ now
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void ServiceThread::Wakeup() {
  if (wake_pending_.exchange(true, std::memory_order_acq_rel)) return;
  Notify();
}

void ServiceThread::Notify() {
  {
    std::lock_guard lock(mu_);
    notified_ = true;
  }
  cv_.notify_one();
}

void ServiceThread::WaitForRunning(int64_t interval_ms) {
  {
    std::unique_lock lock(mu_);
    if (!notified_ && !stopped()) {
      cv_.wait_for(lock, std::chrono::milliseconds(interval_ms),
                   [this] { return notified_ || stopped(); });
    }
    // Clear the pending flag before consuming notified_, with an exchange: a Wakeup() that
    // still finds it set is ordered before this (its writes are visible to the work that
    // follows); one that finds it clear takes the slow path and sets notified_ again, so the
    // next wait returns at once. Clearing it after notified_ would lose such a wake-up.
    wake_pending_.exchange(false, std::memory_order_acq_rel);
    notified_ = false;
  }
  OnWaitEnd();
}

}  // namespace apogee
