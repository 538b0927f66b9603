// Consumer-group queries and offset resets that return data instead of printing a table,
// for callers other than mqadmin's sub-commands (mqdashboard's JSON API). They follow
// the same Java behaviour as consumerProgress and resetOffsetByTime.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "admin/admin_client.h"
#include "base/status.h"
#include "protocol/admin_bodies.h"

namespace apogee::admin {

// Java's examineConsumeStats (as consumerProgress does it): GET_CONSUME_STATS at every master serving the group's retry
// topic (or `topic`, when given), merged. The last error when no master answered.
Result<protocol::ConsumeStats> MergedConsumeStats(MQAdminClient* admin, const std::string& group,
                                                   std::optional<std::string> topic);

// The group's lag: the sum over queues of broker offset - consumer offset.
int64_t TotalLag(const protocol::ConsumeStats& stats);

struct QueueOffsetReset {
  std::string broker_name;
  int32_t queue_id = 0;
  int64_t offset = 0;  // the offset the group now starts from
};

// resetOffsetByTime for every queue of `topic`: the broker-side reset (INVOKE_BROKER_TO_RESET_OFFSET,
// which tells online members), or, when no member is online or the broker has no offset
// for some queue, Java's old way: offsets searched by time and committed queue by queue.
// `force` false only moves offsets backwards.
Result<std::vector<QueueOffsetReset>> ResetGroupOffsetsByTime(MQAdminClient* admin, const std::string& group,
                                                              const std::string& topic, int64_t timestamp,
                                                              bool force);

}  // namespace apogee::admin
