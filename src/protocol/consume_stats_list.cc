#include "protocol/consume_stats_list.h"

#include "protocol/json_util.h"

namespace apogee::protocol {
namespace {

// A JSON string literal (quoted, escaped).
std::string WriteToStringValue(const std::string& s) {
  return json::WriteToString([&](json::Writer& w) { json::String(w, s); });
}

}  // namespace

int64_t ComputeTotalDiff(const ConsumeStats& stats) {
  int64_t diff = 0;
  for (const auto& [mq, w] : stats.offset_table) diff += w.broker_offset - w.consumer_offset;
  return diff;
}

int64_t ComputeInflightTotalDiff(const ConsumeStats& stats) {
  int64_t diff = 0;
  for (const auto& [mq, w] : stats.offset_table) diff += w.pull_offset - w.consumer_offset;
  return diff;
}

std::string EncodeConsumeStatsList(const ConsumeStatsList& list) {
  // The ConsumeStats pieces are written by their own codec (MessageQueue object keys), so
  // the outer object is assembled around them; keys in fastjson's (sorted) order.
  std::string out = "{\"brokerAddr\":";
  out += WriteToStringValue(list.broker_addr);
  out += ",\"consumeStatsList\":[";
  for (size_t i = 0; i < list.groups.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += "{" + WriteToStringValue(list.groups[i].first) + ":[";
    for (size_t j = 0; j < list.groups[i].second.size(); ++j) {
      if (j > 0) out.push_back(',');
      out += EncodeConsumeStats(list.groups[i].second[j]);
    }
    out += "]}";
  }
  out += "],\"totalDiff\":" + std::to_string(list.total_diff);
  out += ",\"totalInflightDiff\":" + std::to_string(list.total_inflight_diff) + "}";
  return out;
}

}  // namespace apogee::protocol
