#include "ha/slave_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <utility>

#include "base/crc32.h"
#include "ha/ha_format.h"

namespace apogee::ha {

SlaveStream::SlaveStream(store::ReplicationStore* store, std::string master, int64_t expected,
                         int64_t verify_end, int64_t max_body)
    : store_(store),
      master_(std::move(master)),
      expected_(expected),
      verify_end_(verify_end),
      max_body_(max_body),
      needed_(kTransferHeaderSize) {}

Status SlaveStream::Diverged(std::string problem) {
  problem_ = std::move(problem);
  return Status::Aborted("diverged");
}

Result<size_t> SlaveStream::Consume(const uint8_t* data, size_t size) {
  size_t pos = 0;
  needed_ = kTransferHeaderSize;
  while (size - pos >= kTransferHeaderSize) {
    const TransferHeader h = DecodeTransferHeader(data + pos);
    if (h.body_size < 0 || h.body_size > max_body_) {
      return Status::Corruption(fmt::format(
          "master frame with size {}, outside [0, {}] (one CommitLog file)", h.body_size, max_body_));
    }
    if (h.offset < 0 || h.offset > std::numeric_limits<int64_t>::max() - h.body_size) {
      return Status::Corruption(fmt::format("master frame at offset {}", h.offset));
    }
    const size_t frame = kTransferHeaderSize + static_cast<size_t>(h.body_size);
    if (size - pos < frame) {
      needed_ = frame;
      break;
    }
    const bool fresh = expected_ == 0 && store_->MaxPhyOffset() == 0;
    if (!fresh && h.offset != expected_) {
      if (h.body_size == 0 && h.offset < expected_) {
        return Diverged(fmt::format(
            "the master {} says its CommitLog ends at {}, but this slave holds up to {}: "
            "the slave has data the master does not; not merging. Move the slave's store "
            "aside (or truncate it) and restart it",
            master_, h.offset, std::max(expected_, verify_end_)));
      }
      return Status::Corruption(fmt::format(
          "master frame at offset {} but the slave expects {}; reconnecting", h.offset, expected_));
    }
    std::string_view body(reinterpret_cast<const char*>(data + pos + kTransferHeaderSize),
                          static_cast<size_t>(h.body_size));
    int64_t at = h.offset;
    // Compare the part the slave already holds.
    while (!body.empty() && at < verify_end_) {
      const size_t want = static_cast<size_t>(
          std::min<int64_t>(verify_end_ - at, static_cast<int64_t>(body.size())));
      Result<store::RawSegment> mine = store_->ReadRaw(at, want);
      if (!mine.ok() || mine->data.empty()) {
        return Status::Internal(fmt::format("slave cannot read its own CommitLog at {}: {}", at,
                                            mine.status().ToString()));
      }
      const size_t n_cmp = std::min(mine->data.size(), want);
      if (std::memcmp(mine->data.data(), body.data(), n_cmp) != 0) {
        return Diverged(fmt::format(
            "the slave's CommitLog bytes [{}, {}) differ from the master's {} (crc32 slave "
            "{:08x}, master {:08x}): the two logs diverged; not merging. Move the slave's "
            "store aside and restart it to copy again",
            at, at + static_cast<int64_t>(n_cmp), master_, Crc32(mine->data.substr(0, n_cmp)),
            Crc32(body.substr(0, n_cmp))));
      }
      body.remove_prefix(n_cmp);
      at += static_cast<int64_t>(n_cmp);
    }
    if (!body.empty()) {
      Status s = store_->AppendRaw(at, body);
      if (!s.ok()) return s.Prefixed("append replicated bytes");
    }
    expected_ = h.offset + h.body_size;
    pos += frame;
  }
  return pos;
}

}  // namespace apogee::ha
