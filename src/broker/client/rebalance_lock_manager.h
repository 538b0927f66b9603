// RebalanceLockManager: the broker's queue locks for ordered consumption (Java's
// RebalanceLockManager; docs/protocol/store_ha.md §8.6). Per consumer group, each queue has
// at most one owner client id; a lock is granted when the queue is free, already held by
// the same client (its timestamp is refreshed), or held by a client that has not
// refreshed it for lock_max_live_millis (60 s). Locks are released only by UnlockBatch
// or expiry, never by a disconnect, and PULL does not check them (exclusivity is the
// clients' cooperation).
//
// Thread-safety: every method may be called from any thread (one mutex).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "base/clock.h"
#include "protocol/lock_batch_body.h"

namespace apogee::broker {

class RebalanceLockManager {
 public:
  // `clock` must outlive the manager.
  explicit RebalanceLockManager(Clock* clock, int64_t lock_max_live_millis = 60'000);
  RebalanceLockManager(const RebalanceLockManager&) = delete;
  RebalanceLockManager& operator=(const RebalanceLockManager&) = delete;

  // LOCK_BATCH_MQ: locks what it can of `queues` for `client_id` and returns every queue
  // of `queues` that `client_id` holds afterwards.
  std::set<protocol::MessageQueue> TryLockBatch(const std::string& group,
                                                const std::set<protocol::MessageQueue>& queues,
                                                const std::string& client_id);

  // UNLOCK_BATCH_MQ: releases those of `queues` that `client_id` holds.
  void UnlockBatch(const std::string& group, const std::set<protocol::MessageQueue>& queues,
                   const std::string& client_id);

  // Whether `client_id` holds an unexpired lock on the queue (no refresh).
  bool IsLockedBy(const std::string& group, const protocol::MessageQueue& queue,
                  const std::string& client_id) const;

 private:
  struct LockEntry {
    std::string client_id;
    int64_t last_update_timestamp = 0;
  };
  bool Expired(const LockEntry& entry, int64_t now) const;

  Clock* clock_;
  const int64_t lock_max_live_millis_;
  mutable std::mutex mutex_;
  std::map<std::string, std::map<protocol::MessageQueue, LockEntry>> table_;  // GUARDED_BY(mutex_)
};

}  // namespace apogee::broker
