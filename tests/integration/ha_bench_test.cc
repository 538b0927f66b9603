// Replication cost and lag, measured with the HA harness's load generator (run by
// scripts/ha-bench.sh; skipped unless APOGEE_HA_BENCH=1 so CI does not spend a minute on
// it). One run, same machine, same load, one after the other:
//   ASYNC_MASTER + slave, then SYNC_MASTER + slave, both with ASYNC_FLUSH so the
//   difference is the replica wait alone;
//   per role: sends/s and p50/p99 send latency over APOGEE_HA_BENCH_SECONDS (default 10)
//   with APOGEE_HA_BENCH_THREADS synchronous senders (default 8, one queue each);
//   for the ASYNC_MASTER: replication lag sampled every 50 ms, in bytes (master CommitLog
//   end minus slave end) and in ms (how long ago the master had what the slave has now).
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "ha_harness.h"

namespace apogee::testing {
namespace {

using namespace std::chrono_literals;

struct BenchResult {
  double sends_per_sec = 0;
  int64_t p50_us = 0;
  int64_t p99_us = 0;
  int64_t acked = 0;
  int64_t not_ok = 0;
  int64_t lag_bytes_max = 0;
  int64_t lag_bytes_avg = 0;
  int64_t lag_ms_max = 0;
  int64_t lag_ms_avg = 0;
};

// Samples (time, offset) of master and slave while the load runs.
class LagSampler {
 public:
  LagSampler(std::string master, std::string slave)
      : master_(std::move(master)), slave_(std::move(slave)) {}
  void Start() {
    thread_ = std::thread([this] {
      HaClient client(2s);
      while (!stop_.load()) {
        auto m = client.CommitLogMaxOffset(master_);
        const int64_t tm = SteadyMillis();
        auto s = client.CommitLogMaxOffset(slave_);
        const int64_t ts = SteadyMillis();
        if (m.ok() && s.ok()) samples_.push_back({tm, *m, ts, *s});
        std::this_thread::sleep_for(50ms);
      }
    });
  }
  void Stop(BenchResult* r) {
    stop_ = true;
    thread_.join();
    if (samples_.empty()) return;
    int64_t bytes_sum = 0;
    int64_t ms_sum = 0;
    for (const auto& x : samples_) {
      const int64_t behind = std::max<int64_t>(0, x.master_off - x.slave_off);
      r->lag_bytes_max = std::max(r->lag_bytes_max, behind);
      bytes_sum += behind;
      // When did the master first have what the slave has now?
      int64_t had_at = x.slave_t;
      for (const auto& y : samples_) {
        if (y.master_off >= x.slave_off) {
          had_at = y.master_t;
          break;
        }
      }
      const int64_t ms = std::max<int64_t>(0, x.slave_t - had_at);
      r->lag_ms_max = std::max(r->lag_ms_max, ms);
      ms_sum += ms;
    }
    const auto n = static_cast<int64_t>(samples_.size());
    r->lag_bytes_avg = bytes_sum / n;
    r->lag_ms_avg = ms_sum / n;
  }

 private:
  struct Sample {
    int64_t master_t, master_off, slave_t, slave_off;
  };
  std::string master_;
  std::string slave_;
  std::atomic<bool> stop_{false};
  std::vector<Sample> samples_;
  std::thread thread_;
};

BenchResult RunRole(const std::string& role, int seconds, int threads) {
  BenchResult r;
  NamesrvProcess namesrv;
  if (!namesrv.Start()) return r;
  HaBrokerSetOptions options;
  options.master_role = role;
  options.flush_disk_type = "ASYNC_FLUSH";
  // Larger files: fewer rolls during the run (a slave started fresh copies from the
  // master's last file, which is the first one here: it starts empty).
  options.master_extra = {{"mappedFileSizeCommitLog", std::to_string(256 << 20)}};
  options.slave_extra = options.master_extra;
  HaBrokerSet set(namesrv.addr(), options);
  if (!set.Start() || !set.CreateTopic(kHaTopic, threads)) return r;
  HaClient client;
  // Warm up until the slave acknowledges (a SYNC_MASTER answers SEND_OK only then).
  if (!WaitUntil([&] { return client.Send(set.master().addr(), kHaTopic, 0, "warmup").code == 0; },
                 30s) ||
      !set.WaitForSlaveCaughtUp(30s)) {
    ADD_FAILURE() << role << ": slave never caught up\n" << set.slave().ReadLog();
    return r;
  }
  LagSampler lag(set.master().addr(), set.slave().addr());
  LoadGenerator load(set.master().addr(),
                     {.topic = kHaTopic, .queues = threads, .body_size = 1024});
  const auto start = std::chrono::steady_clock::now();
  load.Start();
  lag.Start();
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  load.Stop();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  lag.Stop(&r);
  r.acked = load.acked();
  r.not_ok = load.attempted() - load.acked();
  r.sends_per_sec = static_cast<double>(r.acked) / elapsed;
  auto lat = load.LatenciesMicros();
  r.p50_us = Percentile(lat, 50);
  r.p99_us = Percentile(lat, 99);
  std::cout << "[ha-bench] role=" << role << " threads=" << threads << " seconds=" << seconds
            << " acked=" << r.acked << " not_ok=" << r.not_ok
            << " sends_per_sec=" << static_cast<int64_t>(r.sends_per_sec) << " p50_us=" << r.p50_us
            << " p99_us=" << r.p99_us << " lag_bytes_avg=" << r.lag_bytes_avg
            << " lag_bytes_max=" << r.lag_bytes_max << " lag_ms_avg=" << r.lag_ms_avg
            << " lag_ms_max=" << r.lag_ms_max << std::endl;
  return r;
}

TEST(HaBenchTest, SyncMasterCostAndReplicationLag) {
  if (EnvInt("APOGEE_HA_BENCH", 0) != 1) {
    GTEST_SKIP() << "a benchmark: set APOGEE_HA_BENCH=1 (scripts/ha-bench.sh does)";
  }
  const int seconds = EnvInt("APOGEE_HA_BENCH_SECONDS", 10);
  const int threads = EnvInt("APOGEE_HA_BENCH_THREADS", 8);
  BenchResult async = RunRole("ASYNC_MASTER", seconds, threads);
  BenchResult sync = RunRole("SYNC_MASTER", seconds, threads);
  ASSERT_GT(async.acked, 0);
  ASSERT_GT(sync.acked, 0);
  std::cout << "[ha-bench] SYNC/ASYNC throughput ratio=" << sync.sends_per_sec / async.sends_per_sec
            << " p99 ratio="
            << static_cast<double>(sync.p99_us) /
                   static_cast<double>(std::max<int64_t>(1, async.p99_us))
            << std::endl;
}

}  // namespace
}  // namespace apogee::testing
