// The outcome of a put, as Java's PutMessageStatus. The broker maps it to a RemotingCommand
// response code in exactly one place; the store never sees response codes.
#pragma once

#include <cstdint>
#include <string_view>

#include "base/strong_types.h"

namespace apogee::store {

enum class PutStatus {
  kPutOk,
  // Stored, but the flush policy was not met in syncFlushTimeout (still "sent").
  kFlushDiskTimeout,
  // Stored, but no slave acknowledged within slaveTimeout (still "sent").
  kFlushSlaveTimeout,
  // Stored, but no slave is close enough to wait for (still "sent").
  kSlaveNotAvailable,
  // Not stored: shut down, slave role, disk full, or a previous fsync failed.
  kServiceNotAvailable,
  kCreateMappedFileFailed,
  // Not stored: body above maxMessageSize, record too large, topic too long.
  kMessageIllegal,
  kPropertiesSizeExceeded,
  kOsPageCacheBusy,
  kUnknownError,
};

std::string_view PutStatusName(PutStatus status);
// True when the message is in the CommitLog (Java's "sent" statuses): OK and the three
// timeout/availability statuses that report a policy not met for a stored message.
bool PutStatusStored(PutStatus status);

// What a put returns when it completes.
struct PutResult {
  PutStatus status = PutStatus::kUnknownError;
  // Valid when PutStatusStored(status).
  PhyOffset wrote_offset{0};  // physical offset of the first record
  int32_t wrote_bytes = 0;    // bytes of all records written
  QueueOffset queue_offset{0};  // queue offset of the first message
  int32_t msg_num = 0;          // messages written (batch size)
  int64_t store_timestamp = 0;
};

}  // namespace apogee::store
