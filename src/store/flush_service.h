// The two CommitLog flush policies (docs/protocol/store_ha.md §6.1), each a background thread:
//
//  * GroupCommitService (SYNC_FLUSH): puts submit {end offset, deadline, callback}; every
//    loop (at most 10 ms, or at once when woken by a submit) the thread takes the whole batch,
//    flushes once for all of them and completes each with PUT_OK, or FLUSH_DISK_TIMEOUT once
//    its deadline (syncFlushTimeout) has passed. No put thread ever waits for the disk. Puts
//    submitted while an fdatasync runs leave a wake-up pending, so the next flush starts as
//    soon as the current one returned and covers all of them (no fixed sleep); the callbacks
//    run right there on the flush thread.
//  * FlushRealTimeService (ASYNC_FLUSH): every flushIntervalCommitLog flushes when at least
//    flushCommitLogLeastPages pages are dirty, and everything every
//    flushCommitLogThoroughInterval.
//
// Both record in the checkpoint the store timestamp of the last record known durable. A flush
// error is fatal for writes: `on_error` is called (the store stops accepting puts) and every
// pending SYNC_FLUSH request completes with SERVICE_NOT_AVAILABLE, never PUT_OK.
//
// Callbacks run on the flush thread: they must be short (hand off to another executor).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "base/clock.h"
#include "base/service_thread.h"
#include "base/status.h"
#include "store/flush_stats.h"
#include "store/put_status.h"

namespace apogee::store {

class CommitLog;
class StoreCheckpoint;

using FlushCallback = std::function<void(PutStatus)>;
using FlushErrorHandler = std::function<void(const Status&)>;

// Flushes the CommitLog until everything up to the current end is durable (crossing file
// boundaries) and then advances the checkpoint's physicMsgTimestamp. Shared by both services.
// `stats` (optional) records how long each flush that wrote pages took.
Status FlushCommitLogAndCheckpoint(CommitLog* commit_log, StoreCheckpoint* checkpoint,
                                   int least_pages, FlushStats* stats = nullptr);

class GroupCommitService : public ServiceThread {
 public:
  // `on_flushed` (optional) runs on the flush thread after every flush that made new bytes
  // durable (the store wakes its reput there: under SYNC_FLUSH only durable bytes are
  // dispatched).
  // `stats` (optional, outlives this) gets flush times and the requests per group commit.
  GroupCommitService(CommitLog* commit_log, StoreCheckpoint* checkpoint, const Clock* clock,
                     FlushErrorHandler on_error, std::function<void()> on_flushed = nullptr,
                     FlushStats* stats = nullptr);
  ~GroupCommitService() override;

  // Completes `done` once the CommitLog is durable up to `next_offset`, or with
  // FLUSH_DISK_TIMEOUT at `deadline_ms` (Clock::SteadyMillis).
  void Submit(int64_t next_offset, int64_t deadline_ms, FlushCallback done);
  size_t pending() const;
  // Crash simulation (tests): the thread stops without a final flush; pending requests
  // complete with FLUSH_DISK_TIMEOUT (never PUT_OK). Call before Shutdown().
  void Abandon() { abandoned_ = true; }

 protected:
  void Run() override;

 private:
  struct Request {
    int64_t next_offset;
    int64_t deadline_ms;
    FlushCallback done;
  };
  void DoCommit(bool final_pass);
  void FailAll(PutStatus status);

  CommitLog* commit_log_;
  StoreCheckpoint* checkpoint_;
  const Clock* clock_;
  FlushErrorHandler on_error_;
  std::function<void()> on_flushed_;
  FlushStats* stats_;
  int64_t last_flushed_ = -1;  // flush thread only
  mutable std::mutex mu_;
  std::vector<Request> write_list_;  // guarded by mu_
  bool closed_ = false;              // guarded by mu_: the thread has ended
  std::vector<Request> read_list_;   // flush thread only
  bool failed_ = false;              // flush thread only
  std::atomic<bool> abandoned_{false};
};

class FlushRealTimeService : public ServiceThread {
 public:
  FlushRealTimeService(CommitLog* commit_log, StoreCheckpoint* checkpoint, const Clock* clock,
                       int interval_ms, int least_pages, int thorough_interval_ms,
                       FlushErrorHandler on_error, FlushStats* stats = nullptr);
  ~FlushRealTimeService() override;
  // Crash simulation (tests): no final flush at Shutdown().
  void Abandon() { abandoned_ = true; }

 protected:
  void Run() override;

 private:
  CommitLog* commit_log_;
  StoreCheckpoint* checkpoint_;
  const Clock* clock_;
  int interval_ms_;
  int least_pages_;
  int thorough_interval_ms_;
  FlushErrorHandler on_error_;
  FlushStats* stats_;
  int64_t last_thorough_ms_ = 0;
  bool failed_ = false;
  std::atomic<bool> abandoned_{false};
};

}  // namespace apogee::store
