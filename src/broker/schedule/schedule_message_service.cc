#include "broker/schedule/schedule_message_service.h"

#include <algorithm>
#include <climits>
#include <string>
#include <utility>

#include "base/logging.h"
#include "broker/schedule/stored_message.h"
#include "broker/topic_config_manager.h"
#include "protocol/system_topics.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace {

// A refused put is retried this much later (Java's DELAY_FOR_A_PERIOD).
constexpr int64_t kRetryAfterFailureMs = 100;
// Messages read per store call.
constexpr int32_t kBatch = 32;

}  // namespace

ScheduleMessageService::ScheduleMessageService(store::MessageStore* store,
                                               store::DelayLevelTable levels,
                                               DelayOffsetTable* offsets, int64_t flush_interval_ms,
                                               const Clock* clock)
    : store_(store),
      levels_(std::move(levels)),
      offsets_(offsets),
      flush_interval_ms_(std::max<int64_t>(flush_interval_ms, 100)),
      clock_(clock) {}

ScheduleMessageService::~ScheduleMessageService() { (void)Shutdown(); }

Status ScheduleMessageService::Start(Scheduler* scheduler) {
  APOGEE_RETURN_IF_ERROR(offsets_->Load());
  // Java's correctDelayOffset: an offset outside the queue (files expired, store replaced)
  // is moved to the nearest end.
  for (int32_t level = 1; level <= levels_.max_level(); ++level) {
    const int32_t queue_id = store::DelayLevelToQueueId(level);
    const int64_t min = store_->GetMinOffsetInQueue(protocol::kScheduleTopic, queue_id);
    const int64_t max = store_->GetMaxOffsetInQueue(protocol::kScheduleTopic, queue_id);
    const int64_t offset = offsets_->Get(level);
    const int64_t corrected = std::clamp(offset, min, std::max(min, max));
    if (corrected != offset) {
      GetLogger("broker")->warn("delay level {}: offset {} outside [{}, {}], corrected to {}",
                                level, offset, min, max, corrected);
      offsets_->Update(level, corrected);
    }
  }
  last_flush_ms_ = clock_->NowMillis();
  job_ = scheduler->Every(
      "ScheduleMessageService", Scheduler::LaneKind::kQuick, 0, [this] { return next_wait_ms_; },
      [this] {
        next_wait_ms_ = RunOnce();
        return Status::OK();
      });
  started_ = true;
  delivering_.store(true, std::memory_order_release);
  return Status::OK();
}

Status ScheduleMessageService::Shutdown() {
  if (!started_) return Status::OK();
  started_ = false;
  delivering_.store(false, std::memory_order_release);
  job_.Cancel();
  return offsets_->Persist();
}

int64_t ScheduleMessageService::RunOnce() {
  int64_t now = clock_->NowMillis();
  const int64_t next_due = DeliverDue(now);
  now = clock_->NowMillis();
  if (now - last_flush_ms_ >= flush_interval_ms_) {
    Status s = offsets_->PersistIfChanged();
    if (!s.ok()) GetLogger("broker")->error("delayOffset.json not written: {}", s.ToString());
    last_flush_ms_ = now;
  }
  const int64_t until_flush = last_flush_ms_ + flush_interval_ms_ - now;
  const int64_t until_due = next_due == INT64_MAX ? INT64_MAX : next_due - now;
  return std::clamp<int64_t>(std::min(until_flush, until_due), 0, INT32_MAX);
}

int64_t ScheduleMessageService::DeliverDue(int64_t now_ms) {
  int64_t next_due = INT64_MAX;
  for (int32_t level = 1; level <= levels_.max_level(); ++level) {
    next_due = std::min(next_due, DeliverLevel(level, now_ms));
  }
  return next_due;
}

int64_t ScheduleMessageService::DeliverLevel(int32_t level, int64_t now_ms) {
  const int32_t queue_id = store::DelayLevelToQueueId(level);
  const int64_t delay = levels_.DelayMillis(level);
  int64_t offset = offsets_->Get(level);
  while (true) {
    const int64_t max = store_->GetMaxOffsetInQueue(protocol::kScheduleTopic, queue_id);
    if (offset >= max) break;
    // The filter sees the entries in queue order: accept the due prefix, stop at the
    // first entry still in the future and remember its time.
    bool stop = false;
    int64_t first_future = INT64_MAX;
    auto due = [&](int64_t deliver_ms) {
      if (stop) return false;
      // correctDeliverTimestamp: further ahead than the level's delay means the clock
      // moved back since the message was stored; deliver it now.
      if (deliver_ms > now_ms + delay) deliver_ms = now_ms;
      if (deliver_ms > now_ms) {
        stop = true;
        first_future = deliver_ms;
        return false;
      }
      return true;
    };
    store::GetMessageResult got =
        store_->GetMessages(protocol::kScheduleTopic, queue_id, offset, kBatch, INT32_MAX, due);
    if (got.status == store::GetStatus::kOffsetTooSmall ||
        got.status == store::GetStatus::kOffsetOverflowBadly) {
      offset = got.next_begin_offset;  // expired or replaced files: follow the store
      offsets_->Update(level, offset);
      continue;
    }
    for (const store::MessageRef& ref : got.messages) {
      std::string why;
      DeliverOutcome outcome = DeliverParkedMessage(store_, ref, &why);
      if (outcome == DeliverOutcome::kRetryLater) {
        GetLogger("broker")->warn("delay level {}: {}; retrying in {} ms", level, why,
                                  kRetryAfterFailureMs);
        return now_ms + kRetryAfterFailureMs;
      }
      if (outcome == DeliverOutcome::kDiscarded) {
        GetLogger("broker")->error("delay level {}: dropping queue offset {}: {}", level,
                                   ref.queue_offset, why);
      } else {
        delivered_.fetch_add(1, std::memory_order_relaxed);
      }
      offset = ref.queue_offset + 1;
      offsets_->Update(level, offset);
    }
    if (stop) return first_future;
    if (got.messages.empty()) {
      // Only removed or blank entries were scanned: step over them.
      if (got.next_begin_offset <= offset) break;
      offset = got.next_begin_offset;
      offsets_->Update(level, offset);
    }
  }
  return INT64_MAX;
}

}  // namespace apogee::broker
