#include "base/service_thread.h"

#include <pthread.h>

#include <chrono>
#include <utility>
#include <vector>

#include "base/wakeup_batch.h"

namespace apogee {

namespace {

struct WakeupBatchState {
  int depth = 0;
  // Keep their capacity between batches: no allocation per read once warmed up.
  std::vector<std::pair<ServiceThread*, void (*)(ServiceThread*)>> held;
  std::vector<std::pair<void*, bool (*)(void*)>> actions;
};

thread_local WakeupBatchState t_wakeup_batch;

}  // namespace

ScopedWakeupBatch::ScopedWakeupBatch() { ++t_wakeup_batch.depth; }

ScopedWakeupBatch::~ScopedWakeupBatch() { Finish(); }

bool ScopedWakeupBatch::Finish() {
  if (finished_) return true;
  finished_ = true;
  WakeupBatchState& batch = t_wakeup_batch;
  if (--batch.depth > 0) return true;
  // Actions first: what they write is what the woken threads look for.
  bool ok = true;
  for (size_t i = 0; i < batch.actions.size(); ++i) {
    const auto [target, action] = batch.actions[i];
    if (!action(target)) ok = false;
  }
  batch.actions.clear();
  // Each thread is here once: its wake-up stays pending (ServiceThread::wake_pending_) until
  // it runs, so later Wakeup() calls on it returned early.
  for (const auto& [thread, notify] : batch.held) notify(thread);
  batch.held.clear();
  return ok;
}

bool ScopedWakeupBatch::DeferAction(void* target, bool (*action)(void*)) {
  WakeupBatchState& batch = t_wakeup_batch;
  if (batch.depth == 0) return false;
  for (const auto& queued : batch.actions) {
    if (queued.first == target && queued.second == action) return true;
  }
  batch.actions.emplace_back(target, action);
  return true;
}

bool ScopedWakeupBatch::Defer(ServiceThread* thread, void (*notify)(ServiceThread*)) {
  WakeupBatchState& batch = t_wakeup_batch;
  if (batch.depth == 0) return false;
  batch.held.emplace_back(thread, notify);
  return true;
}

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
  if (ScopedWakeupBatch::Defer(this, [](ServiceThread* t) { t->Notify(); })) return;
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
