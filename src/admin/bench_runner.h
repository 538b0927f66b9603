// mqbench's driver: optional topic creation, the workload (bench_producer.h or
// bench_consumer.h), a progress line every report interval and the final summary.
#pragma once

#include <atomic>
#include <ostream>

#include "admin/bench_config.h"
#include "admin/bench_stats.h"
#include "base/status.h"

namespace apogee::admin {

// What the runner drives: Start spawns the threads, Finished says a message quantity is
// fully done, Stop asks the threads to end and waits for them (and for async sends in
// flight, up to a bound).
class BenchWorkload {
 public:
  virtual ~BenchWorkload() = default;
  virtual Status Start(BenchStats* stats) = 0;
  virtual bool Finished() const = 0;
  virtual void Stop() = 0;
};

// Creates config.topic with config.create_queue_nums read/write queues on every master of
// config.cluster.
Status CreateBenchTopic(const BenchConfig& config, std::ostream& out);

// Runs until the quantity is done, the duration passed, or `*interrupted` turns true.
// Progress lines go to `out`, then the summary: text, or with config.json one JSON line.
Result<BenchSummary> RunBench(const BenchConfig& config, std::ostream& out,
                              const std::atomic<bool>* interrupted);

// The reporting loop over an already built workload (RunBench's second half; tests use
// it with a fake workload).
Result<BenchSummary> RunWorkload(const BenchConfig& config, BenchWorkload* workload, std::ostream& out,
                                 const std::atomic<bool>* interrupted);

// Monotonic microseconds, the clock every mqbench latency uses.
int64_t MonotonicMicros();

}  // namespace apogee::admin
