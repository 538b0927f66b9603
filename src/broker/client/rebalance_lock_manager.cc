#include "broker/client/rebalance_lock_manager.h"

#include "base/logging.h"

namespace apogee::broker {

RebalanceLockManager::RebalanceLockManager(Clock* clock, int64_t lock_max_live_millis)
    : clock_(clock), lock_max_live_millis_(lock_max_live_millis) {}

bool RebalanceLockManager::Expired(const LockEntry& entry, int64_t now) const {
  return now - entry.last_update_timestamp > lock_max_live_millis_;
}

std::set<protocol::MessageQueue> RebalanceLockManager::TryLockBatch(
    const std::string& group, const std::set<protocol::MessageQueue>& queues,
    const std::string& client_id) {
  std::set<protocol::MessageQueue> locked;
  const int64_t now = clock_->NowMillis();
  std::lock_guard<std::mutex> lock(mutex_);
  auto& group_table = table_[group];
  for (const protocol::MessageQueue& mq : queues) {
    auto [it, inserted] = group_table.try_emplace(mq, LockEntry{client_id, now});
    LockEntry& entry = it->second;
    if (inserted) {
      locked.insert(mq);
    } else if (entry.client_id == client_id) {
      // Java refreshes the owner's timestamp even when the lock had already expired.
      entry.last_update_timestamp = now;
      locked.insert(mq);
    } else if (Expired(entry, now)) {
      GetLogger("broker")->info("group {}: lock on {} taken over by {} from expired owner {}",
                                group, protocol::ToString(mq), client_id, entry.client_id);
      entry = LockEntry{client_id, now};
      locked.insert(mq);
    }
  }
  return locked;
}

void RebalanceLockManager::UnlockBatch(const std::string& group,
                                       const std::set<protocol::MessageQueue>& queues,
                                       const std::string& client_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto group_it = table_.find(group);
  if (group_it == table_.end()) return;
  for (const protocol::MessageQueue& mq : queues) {
    auto it = group_it->second.find(mq);
    if (it != group_it->second.end() && it->second.client_id == client_id) {
      group_it->second.erase(it);
    }
  }
  if (group_it->second.empty()) table_.erase(group_it);
}

bool RebalanceLockManager::IsLockedBy(const std::string& group, const protocol::MessageQueue& queue,
                                      const std::string& client_id) const {
  const int64_t now = clock_->NowMillis();
  std::lock_guard<std::mutex> lock(mutex_);
  auto group_it = table_.find(group);
  if (group_it == table_.end()) return false;
  auto it = group_it->second.find(queue);
  return it != group_it->second.end() && it->second.client_id == client_id &&
         !Expired(it->second, now);
}

}  // namespace apogee::broker
