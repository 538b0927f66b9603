// VIEW_BROKER_STATS_DATA (315) response body (Java's BrokerStatsData): one statistics item's
// minute, hour and day views, each {sum, tps, avgpt}.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::protocol {

struct BrokerStatsItem {
  int64_t sum = 0;
  double tps = 0;
  double avgpt = 0;
  bool operator==(const BrokerStatsItem&) const = default;
};

struct BrokerStatsData {
  BrokerStatsItem stats_minute;
  BrokerStatsItem stats_hour;
  BrokerStatsItem stats_day;
  bool operator==(const BrokerStatsData&) const = default;
};

std::string EncodeBrokerStatsData(const BrokerStatsData& data);
// Corruption naming the field for a body that is not a BrokerStatsData.
Result<BrokerStatsData> DecodeBrokerStatsData(std::string_view json);

}  // namespace apogee::protocol
