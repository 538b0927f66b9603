// DispatchQueueCache: the ConsumeQueues dispatch wrote to lately, one per queue id (modulo a
// small table), so that a record finds its queue without the table's lock, two map lookups and
// a shared_ptr copy: those were 8 % of recovery's CPU once the index files were kept across a
// kill (docs/benchmarks.md, "Restart after kill -9"). Records of a topic spread over its queues
// (a producer picks them in turn), so the cache is indexed by queue id rather than keeping only
// the last queue.
//
// Thread-safety: none; one dispatching thread (recovery, then the reput thread) owns it. A topic
// deleted on another thread bumps the table's generation, which empties the cache at the next
// lookup.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

#include "base/status.h"
#include "store/consume_queue.h"
#include "store/consume_queue_table.h"

namespace apogee::store {

class DispatchQueueCache {
 public:
  explicit DispatchQueueCache(ConsumeQueueTable* table) : table_(table) {}

  // The queue (created when missing), as ConsumeQueueTable::FindOrCreate; valid until the next
  // call.
  Result<ConsumeQueue*> Get(std::string_view topic, int32_t queue_id);

 private:
  static constexpr int32_t kSlots = 64;

  ConsumeQueueTable* table_;
  uint64_t generation_ = 0;
  std::array<std::shared_ptr<ConsumeQueue>, kSlots> slots_;
};

}  // namespace apogee::store
