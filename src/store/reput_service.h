// ReputService: the thread that reads CommitLog records after the last dispatched offset and
// hands each to the dispatcher (ConsumeQueue and IndexFile builders), then notifies
// listeners. Mirrors Java's ReputMessageService. It never reads past `readable_limit()`:
// under SYNC_FLUSH that is the flushed offset, so consumers never see a message that a crash
// could take back.
//
// Thread-safety: DoReput runs on the service thread (or on the caller before Start()).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "base/service_thread.h"
#include "base/status.h"
#include "store/dispatch_request.h"

namespace apogee::store {

class CommitLog;

class ReputService : public ServiceThread {
 public:
  using LimitFn = std::function<int64_t()>;
  using DispatchFn = std::function<Status(const DispatchRequest&)>;
  using BatchDoneFn = std::function<void()>;

  ReputService(CommitLog* commit_log, LimitFn readable_limit, DispatchFn dispatch,
               BatchDoneFn batch_done);
  ~ReputService() override;

  int64_t reput_from() const { return reput_from_.load(std::memory_order_acquire); }
  void set_reput_from(int64_t offset) { reput_from_.store(offset, std::memory_order_release); }
  // Bytes written but not yet dispatched.
  int64_t DispatchBehindBytes() const;

  // Dispatches everything readable now. A record the dispatcher cannot index
  // (InvalidArgument: its topic or queue id cannot name a ConsumeQueue; Corruption too,
  // unless set_skip_corrupt(false)) is skipped: counted, logged once with its offset, and
  // the reput goes on, so one bad record never stops the store. Stops (with the error) at
  // a record that does not decode or any other dispatch failure (IO, no space), leaving
  // reput_from() at that record to be retried.
  Status DoReput();

  // Recovery's first pass turns this off so that a ConsumeQueue that disagrees with the
  // CommitLog (Corruption) is rebuilt instead of skipped.
  void set_skip_corrupt(bool skip) { skip_corrupt_ = skip; }
  // Records skipped since the store opened, and the CommitLog offset of the last one
  // (-1: none). Exported as a metric.
  int64_t skipped_records() const { return skipped_records_.load(std::memory_order_relaxed); }
  int64_t last_skipped_offset() const {
    return last_skipped_offset_.load(std::memory_order_relaxed);
  }

 protected:
  void Run() override;

 private:
  CommitLog* commit_log_;
  LimitFn readable_limit_;
  DispatchFn dispatch_;
  BatchDoneFn batch_done_;
  std::atomic<int64_t> reput_from_{0};
  bool skip_corrupt_ = true;
  std::atomic<int64_t> skipped_records_{0};
  std::atomic<int64_t> last_skipped_offset_{-1};
};

}  // namespace apogee::store
