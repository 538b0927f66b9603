// ConsumeQueue: the per topic-queue index into the CommitLog. Entry n (the message with queue
// offset n) lives at byte n * 20 and holds {int64 physical offset, int32 record size, int64 tag
// code}. Mirrors Java's ConsumeQueue (docs/protocol/store_ha.md §5.3).
//
// Thread-safety: one writer (the reput thread, or recovery before the store starts) calls
// PutEntry/Truncate; any thread may read entries and offsets concurrently.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "env/env.h"
#include "store/mapped_file_queue.h"
#include "store/store_format.h"

namespace apogee::store {

struct CqEntry {
  int64_t phy_offset = 0;
  int32_t size = 0;
  int64_t tag_code = 0;
};

class ConsumeQueue {
 public:
  // `dir` is consumequeue/<topic>/<queueId>.
  ConsumeQueue(env::Env* env, std::string topic, int32_t queue_id, std::string dir,
               int64_t file_size);
  ConsumeQueue(const ConsumeQueue&) = delete;
  ConsumeQueue& operator=(const ConsumeQueue&) = delete;

  const std::string& topic() const { return topic_; }
  int32_t queue_id() const { return queue_id_; }

  Status Load() { return files_.Load(); }
  // Finds the end of the valid entries (starting three files from the end) and cuts the
  // queue there. Sets max_phy_offset() to the end of the last entry's record.
  Status Recover();

  // Writes the entry for `queue_offset`. Idempotent: an entry whose record ends at or before
  // max_phy_offset() is ignored, as is one whose slot is already written. A queue that starts
  // past offset 0 is pre-filled with blank entries (Java's fillPreBlank).
  Status PutEntry(const CqEntry& entry, int64_t queue_offset);

  // The entry at `queue_offset`, or nullopt when it is outside [min, max) or its file is gone.
  std::optional<CqEntry> GetEntry(int64_t queue_offset) const;
  // Up to `max` entries from `queue_offset`, stopping at a file end (callers loop).
  std::vector<CqEntry> GetEntries(int64_t queue_offset, int max) const;

  // First valid queue offset (entries below point at deleted CommitLog data).
  int64_t MinOffset() const { return min_logic_offset_.load() / kUnit; }
  // Next queue offset to be written (= number of entries ever written).
  int64_t MaxOffset() const { return files_.MaxOffset() / kUnit; }
  // End (offset + size) of the record the last entry points at.
  int64_t max_phy_offset() const { return max_phy_offset_.load(); }

  // Removes every entry pointing at or past `phy_offset` (after CommitLog truncation).
  Status TruncateDirty(int64_t phy_offset);
  // Deletes files whose entries all point below `commit_log_min_offset` and moves the min
  // offset to the first entry at or above it. Returns the number of files deleted.
  Result<int> DeleteExpiredFiles(int64_t commit_log_min_offset);
  // Moves the min offset to the first entry that points at or above `commit_log_min_offset`.
  void CorrectMinOffset(int64_t commit_log_min_offset);

  Result<bool> Flush(int least_pages) { return files_.Flush(least_pages); }
  Status Destroy();
  MappedFileQueue& files() { return files_; }

  // Smallest queue offset whose message was stored at or after `timestamp`, using
  // `store_time_of` (a CommitLog lookup by physical offset) — binary search, as Java's
  // getOffsetInQueueByTime. Returns MaxOffset() when every message is older.
  template <typename StoreTimeFn>
  int64_t OffsetByTime(int64_t timestamp, StoreTimeFn store_time_of) const;

 private:
  static constexpr int64_t kUnit = kCqUnitSize;
  // The largest queue offset whose byte position fits in an int64.
  static constexpr int64_t kMaxQueueOffset = std::numeric_limits<int64_t>::max() / kUnit;
  Status FillPreBlank(int64_t upto_byte);

  std::string topic_;
  int32_t queue_id_;
  MappedFileQueue files_;
  std::atomic<int64_t> max_phy_offset_{-1};
  std::atomic<int64_t> min_logic_offset_{0};  // bytes
};

template <typename StoreTimeFn>
int64_t ConsumeQueue::OffsetByTime(int64_t timestamp, StoreTimeFn store_time_of) const {
  int64_t lo = MinOffset();
  int64_t hi = MaxOffset();
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    std::optional<CqEntry> e = GetEntry(mid);
    std::optional<int64_t> t = e ? store_time_of(e->phy_offset, e->size) : std::nullopt;
    if (!t) {
      lo = mid + 1;  // an unreadable entry cannot be the answer
    } else if (*t < timestamp) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace apogee::store
