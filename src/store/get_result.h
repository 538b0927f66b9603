// Results of reads: messages returned as views into mapped CommitLog memory, kept valid by
// the shared file handles the result holds. A pull can write them out by scatter-gather
// without copying; drop the result to release the files.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "store/get_status.h"

namespace apogee::store {

class MappedFile;

struct MessageRef {
  const uint8_t* data = nullptr;  // the whole stored record
  int32_t size = 0;
  int64_t phy_offset = 0;
  int64_t queue_offset = 0;  // -1 when not read through a ConsumeQueue
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
  }
};

struct GetMessageResult {
  GetStatus status = GetStatus::kNoMatchedLogicQueue;
  int64_t next_begin_offset = 0;
  int64_t min_offset = 0;
  int64_t max_offset = 0;
  std::vector<MessageRef> messages;
  int64_t total_bytes = 0;
  // Java's suggestPullingFromSlave: the data read is far behind the head (on disk).
  bool suggest_pulling_from_slave = false;
  std::vector<std::shared_ptr<MappedFile>> keepalive;
};

struct QueryMessageResult {
  std::vector<MessageRef> messages;
  int64_t index_last_update_timestamp = 0;
  int64_t index_last_update_phy_offset = 0;
  std::vector<std::shared_ptr<MappedFile>> keepalive;
};

}  // namespace apogee::store
