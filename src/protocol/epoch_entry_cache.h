// EpochEntryCache body (RocketMQ 5's remoting/protocol/body/EpochEntryCache and EpochEntry):
// the answer to GET_BROKER_EPOCH_CACHE (1007), which `mqadmin getBrokerEpoch` asks every
// broker of a set for. Apogee's brokers answer it when failover with etcd is on
// (docs/failover.md); the epochs are the ones the broker's own CommitLog holds.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::protocol {

struct EpochEntryJson {
  // Java's EpochEntry.LAST_EPOCH_END_OFFSET: the open end of the newest epoch.
  static constexpr int64_t kOpenEnd = std::numeric_limits<int64_t>::max();
  int32_t epoch = 0;
  int64_t start_offset = 0;
  int64_t end_offset = kOpenEnd;
  bool operator==(const EpochEntryJson&) const = default;
};

struct EpochEntryCache {
  std::string cluster_name;
  std::string broker_name;
  int64_t broker_id = 0;
  std::vector<EpochEntryJson> epoch_list;
  int64_t max_offset = 0;
};

// {"brokerId":..,"brokerName":..,"clusterName":..,"epochList":[{"endOffset":..,"epoch":..,
// "startOffset":..}],"maxOffset":..}: fastjson's sorted keys.
std::string EncodeEpochEntryCache(const EpochEntryCache& cache);
Result<EpochEntryCache> DecodeEpochEntryCache(std::string_view json);

// Java's EpochEntry.toString(): "EpochEntry{epoch=1, startOffset=0, endOffset=100}".
std::string EpochEntryToString(const EpochEntryJson& e);

}  // namespace apogee::protocol
