#include "ha/group_transfer.h"

#include <utility>
#include <vector>

namespace apogee::ha {
namespace {

// Deadlines are checked this often (Java's GroupTransferService loops every 10 ms).
constexpr int64_t kTimerTickMs = 10;

}  // namespace

GroupTransfer::GroupTransfer(const Clock* clock)
    : ServiceThread("HAGroupTransfer"), clock_(clock) {}

GroupTransfer::~GroupTransfer() { Stop(); }

void GroupTransfer::Wait(int64_t next_offset, int64_t timeout_ms, Done done) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopped_ && acked_offset() < next_offset) {
      // The deadline thread starts with the first wait: only a SYNC_MASTER ever waits, so
      // an ASYNC_MASTER idles without it. Under mu_, so Stop() cannot come in between.
      Start();
      waiting_.emplace(next_offset, Request{clock_->SteadyMillis() + timeout_ms, std::move(done)});
      return;
    }
  }
  // Already acknowledged, or shutting down: answer on the caller's thread, outside the lock.
  done(acked_offset() >= next_offset ? store::PutStatus::kPutOk
                                     : store::PutStatus::kFlushSlaveTimeout);
}

void GroupTransfer::OnAck(int64_t offset) {
  int64_t prev = acked_.load(std::memory_order_acquire);
  while (offset > prev && !acked_.compare_exchange_weak(prev, offset)) {
  }
  std::vector<Done> ready;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto end = waiting_.upper_bound(offset);
    for (auto it = waiting_.begin(); it != end; ++it) ready.push_back(std::move(it->second.done));
    waiting_.erase(waiting_.begin(), end);
  }
  for (Done& d : ready) d(store::PutStatus::kPutOk);
}

size_t GroupTransfer::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return waiting_.size();
}

void GroupTransfer::ExpireOverdue() {
  const int64_t now = clock_->SteadyMillis();
  std::vector<Done> expired;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (stopped_ || it->second.deadline_ms <= now) {
        expired.push_back(std::move(it->second.done));
        it = waiting_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (Done& d : expired) d(store::PutStatus::kFlushSlaveTimeout);
}

void GroupTransfer::Run() {
  while (!stopped()) {
    WaitForRunning(kTimerTickMs);
    ExpireOverdue();
  }
}

void GroupTransfer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
  }
  Shutdown();
  ExpireOverdue();
}

}  // namespace apogee::ha
