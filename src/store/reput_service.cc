#include "store/reput_service.h"

#include <fmt/format.h>

#include "base/clock.h"
#include "base/logging.h"
#include "store/commit_log.h"

namespace apogee::store {

namespace {
constexpr int64_t kIdleWaitMs = 100;
constexpr int64_t kRetryWaitMs = 10;
}  // namespace

ReputService::ReputService(CommitLog* commit_log, LimitFn readable_limit, DispatchFn dispatch,
                           BatchDoneFn batch_done)
    : ServiceThread("ReputService"),
      commit_log_(commit_log),
      readable_limit_(std::move(readable_limit)),
      dispatch_(std::move(dispatch)),
      batch_done_(std::move(batch_done)) {}

ReputService::~ReputService() { Shutdown(); }

int64_t ReputService::DispatchBehindBytes() const {
  return readable_limit_() - reput_from();
}

Status ReputService::DoReput() {
  int64_t offset = reput_from();
  if (offset < commit_log_->MinOffset()) {
    // Retention removed files the reput had not reached (it was far behind): skip them.
    GetLogger("store")->warn("reput offset {} is below the CommitLog min offset {}; skipping",
                             offset, commit_log_->MinOffset());
    offset = commit_log_->MinOffset();
  }
  bool dispatched = false;
  Status result;
  while (true) {
    int64_t limit = readable_limit_();
    if (offset >= limit) break;
    std::shared_ptr<MappedFile> holder;
    message::RecordDecodeResult r = commit_log_->DecodeAt(offset, /*read_body=*/false, &holder);
    if (r.status == message::RecordStatus::kBlank) {
      offset = commit_log_->RollNextFile(offset);
      continue;
    }
    if (r.status != message::RecordStatus::kMessage) {
      result = Status::Corruption(fmt::format("reput at CommitLog offset {}: {} {}", offset,
                                              message::RecordStatusName(r.status), r.reason));
      break;
    }
    if (offset + static_cast<int64_t>(r.size) > limit) break;  // not yet readable
    DispatchRequest req = MakeDispatchRequest(r.record, offset, static_cast<int32_t>(r.size));
    Status s = dispatch_(req);
    if (!s.ok() &&
        (s.Is(StatusCode::kInvalidArgument) || (skip_corrupt_ && s.Is(StatusCode::kCorruption)))) {
      // The record is at fault, not the disk: retrying cannot help, and stopping here
      // would leave every later message of every topic unreadable.
      skipped_records_.fetch_add(1, std::memory_order_relaxed);
      last_skipped_offset_.store(offset, std::memory_order_relaxed);
      GetLogger("store")->error(
          "reput skips the record at CommitLog offset {} ({} bytes, topic '{}' queue {}): {}; "
          "{} record(s) skipped so far",
          offset, r.size, req.topic.substr(0, 256), req.queue_id, s.ToString(),
          skipped_records_.load(std::memory_order_relaxed));
    } else if (!s.ok()) {
      result = s.Prefixed(fmt::format("dispatching CommitLog offset {}", offset));
      break;
    }
    offset += static_cast<int64_t>(r.size);
    dispatched = true;
    set_reput_from(offset);
  }
  set_reput_from(offset);
  if (dispatched && batch_done_) batch_done_();
  return result;
}

void ReputService::Run() {
  int64_t last_error_log = 0;
  while (!stopped()) {
    Status s = DoReput();
    if (!s.ok()) {
      // A bad record at the tail is not yet complete on a slave, or needs an operator:
      // log at most once a second and retry.
      int64_t now = SteadyMillis();
      if (now - last_error_log >= 1000) {
        GetLogger("store")->error("{}", s.ToString());
        last_error_log = now;
      }
    }
    // Woken by every put (ASYNC_FLUSH), every group commit (SYNC_FLUSH) and every
    // replicated append; the timeout is only a safety net, and a short retry after an error.
    WaitForRunning(s.ok() ? kIdleWaitMs : kRetryWaitMs);
  }
}

}  // namespace apogee::store
