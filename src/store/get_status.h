// The outcome of a read by queue offset, as Java's GetMessageStatus. The broker maps it
// to a pull response (and the next offset to suggest); the store never sees response codes.
#pragma once

#include <string_view>

namespace apogee::store {

enum class GetStatus {
  kFound,
  // Entries exist from the offset but none matched the tag filter.
  kNoMatchedMessage,
  // The CommitLog record the ConsumeQueue points at was deleted (retention).
  kMessageWasRemoving,
  // The offset is valid but its ConsumeQueue file is gone.
  kOffsetFoundNull,
  kOffsetOverflowBadly,  // offset > max offset
  kOffsetOverflowOne,    // offset == max offset: nothing new yet
  kOffsetTooSmall,       // offset < min offset
  kNoMatchedLogicQueue,  // topic-queue unknown
  kNoMessageInQueue,     // queue exists but is empty
};

std::string_view GetStatusName(GetStatus status);

}  // namespace apogee::store
