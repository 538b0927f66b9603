// A Prometheus scrape of the broker's statistics families: the cost per 1,000 series (goal:
// under 1 ms, docs/benchmarks.md), and the send-path hook the statistics add.
#include <benchmark/benchmark.h>

#include <string>

#include "base/clock.h"
#include "broker/broker_metrics.h"
#include "broker/broker_stats_manager.h"
#include "metrics/exposition.h"

namespace {

using apogee::broker::BrokerLabels;
using apogee::broker::BrokerStatsManager;

// `topics` topics, each with one consumer group: 2 in-series per topic, 2 out-series per
// group, so about 4 * topics series.
void Populate(BrokerStatsManager* stats, int topics) {
  for (int i = 0; i < topics; ++i) {
    const std::string topic = "bench-topic-" + std::to_string(i);
    stats->OnPut(topic, 1, 512, 1);
    stats->OnGet(topic, "bench-group-" + std::to_string(i), true, 1, 512);
  }
}

void BM_ScrapeStatsFamilies(benchmark::State& state) {
  BrokerStatsManager stats(apogee::Clock::Real());
  Populate(&stats, static_cast<int>(state.range(0)));
  const BrokerLabels labels{"DefaultCluster", "broker-a"};
  std::string out;
  size_t series = 0;
  for (auto _ : state) {
    out.clear();
    apogee::metrics::PromWriter w(&out);
    apogee::broker::WriteStatsMetrics(w, labels, stats);
    benchmark::DoNotOptimize(out.data());
  }
  for (char c : out) series += c == '\n';
  state.counters["series"] = static_cast<double>(series);
  state.counters["bytes"] = static_cast<double>(out.size());
  // Seconds per 1,000 series (the goal: below 0.001).
  state.counters["s_per_1k_series"] = benchmark::Counter(
      static_cast<double>(series) / 1000.0,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ScrapeStatsFamilies)->Arg(250)->Arg(2500)->Unit(benchmark::kMicrosecond);

void BM_SendPathHook(benchmark::State& state) {
  BrokerStatsManager stats(apogee::Clock::Real());
  Populate(&stats, 1000);
  apogee::store::PutResult result;
  result.status = apogee::store::PutStatus::kPutOk;
  result.msg_num = 1;
  result.wrote_bytes = 512;
  for (auto _ : state) {
    stats.BeginPut("bench-topic-500").Done(result);
  }
}
BENCHMARK(BM_SendPathHook)->Threads(1)->Threads(2);

}  // namespace

BENCHMARK_MAIN();
