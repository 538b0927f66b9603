// The broker's Prometheus metrics: RocketMQ 5.1's names and labels (so dashboards made for
// RocketMQ 5 work) computed from the runtime statistics, the store and the managers, plus
// Apogee's own (apogee_*). docs/operating/metrics.md lists every family and what it means
// here.
//
// Rendering reads atomics, the statistics' snapshot rings and the managers' tables; it
// never takes the store's put lock, so a scrape does not block the send path.
#pragma once

#include <memory>
#include <string>

#include "metrics/exposition.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;
class BrokerStatsManager;

// The labels every broker series carries: cluster, node_type="broker", node_id (the
// broker name), as RocketMQ 5.1's BrokerMetricsManager sets them.
struct BrokerLabels {
  std::string cluster;
  std::string node_id;
};

// The statistics part (messages and throughput in / out, message size): the families
// that grow with topics and groups.
void WriteStatsMetrics(metrics::PromWriter& w, const BrokerLabels& labels,
                       const BrokerStatsManager& stats);

// Everything: statistics, consumer lag, storage, topic / group counts, connections, disk.
// `env` measures the disk (null: the ratio is left out).
std::string RenderBrokerMetrics(const BrokerContext& context, const BrokerStatsManager& stats,
                                env::Env* env);

// With metricsExporterType=PROM: an HTTP server on metricsPromExporterHost (default
// brokerIP1) : metricsPromExporterPort serving GET /metrics, started and stopped through
// the context's hooks (a busy port fails the broker's start, naming it). No-op otherwise.
// `stats` is the broker's one statistics object (the controller's); never null.
void RegisterMetricsExporter(BrokerContext& context, std::shared_ptr<BrokerStatsManager> stats,
                             env::Env* env);

}  // namespace apogee::broker
