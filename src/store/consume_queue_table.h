// ConsumeQueueTable: every ConsumeQueue of the store, by topic and queue id, as the
// consumequeue/<topic>/<queueId>/ directories hold them (Java's consumeQueueTable).
//
// Thread-safety: lookups and creation may run on any thread (shared mutex); each queue's own
// rules apply to its writes (one writer: the reput thread).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "env/env.h"
#include "store/consume_queue.h"

namespace apogee::store {

// Whether a record for `topic` / `queue_id` can have a ConsumeQueue: the topic names one
// directory (not empty, ".", "..", no '/' or NUL) and the queue id is not negative. The
// CommitLog refuses records that fail this, so dispatch never meets one it wrote itself.
// Cheap: no allocation.
bool IsIndexableQueue(std::string_view topic, int32_t queue_id);

class ConsumeQueueTable {
 public:
  ConsumeQueueTable(env::Env* env, std::string root_dir, int64_t file_size);

  // Opens every queue directory under the root (non-numeric queue directories are skipped).
  Status Load();
  // The queue, or null when it does not exist.
  std::shared_ptr<ConsumeQueue> Find(std::string_view topic, int32_t queue_id) const;
  // The queue, created (with its directory) when missing. InvalidArgument when
  // !IsIndexableQueue (the record is at fault, not the disk).
  Result<std::shared_ptr<ConsumeQueue>> FindOrCreate(std::string_view topic, int32_t queue_id);
  std::vector<std::shared_ptr<ConsumeQueue>> All() const;
  // Deletes every queue of `topic` and its files.
  Status DeleteTopic(std::string_view topic);
  // Changes whenever a queue leaves the table (Load, DeleteTopic): a holder of queues found
  // earlier (DispatchQueueCache) must look them up again.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

 private:
  using QueueMap = std::map<int32_t, std::shared_ptr<ConsumeQueue>>;

  env::Env* env_;
  std::string root_dir_;
  int64_t file_size_;
  mutable std::shared_mutex mu_;
  std::map<std::string, QueueMap, std::less<>> table_;  // guarded by mu_
  std::atomic<uint64_t> generation_{0};                  // bumped under mu_
};

}  // namespace apogee::store
