#include "store/dispatch_request.h"

#include <algorithm>
#include <cstdint>

#include "base/java_hash.h"
#include "base/string_util.h"
#include "message/message_format.h"
#include "message/properties.h"
#include "message/property_pieces.h"

namespace apogee::store {

int64_t TagCodeOf(std::string_view tags) {
  if (tags.empty()) return 0;
  return static_cast<int64_t>(JavaStringHashCode(tags));
}

DispatchRequest MakeDispatchRequest(const message::RecordView& view, int64_t phy_offset,
                                    int32_t size) {
  DispatchRequest r;
  r.topic = view.topic;
  r.queue_id = view.queue_id;
  r.phy_offset = phy_offset;
  r.size = size;
  r.store_timestamp = view.store_timestamp;
  r.queue_offset = view.queue_offset;
  r.sys_flag = view.sys_flag;
  // One pass over the properties for everything dispatch reads (last occurrence wins, as
  // FindProperty): three lookups each scanning the string were a tenth of recovery's CPU.
  std::optional<std::string_view> tags;
  std::optional<std::string_view> delay;
  std::optional<std::string_view> timer_out;
  message::ForEachProperty(view.properties, [&](std::string_view k, std::string_view v) {
    if (k == message::kPropertyTags) {
      tags = v;
    } else if (k == message::kPropertyKeys) {
      r.keys = v;
    } else if (k == message::kPropertyUniqClientMessageIdKeyIdx) {
      r.uniq_key = v;
    } else if (k == message::kPropertyDelayTimeLevel) {
      delay = v;
    } else if (k == message::kPropertyTimerOutMs) {
      timer_out = v;
    }
  });
  r.tag_code = tags ? TagCodeOf(*tags) : 0;
  if (view.topic == message::kScheduleTopic) {
    // Java's checkMessageAndReturnSize: the tag code is the delivery time; the level is
    // resolved by the store, which owns the delay table. A record without a usable level
    // keeps its tag hash and is delivered at once by the schedule service.
    std::optional<int64_t> level = delay ? ParseInt64(*delay) : std::nullopt;
    if (level && *level > 0) r.delay_level = static_cast<int32_t>(std::min<int64_t>(*level, INT32_MAX));
  } else if (view.topic == message::kTimerTopic) {
    std::optional<int64_t> deliver_ms = timer_out ? ParseInt64(*timer_out) : std::nullopt;
    if (deliver_ms) r.tag_code = *deliver_ms;
  }
  return r;
}

bool ShouldDispatchToConsumeQueue(int32_t sys_flag) {
  int32_t type = sys_flag & message::kTransactionTypeMask;
  return type == message::kTransactionNotType || type == message::kTransactionCommitType;
}

}  // namespace apogee::store
