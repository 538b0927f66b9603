// ProcessQueue (Java's): the messages pulled from one queue and not yet consumed, keyed by
// queue offset, plus the state the pull and consume paths share for that queue: dropped
// (rebalanced away), the orderly lock, and timestamps. The offset committed for a queue is
// always the smallest offset still in the tree, so a message is never skipped by a commit
// while an earlier one is still being consumed.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "apogee/message.h"

namespace apogee::client {

// A queue lock the client has not renewed for this long counts as lost (Java's
// rocketmq.client.rebalance.lockMaxLiveTime); the broker's expiry is 60 s.
inline constexpr int64_t kRebalanceLockMaxLiveTimeMs = 30'000;
// A queue not pulled for this long is dropped by rebalance (pullMaxIdleTime).
inline constexpr int64_t kPullMaxIdleTimeMs = 120'000;

class ProcessQueue {
 public:
  // Adds pulled messages (offsets already in the tree are ignored). Returns true when an
  // orderly consumer should start a consume task: there are messages and none is running.
  bool PutMessages(const std::vector<MessageExt>& msgs);
  // Last offset minus first offset of the unconsumed messages (0 when empty).
  int64_t MaxSpan() const;
  // Concurrent mode: forgets consumed `msgs`. Returns the offset to commit: the smallest
  // offset still waiting, or one past the largest ever put when nothing waits; -1 when the
  // tree was already empty.
  int64_t RemoveMessages(const std::vector<MessageExt>& msgs);

  // Orderly mode: takes up to `batch` messages in offset order into the consuming set.
  // When none are left, marks the queue idle (PutMessages will ask for a new task).
  std::vector<MessageExt> TakeMessages(int32_t batch);
  // Orderly: the taken messages are done. Returns the offset to commit (one past the
  // largest taken), or -1 when nothing was taken.
  int64_t Commit();
  // Orderly: the taken `msgs` go back to the tree to be consumed again.
  void MakeMessagesToConsumeAgain(const std::vector<MessageExt>& msgs);
  // Everything forgotten (offset reset).
  void Clear();

  int64_t msg_count() const;
  int64_t msg_size() const;
  // Smallest and largest waiting offsets (-1 when empty).
  int64_t MinOffset() const;
  int64_t MaxOffset() const;

  bool dropped() const { return dropped_.load(); }
  void set_dropped(bool dropped) { dropped_.store(dropped); }
  bool locked() const { return locked_.load(); }
  void set_locked(bool locked) { locked_.store(locked); }
  int64_t last_lock_timestamp() const { return last_lock_timestamp_.load(); }
  void set_last_lock_timestamp(int64_t ms) { last_lock_timestamp_.store(ms); }
  bool IsLockExpired(int64_t now_ms) const {
    return now_ms - last_lock_timestamp_.load() > kRebalanceLockMaxLiveTimeMs;
  }
  int64_t last_pull_timestamp() const { return last_pull_timestamp_.load(); }
  void set_last_pull_timestamp(int64_t ms) { last_pull_timestamp_.store(ms); }
  bool IsPullExpired(int64_t now_ms) const {
    return now_ms - last_pull_timestamp_.load() > kPullMaxIdleTimeMs;
  }
  int64_t last_consume_timestamp() const { return last_consume_timestamp_.load(); }
  void set_last_consume_timestamp(int64_t ms) { last_consume_timestamp_.store(ms); }

  // Held by an orderly consume task while the listener runs, so rebalance can wait for it
  // before unlocking the queue on the broker.
  std::timed_mutex& consume_mutex() { return consume_mutex_; }

 private:
  mutable std::mutex mu_;
  std::map<int64_t, MessageExt> msg_tree_;        // guarded by mu_
  std::map<int64_t, MessageExt> consuming_tree_;  // orderly, guarded by mu_
  int64_t msg_size_ = 0;                          // bytes of bodies, guarded by mu_
  int64_t queue_offset_max_ = 0;                  // guarded by mu_
  bool consuming_ = false;                        // orderly, guarded by mu_
  std::atomic<bool> dropped_{false};
  std::atomic<bool> locked_{false};
  std::atomic<int64_t> last_lock_timestamp_{0};
  std::atomic<int64_t> last_pull_timestamp_{0};
  std::atomic<int64_t> last_consume_timestamp_{0};
  std::timed_mutex consume_mutex_;
};

}  // namespace apogee::client
