// Consumer offset stores (Java's OffsetStore): where a consumer keeps the next queue
// offset to consume for each of its queues. CLUSTERING consumers keep them on the broker
// (RemoteBrokerOffsetStore, offset_store_remote.h); BROADCASTING consumers keep them in a
// local file (LocalFileOffsetStore, offset_store_local.h).
//
// The table lives in memory and is written out by PersistAll every
// persistConsumerOffsetInterval (5 s) and at shutdown. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string_view>

#include "base/status.h"
#include "protocol/lock_batch_body.h"

namespace apogee::client {

// Java's ReadOffsetType.
enum class ReadOffsetType {
  kReadFromMemory,
  kReadFromStore,
  kMemoryFirstThenStore,
};

// ReadOffset results below zero, as Java: no offset known, or the store could not be read.
inline constexpr int64_t kOffsetNotFound = -1;
inline constexpr int64_t kOffsetReadError = -2;

class OffsetStore {
 public:
  virtual ~OffsetStore() = default;

  // Reads what was persisted before (the local file; nothing for the broker store).
  virtual Status Load() = 0;
  // Records `offset` as the next offset to consume; with increase_only a smaller offset
  // than the one held is ignored (a late ack must not move the offset back).
  virtual void UpdateOffset(const protocol::MessageQueue& mq, int64_t offset,
                            bool increase_only) = 0;
  // The offset, kOffsetNotFound when none is known, kOffsetReadError when the store failed.
  virtual int64_t ReadOffset(const protocol::MessageQueue& mq, ReadOffsetType type) = 0;
  // Writes the offsets of `mqs` out; queues not in `mqs` are forgotten by the broker store
  // (they were rebalanced away) and left out of the local file.
  virtual void PersistAll(const std::set<protocol::MessageQueue>& mqs) = 0;
  virtual void Persist(const protocol::MessageQueue& mq) = 0;
  virtual void RemoveOffset(const protocol::MessageQueue& mq) = 0;
  // The offsets of `topic` (every topic when empty).
  virtual std::map<protocol::MessageQueue, int64_t> CloneOffsetTable(
      std::string_view topic) const = 0;
  // Sends one offset to the store now (RESET_CONSUMER_CLIENT_OFFSET, lite pull commitSync).
  virtual Status UpdateConsumeOffsetToBroker(const protocol::MessageQueue& mq, int64_t offset,
                                             bool oneway) = 0;
};

}  // namespace apogee::client
