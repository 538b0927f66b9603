#include "broker/schedule/timer_message_service.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <iterator>

#include "base/logging.h"
#include "base/string_util.h"
#include "broker/config_file.h"
#include "broker/schedule/message_redirect.h"
#include "broker/schedule/stored_message.h"
#include "message/message_format.h"
#include "message/message_record.h"
#include "protocol/json_util.h"
#include "protocol/system_topics.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace json = protocol::json;

namespace {

constexpr int32_t kTimerQueueId = 0;
constexpr int64_t kRetryAfterFailureMs = 100;
constexpr int32_t kScanBatch = 256;

}  // namespace

// ---- TimerProgress -------------------------------------------------------------------

bool TimerProgress::IsDelivered(int64_t offset) const {
  if (offset < commit_offset_) return true;
  auto it = ranges_.upper_bound(offset);
  if (it == ranges_.begin()) return false;
  --it;
  return offset < it->second;
}

void TimerProgress::MarkDelivered(int64_t offset) {
  if (IsDelivered(offset)) return;
  MarkDeliveredRange(offset, offset + 1);
}

void TimerProgress::MarkDeliveredRange(int64_t begin, int64_t end) {
  begin = std::max(begin, commit_offset_);
  if (end <= begin) return;
  // Absorb every range that overlaps or touches [begin, end): the set stays disjoint and
  // never holds two adjacent ranges.
  auto it = ranges_.upper_bound(begin);
  if (it != ranges_.begin() && std::prev(it)->second >= begin) --it;
  while (it != ranges_.end() && it->first <= end) {
    begin = std::min(begin, it->first);
    end = std::max(end, it->second);
    it = ranges_.erase(it);
  }
  ranges_[begin] = end;
}

void TimerProgress::AdvanceCommitOffset(int64_t offset) {
  if (offset <= commit_offset_) return;
  commit_offset_ = offset;
  while (!ranges_.empty() && ranges_.begin()->first < offset) {
    auto first = ranges_.begin();
    const int64_t end = first->second;
    ranges_.erase(first);
    if (end > offset) {
      ranges_[offset] = end;
      break;
    }
  }
  // A range starting exactly at the mark is delivered too: absorb it.
  auto at = ranges_.find(commit_offset_);
  if (at != ranges_.end()) {
    commit_offset_ = at->second;
    ranges_.erase(at);
  }
}

std::string TimerProgress::Encode() const {
  std::string out = fmt::format("{{\"commitOffset\":{},\"deliveredRanges\":[", commit_offset_);
  bool first = true;
  for (const auto& [begin, end] : ranges_) {
    fmt::format_to(std::back_inserter(out), "{}[{},{}]", first ? "" : ",", begin, end);
    first = false;
  }
  out += "]}";
  return out;
}

Status TimerProgress::Decode(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "timerOffset.json", &doc));
  int64_t commit = 0;
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(doc, "commitOffset", "commitOffset", &commit, true));
  if (commit < 0)
    return Status::Corruption(fmt::format("timerOffset.json: commitOffset {} < 0", commit));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* ranges,
                          json::FindArray(doc, "deliveredRanges", "deliveredRanges"));
  TimerProgress loaded;
  loaded.commit_offset_ = commit;
  if (ranges != nullptr) {
    for (rapidjson::SizeType i = 0; i < ranges->Size(); ++i) {
      const std::string path = fmt::format("timerOffset.json: deliveredRanges[{}]", i);
      const json::Value& r = (*ranges)[i];
      if (!r.IsArray() || r.Size() != 2) return Status::Corruption(path + " is not [begin, end]");
      APOGEE_ASSIGN_OR_RETURN(int64_t begin, json::AsInt64(r[0], path));
      APOGEE_ASSIGN_OR_RETURN(int64_t end, json::AsInt64(r[1], path));
      if (begin < commit || end <= begin) {
        return Status::Corruption(fmt::format("{} = [{}, {}) is empty or below commitOffset {}",
                                              path, begin, end, commit));
      }
      loaded.MarkDeliveredRange(begin, end);
    }
  }
  *this = std::move(loaded);
  return Status::OK();
}

// ---- TimerMessageService -------------------------------------------------------------

TimerMessageService::TimerMessageService(store::MessageStore* store, env::Env* env,
                                         std::string path, int64_t flush_interval_ms,
                                         const Clock* clock)
    : store_(store),
      file_(std::make_unique<ConfigFile>(env, std::move(path))),
      flush_interval_ms_(std::max<int64_t>(flush_interval_ms, 100)),
      clock_(clock) {}

TimerMessageService::~TimerMessageService() { (void)Shutdown(); }

