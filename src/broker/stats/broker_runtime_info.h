// GET_BROKER_RUNTIME_INFO (28): the KVTable `mqadmin clusterList` and `brokerStatus` read
// (Java's AdminBrokerProcessor.prepareRuntimeInfo plus StoreStatsService;
// docs/protocol/remoting.md §5.5.5). Every key clusterList parses is present, because the Java
// tool fails on a missing one.
//
// The counters come from the BrokerStatsManager (broker_stats_manager.h); keys Apogee
// cannot fill are listed in docs/operating/runtime_statistics.md.
#pragma once

#include <cstdint>
#include <string>

#include "protocol/kv_table.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;
class BrokerStatsManager;

// Java's StoreStatsService format: the 10 s, 60 s and 600 s rates, space separated
// ("12.00 10.50 3.25"; two decimals where Java prints a double's full digits).
std::string FormatTpsTriple(double tps10, double tps60, double tps600);

// StoreStatsService.getFormatRuntime: "[ 0 days, 1 hours, 2 minutes, 3 seconds ]".
std::string FormatRuntime(int64_t elapsed_ms);

// The runtime-info table of this broker now. `env` is the one the store runs on (for the
// disk usage of storePathRootDir); null reports the ratio as -1.
protocol::KVTable BuildBrokerRuntimeInfo(const BrokerContext& context,
                                         const BrokerStatsManager& stats, env::Env* env);

}  // namespace apogee::broker
