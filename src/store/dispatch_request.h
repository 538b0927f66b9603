// DispatchRequest: what the reput service extracts from one CommitLog record to build the
// ConsumeQueue and IndexFile entries (Java's DispatchRequest). Views point into the mapped
// CommitLog and are valid only during the dispatch call.
#pragma once

#include <cstdint>
#include <string_view>

#include "message/message_record.h"

namespace apogee::store {

struct DispatchRequest {
  std::string_view topic;
  int32_t queue_id = 0;
  int64_t phy_offset = 0;
  int32_t size = 0;
  int64_t tag_code = 0;
  int64_t store_timestamp = 0;
  int64_t queue_offset = 0;
  int32_t sys_flag = 0;
  std::string_view keys;      // KEYS property, space-separated
  std::string_view uniq_key;  // UNIQ_KEY property
  // SCHEDULE_TOPIC_XXXX records only: the DELAY level; the store turns it into the tag code
  // (delivery time = store timestamp + the level's delay) with its DelayLevelTable.
  int32_t delay_level = 0;
};

// The tag code of a TAGS value: Java's String.hashCode, sign-extended to the int64 slot;
// 0 when there is no tag.
int64_t TagCodeOf(std::string_view tags);

// Builds the request for the record `view` found at `phy_offset` with `size` bytes.
DispatchRequest MakeDispatchRequest(const message::RecordView& view, int64_t phy_offset,
                                    int32_t size);

// True when the record gets a ConsumeQueue entry: plain and COMMIT records do; PREPARED and
// ROLLBACK records do not (they are reached through the transaction topics).
bool ShouldDispatchToConsumeQueue(int32_t sys_flag);

}  // namespace apogee::store