Status TimerMessageService::Start(Scheduler* scheduler) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    TimerProgress loaded;
    Result<bool> found =
        file_->Load([&loaded](std::string_view content) { return loaded.Decode(content); });
    if (!found.ok()) return found.status();
    progress_ = std::move(loaded);
    const int64_t min = store_->GetMinOffsetInQueue(protocol::kTimerTopic, kTimerQueueId);
    if (progress_.commit_offset() < min) {
      GetLogger("broker")->warn(
          "timer: commitOffset {} is below the queue's min offset {}; "
          "the entries in between were removed",
          progress_.commit_offset(), min);
      progress_.AdvanceCommitOffset(min);
    }
    scanned_to_ = progress_.commit_offset();
    ScanNewEntries();
    GetLogger("broker")->info("timer: {} undelivered messages indexed from queue offset {}",
                              pending_.size(), progress_.commit_offset());
  }
  last_flush_ms_ = clock_->NowMillis();
  job_ = scheduler->Every(
      "TimerMessageService", Scheduler::LaneKind::kQuick, 0, [this] { return next_wait_ms_; },
      [this] {
        next_wait_ms_ = RunOnce();
        return Status::OK();
      });
  started_ = true;
  delivering_.store(true, std::memory_order_release);
  return Status::OK();
}

Status TimerMessageService::Shutdown() {
  if (!started_) return Status::OK();
  started_ = false;
  delivering_.store(false, std::memory_order_release);
  job_.Cancel();
  return PersistProgress();
}

size_t TimerMessageService::pending_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pending_.size();
}

Status TimerMessageService::PersistProgress() {
  std::string content;
  {
    std::lock_guard<std::mutex> lock(mu_);
    content = progress_.Encode();
    dirty_ = false;
  }
  return file_->Persist(content);
}

int64_t TimerMessageService::RunOnce() {
  const int64_t next_due = ScanAndDeliver(clock_->NowMillis());
  const int64_t now = clock_->NowMillis();
  if (now - last_flush_ms_ >= flush_interval_ms_) {
    bool dirty;
    {
      std::lock_guard<std::mutex> lock(mu_);
      dirty = dirty_;
    }
    if (dirty) {
      Status s = PersistProgress();
      if (!s.ok()) GetLogger("broker")->error("timerOffset.json not written: {}", s.ToString());
    }
    last_flush_ms_ = now;
  }
  const int64_t until_flush = last_flush_ms_ + flush_interval_ms_ - now;
  const int64_t until_due = next_due == INT64_MAX ? INT64_MAX : next_due - now;
  return std::clamp<int64_t>(std::min(until_flush, until_due), 0, INT32_MAX);
}

int64_t TimerMessageService::ScanAndDeliver(int64_t now_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  ScanNewEntries();
  return DeliverDueLocked(now_ms);
}

void TimerMessageService::ScanNewEntries() {
  while (true) {
    const int64_t max = store_->GetMaxOffsetInQueue(protocol::kTimerTopic, kTimerQueueId);
    if (scanned_to_ >= max) return;
    store::GetMessageResult got = store_->GetMessages(protocol::kTimerTopic, kTimerQueueId,
                                                      scanned_to_, kScanBatch, INT32_MAX);
    for (const store::MessageRef& ref : got.messages) {
      if (progress_.IsDelivered(ref.queue_offset)) continue;
      message::DecodeOptions options;
      options.read_body = false;
      message::RecordDecodeResult d =
          message::DecodeRecord(ref.data, static_cast<size_t>(ref.size), options);
      std::optional<std::string_view> out =
          d.status == message::RecordStatus::kMessage
              ? message::FindProperty(d.record.properties, message::kPropertyTimerOutMs)
              : std::nullopt;
      // No usable time: deliver at once rather than hold it forever.
      const int64_t deliver_ms = out ? ParseInt64(*out).value_or(0) : 0;
      pending_.emplace(deliver_ms, ref.queue_offset);
      pending_offsets_.insert(ref.queue_offset);
    }
    if (got.next_begin_offset <= scanned_to_) return;  // nothing readable yet
    scanned_to_ = got.next_begin_offset;
  }
}

int64_t TimerMessageService::DeliverDueLocked(int64_t now_ms) {
  while (!pending_.empty() && pending_.begin()->first <= now_ms) {
    const int64_t queue_offset = pending_.begin()->second;
    store::GetMessageResult got =
        store_->GetMessages(protocol::kTimerTopic, kTimerQueueId, queue_offset, 1, INT32_MAX);
    if (!got.messages.empty() && got.messages.front().queue_offset == queue_offset) {
      std::string why;
      DeliverOutcome outcome = DeliverParkedMessage(store_, got.messages.front(), &why);
      if (outcome == DeliverOutcome::kRetryLater) {
        GetLogger("broker")->warn("timer: {}; retrying in {} ms", why, kRetryAfterFailureMs);
        return now_ms + kRetryAfterFailureMs;
      }
      if (outcome == DeliverOutcome::kDiscarded) {
        GetLogger("broker")->error("timer: dropping queue offset {}: {}", queue_offset, why);
      } else {
        delivered_.fetch_add(1, std::memory_order_relaxed);
      }
    } else {
      GetLogger("broker")->error("timer: queue offset {} can no longer be read; skipped",
                                 queue_offset);
    }
    pending_.erase(pending_.begin());
    pending_offsets_.erase(queue_offset);
    progress_.MarkDelivered(queue_offset);
    dirty_ = true;
  }
  progress_.AdvanceCommitOffset(pending_offsets_.empty() ? scanned_to_ : *pending_offsets_.begin());
  return pending_.empty() ? INT64_MAX : pending_.begin()->first;
}

}  // namespace apogee::broker
