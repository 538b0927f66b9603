// GET_BROKER_CONSUME_STATS (317) body: Java's ConsumeStatsList, what
// `mqadmin brokerConsumeStats` prints. One entry per subscription group, each a list of
// ConsumeStats (one per topic the group has offsets for), plus the broker address and the
// total lag (and, as 5.x, the total in-flight messages):
//
//   {"brokerAddr":"127.0.0.1:10911","consumeStatsList":[{"g":[{"consumeTps":..,
//    "offsetTable":{..}}]}],"totalDiff":3,"totalInflightDiff":0}
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "protocol/admin_bodies.h"

namespace apogee::protocol {

struct ConsumeStatsList {
  std::string broker_addr;
  std::vector<std::pair<std::string, std::vector<ConsumeStats>>> groups;
  int64_t total_diff = 0;
  int64_t total_inflight_diff = 0;
};

// ConsumeStats.computeTotalDiff / computeInflightTotalDiff: Σ broker − consumer offset,
// Σ pull − consumer offset.
int64_t ComputeTotalDiff(const ConsumeStats& stats);
int64_t ComputeInflightTotalDiff(const ConsumeStats& stats);

std::string EncodeConsumeStatsList(const ConsumeStatsList& list);
// What fetchConsumeStatsInBroker reads (MessageQueue-keyed offset tables as fastjson
// writes them); Corruption naming the field otherwise.
Result<ConsumeStatsList> DecodeConsumeStatsList(std::string_view text);

}  // namespace apogee::protocol
