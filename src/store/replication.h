// ReplicationStore: the narrow view of the store the HA module uses (Java's HAService and
// HAConnection reach into CommitLog for exactly these). The master reads raw CommitLog bytes
// from an offset and ships them; the slave appends them at the same offsets, after which its
// reput service dispatches them like local writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "base/status.h"

namespace apogee::store {

// A run of raw CommitLog bytes that stays valid while `keepalive` is held.
struct RawSegment {
  int64_t offset = 0;
  std::string_view data;
  std::shared_ptr<const void> keepalive;
};

class ReplicationStore {
 public:
  virtual ~ReplicationStore() = default;
  // End of the written CommitLog (the slave reports this as its ack offset).
  virtual int64_t MaxPhyOffset() const = 0;
  virtual int64_t MinPhyOffset() const = 0;
  // Up to `max_bytes` from `offset`, never crossing a file end (BLANK regions included).
  // NotFound when nothing is written there yet.
  virtual Result<RawSegment> ReadRaw(int64_t offset, size_t max_bytes) const = 0;
  // Slave: appends bytes at `offset`, which must equal MaxPhyOffset() (InvalidArgument
  // otherwise: the caller must reconnect from its own offset).
  virtual Status AppendRaw(int64_t offset, std::string_view data) = 0;
};

}  // namespace apogee::store
