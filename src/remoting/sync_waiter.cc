#include "remoting/sync_waiter.h"

#include <algorithm>
#include <thread>

namespace apogee::remoting {
namespace {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#else
  std::this_thread::yield();
#endif
}

}  // namespace

SyncSpinPolicy::SyncSpinPolicy(std::chrono::nanoseconds spin_budget, unsigned cores)
    : budget_(spin_budget), enabled_(spin_budget.count() > 0 && cores > 1) {}

void SyncSpinPolicy::Enter() {
  // Relaxed and racy between callers on purpose: the countdown is a hint.
  if (waiters_.fetch_add(1, std::memory_order_relaxed) > 0) {
    shared_countdown_.store(kAloneBeforeSpinning, std::memory_order_relaxed);
  } else if (shared_countdown_.load(std::memory_order_relaxed) > 0) {
    shared_countdown_.fetch_sub(1, std::memory_order_relaxed);
  }
}

void SyncSpinPolicy::Record(std::chrono::nanoseconds waited) {
  // A sample counts at most four budgets, so one long call (a long-polling pull waits for
  // seconds) stops the spinning for a few calls, not for hundreds.
  const int64_t sample = std::min<int64_t>(waited.count(), 4 * budget_.count());
  // Racy read-modify-write on purpose: a lost update among concurrent callers only makes the
  // mean a little stale.
  const int64_t mean = mean_wait_ns_.load(std::memory_order_relaxed);
  mean_wait_ns_.store(mean + (sample - mean) / 8, std::memory_order_relaxed);
}

SyncSpinPolicy& SyncWaiter::DefaultSpinPolicy() {
  static SyncSpinPolicy policy(kDefaultSyncWaitSpin, std::thread::hardware_concurrency());
  return policy;
}

void SyncWaiter::Complete(Result<protocol::RemotingCommand> result) {
  result_.emplace(std::move(result));
  std::lock_guard lock(mu_);
  done_.store(true, std::memory_order_release);
  if (sleeping_) cv_.notify_one();
}

Result<protocol::RemotingCommand> SyncWaiter::Wait() {
  const auto start = std::chrono::steady_clock::now();
  bool done = false;
  policy_.Enter();
  if (policy_.Spin()) {
    const auto spin_until = start + policy_.budget();
    // The clock and the other callers are looked at every 64 polls (a poll is a load and a
    // pause, tens of ns).
    for (int i = 1; !(done = done_.load(std::memory_order_acquire)); ++i) {
      CpuRelax();
      if (i % 64 == 0 && (std::chrono::steady_clock::now() >= spin_until || !policy_.Spin())) break;
    }
  }
  {
    // Taken even when the flag was seen: Complete may still hold the lock, and the waiter
    // must not be destroyed before it lets go.
    std::unique_lock lock(mu_);
    if (!done) {
      sleeping_ = true;
      cv_.wait(lock, [this] { return done_.load(std::memory_order_relaxed); });
    }
  }
  policy_.Leave();
  policy_.Record(std::chrono::steady_clock::now() - start);
  return std::move(*result_);
}

}  // namespace apogee::remoting
