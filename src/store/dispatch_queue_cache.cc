#include "store/dispatch_queue_cache.h"

namespace apogee::store {

Result<ConsumeQueue*> DispatchQueueCache::Get(std::string_view topic, int32_t queue_id) {
  const uint64_t generation = table_->generation();
  if (generation != generation_) {
    slots_.fill(nullptr);
    generation_ = generation;
  }
  std::shared_ptr<ConsumeQueue>& slot = slots_[static_cast<uint32_t>(queue_id) % kSlots];
  if (slot != nullptr && slot->queue_id() == queue_id && slot->topic() == topic) {
    return slot.get();
  }
  APOGEE_ASSIGN_OR_RETURN(slot, table_->FindOrCreate(topic, queue_id));
  return slot.get();
}

}  // namespace apogee::store
