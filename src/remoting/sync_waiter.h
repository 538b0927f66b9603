// SyncWaiter: how a caller of InvokeSync waits for the answer an IO thread delivers.
//
// A sleeping caller costs a futex wake-up on the IO thread and, on a virtual machine, waking a
// halted vCPU before the caller runs again: about 20 µs of a 47 µs round trip on the 2-core
// test VM (docs/benchmarks.md, "The client's sync send: the caller waits by spinning first").
// So the caller first polls the completion flag for a short while and only then sleeps on a
// condition variable. A caller spins only while no other caller sharing its policy waits (one
// policy per RemotingClient, one for the process's Channel calls), and never on one core, so
// spinning does not take the core an IO thread or another sender needs; callers whose recent
// answers took longer than the spin (a SYNC_FLUSH broker, a remote one) stop spinning.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

#include "base/status.h"
#include "protocol/remoting_command.h"

namespace apogee::remoting {

// Long enough to cover a round trip to a broker on the same machine or the same rack answering
// from page cache (p99 ~115 us on the test VM), short enough that a caller of a slower broker
// wastes little before it learns to sleep at once.
inline constexpr std::chrono::microseconds kDefaultSyncWaitSpin{120};

// Whether and how long callers spin; one per RemotingClient, SyncWaiter::DefaultSpinPolicy for
// the rest of the process, tests make their own.
class SyncSpinPolicy {
 public:
  // spin_budget zero: never spin.
  SyncSpinPolicy(std::chrono::nanoseconds spin_budget, unsigned cores);

  // A caller counts itself in before it waits and out after. While it is the only one waiting
  // it may spin (Spin()); with others waiting, the cores are better left to the IO threads
  // and the callers that have work.
  void Enter();
  void Leave() { waiters_.fetch_sub(1, std::memory_order_relaxed); }
  // Whether an entered caller should go on spinning: it waits alone and the last
  // kAloneBeforeSpinning callers did too (several senders that take turns are seldom alone
  // for long), the machine has more than one core, and recent waits were shorter than the
  // budget.
  bool Spin() const {
    return enabled_ && waiters_.load(std::memory_order_relaxed) == 1 &&
           shared_countdown_.load(std::memory_order_relaxed) == 0 &&
           mean_wait_ns_.load(std::memory_order_relaxed) <= budget_.count();
  }
  static constexpr int kAloneBeforeSpinning = 16;
  // Feeds the wait a caller just finished into the running mean the decision reads.
  void Record(std::chrono::nanoseconds waited);

  std::chrono::nanoseconds budget() const { return budget_; }

 private:
  const std::chrono::nanoseconds budget_;
  const bool enabled_;
  std::atomic<int> waiters_{0};
  // Callers still to enter alone before spinning resumes; reset whenever one finds company.
  std::atomic<int> shared_countdown_{0};
  // Mean of recent waits in ns (each new wait weighs 1/8).
  std::atomic<int64_t> mean_wait_ns_{0};
};

class SyncWaiter {
 public:
  explicit SyncWaiter(SyncSpinPolicy& policy = DefaultSpinPolicy()) : policy_(policy) {}
  SyncWaiter(const SyncWaiter&) = delete;
  SyncWaiter& operator=(const SyncWaiter&) = delete;

  // Called once, from any thread. The waiter may be destroyed as soon as Wait returns, so this
  // touches nothing of it after releasing the lock.
  void Complete(Result<protocol::RemotingCommand> result);
  // Blocks until Complete has run and returns its result.
  Result<protocol::RemotingCommand> Wait();

  static SyncSpinPolicy& DefaultSpinPolicy();

 private:
  SyncSpinPolicy& policy_;
  std::optional<Result<protocol::RemotingCommand>> result_;
  std::atomic<bool> done_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  bool sleeping_ = false;  // guarded by mu_
};

}  // namespace apogee::remoting
