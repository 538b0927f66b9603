// DispatchRequest: what the reput service extracts from one CommitLog record to build the
// ConsumeQueue and IndexFile entries (Java's DispatchRequest). Views point into the mapped
// CommitLog and are valid only during the dispatch call.
#pragma once

#include <cstdint>
#include <string_view>

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
};

}  // namespace apogee::store
