#include "store/flush_service.h"

#include <chrono>

#include "base/logging.h"
#include "store/commit_log.h"
#include "store/store_checkpoint.h"

namespace apogee::store {

Status FlushCommitLogAndCheckpoint(CommitLog* commit_log, StoreCheckpoint* checkpoint,
                                   int least_pages, FlushStats* stats) {
  // Read the timestamp before the end offset: every record stored at or before that time
  // lies below `target`, so once `target` is durable the checkpoint may claim the time.
  int64_t store_ts = commit_log->last_store_timestamp();
  // Deferred records (SYNC_FLUSH puts waiting for this flush) are written after the time is
  // read, so that every record stored by then is below `target`.
  APOGEE_RETURN_IF_ERROR(commit_log->WriteDeferred());
  int64_t target = commit_log->MaxOffset();
  while (true) {
    const auto begin = std::chrono::steady_clock::now();
    Result<bool> flushed = commit_log->Flush(least_pages);
    if (!flushed.ok()) return flushed.status();
    if (stats != nullptr && *flushed) {
      stats->sync_micros.Record(std::chrono::duration_cast<std::chrono::microseconds>(
                                    std::chrono::steady_clock::now() - begin)
                                    .count());
    }
    if (!*flushed || commit_log->FlushedOffset() >= target) break;
  }
  if (checkpoint && store_ts > 0 && commit_log->FlushedOffset() >= target) {
    checkpoint->set_physic_msg_timestamp(store_ts);
  }
  return Status::OK();
}

// ---- GroupCommitService ----

GroupCommitService::GroupCommitService(CommitLog* commit_log, StoreCheckpoint* checkpoint,
                                       const Clock* clock, FlushErrorHandler on_error,
                                       std::function<void()> on_flushed, FlushStats* stats)
    : ServiceThread("GroupCommitService"),
      commit_log_(commit_log),
      checkpoint_(checkpoint),
      clock_(clock),
      on_error_(std::move(on_error)),
      on_flushed_(std::move(on_flushed)),
      stats_(stats) {}

GroupCommitService::~GroupCommitService() { Shutdown(); }

void GroupCommitService::Submit(int64_t next_offset, int64_t deadline_ms, FlushCallback done) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!closed_) {
      write_list_.push_back(Request{next_offset, deadline_ms, std::move(done)});
      done = nullptr;
    }
  }
  if (done) {
    done(PutStatus::kServiceNotAvailable);  // raced with shutdown: nobody will flush it
    return;
  }
  Wakeup();
}

size_t GroupCommitService::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return write_list_.size();
}

void GroupCommitService::FailAll(PutStatus status) {
  for (Request& r : read_list_) r.done(status);
  read_list_.clear();
}

void GroupCommitService::DoCommit(bool final_pass) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Requests not yet satisfied stay in read_list_ and are joined by the new ones.
    for (Request& r : write_list_) read_list_.push_back(std::move(r));
    write_list_.clear();
  }
  if (failed_) {
    FailAll(PutStatus::kServiceNotAvailable);
    return;
  }
  if (stats_ != nullptr && !read_list_.empty()) {
    stats_->group_commit_batch.Record(static_cast<int64_t>(read_list_.size()));
  }
  Status s = FlushCommitLogAndCheckpoint(commit_log_, checkpoint_, 0, stats_);
  if (!s.ok()) {
    failed_ = true;
    GetLogger("store")->error("CommitLog flush failed, refusing further writes: {}",
                              s.ToString());
    if (on_error_) on_error_(s);
    FailAll(PutStatus::kServiceNotAvailable);
    return;
  }
  int64_t flushed = commit_log_->FlushedOffset();
  if (flushed != last_flushed_) {
    last_flushed_ = flushed;
    if (on_flushed_) on_flushed_();
  }
  int64_t now = clock_->SteadyMillis();
  size_t kept = 0;
  for (Request& r : read_list_) {
    if (flushed >= r.next_offset) {
      r.done(PutStatus::kPutOk);
    } else if (final_pass || now >= r.deadline_ms) {
      r.done(PutStatus::kFlushDiskTimeout);
    } else {
      read_list_[kept++] = std::move(r);
    }
  }
  read_list_.resize(kept);
}

void GroupCommitService::Run() {
  while (!stopped() && !abandoned_) {
    WaitForRunning(10);
    if (abandoned_) break;
    DoCommit(false);
  }
  if (!abandoned_) {
    // Answer everything submitted before shutdown: flushed or, at worst, timed out.
    DoCommit(true);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    for (Request& r : write_list_) read_list_.push_back(std::move(r));
    write_list_.clear();
  }
  FailAll(PutStatus::kFlushDiskTimeout);
}

// ---- FlushRealTimeService ----

FlushRealTimeService::FlushRealTimeService(CommitLog* commit_log, StoreCheckpoint* checkpoint,
                                           const Clock* clock, int interval_ms,
                                           int least_pages, int thorough_interval_ms,
                                           FlushErrorHandler on_error, FlushStats* stats)
    : ServiceThread("FlushRealTimeService"),
      commit_log_(commit_log),
      checkpoint_(checkpoint),
      clock_(clock),
      interval_ms_(interval_ms),
      least_pages_(least_pages),
      thorough_interval_ms_(thorough_interval_ms),
      on_error_(std::move(on_error)),
      stats_(stats) {}

FlushRealTimeService::~FlushRealTimeService() { Shutdown(); }

void FlushRealTimeService::Run() {
  last_thorough_ms_ = clock_->SteadyMillis();
  auto flush = [this](int least_pages) {
    if (failed_) return;
    Status s = FlushCommitLogAndCheckpoint(commit_log_, checkpoint_, least_pages, stats_);
    if (!s.ok()) {
      failed_ = true;
      GetLogger("store")->error("CommitLog flush failed, refusing further writes: {}",
                                s.ToString());
      if (on_error_) on_error_(s);
    }
  };
  while (!stopped() && !abandoned_) {
    WaitForRunning(interval_ms_);
    if (abandoned_) break;
    int least = least_pages_;
    int64_t now = clock_->SteadyMillis();
    if (now - last_thorough_ms_ >= thorough_interval_ms_) {
      last_thorough_ms_ = now;
      least = 0;
    }
    flush(least);
  }
  if (!abandoned_) flush(0);  // shutdown: everything
}

}  // namespace apogee::store
