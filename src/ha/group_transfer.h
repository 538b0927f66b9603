// GroupTransfer: SYNC_MASTER puts waiting for a slave's acknowledgement (Java's
// GroupTransferService, with CompletableFuture-style completion as 4.7+). A put registers
// {next_offset, deadline, done}; an ack at or past next_offset completes it with PUT_OK on
// the thread that delivered the ack; a put still waiting at its deadline completes with
// FLUSH_SLAVE_TIMEOUT on this service's timer thread, which starts with the first wait (an
// ASYNC_MASTER never has one). Any one slave's ack suffices: the
// acked offset is the maximum over all slaves (push2SlaveMaxOffset).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "base/clock.h"
#include "base/service_thread.h"
#include "store/put_status.h"

namespace apogee::ha {

class GroupTransfer : public ServiceThread {
 public:
  using Done = std::function<void(store::PutStatus)>;

  explicit GroupTransfer(const Clock* clock = Clock::Real());
  ~GroupTransfer() override;

  // Completes `done` once acked_offset() >= next_offset (at once if it already is), or
  // with kFlushSlaveTimeout after `timeout_ms`.
  void Wait(int64_t next_offset, int64_t timeout_ms, Done done);
  // A slave acknowledged `offset`; completes every wait it satisfies.
  void OnAck(int64_t offset);
  int64_t acked_offset() const { return acked_.load(std::memory_order_acquire); }
  size_t pending() const;
  // Stops the timer thread; waits still pending complete with kFlushSlaveTimeout.
  void Stop();

 protected:
  void Run() override;

 private:
  struct Request {
    int64_t deadline_ms;
    Done done;
  };
  void ExpireOverdue();

  const Clock* clock_;
  std::atomic<int64_t> acked_{0};
  mutable std::mutex mu_;
  std::multimap<int64_t, Request> waiting_;  // by next_offset; guarded by mu_
  bool stopped_ = false;                     // guarded by mu_
};

}  // namespace apogee::ha
