// mqbench: producer / consumer load generator (RocketMQ's benchmark Producer and Consumer).
//   mqbench producer -n 127.0.0.1:9876 -t BenchmarkTest -w 8 -s 1024 -m async -a 64 -d 30
//   mqbench consumer -t BenchmarkTest -w 4 -d 30
// Prints TPS and latency p50/p99/p99.9/max every second, then a summary (--json: one JSON
// line). Ctrl-C stops early and still prints the summary. Exit 1 on a setup error.
#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "admin/bench_config.h"
#include "admin/bench_runner.h"
#include "base/logging.h"

namespace {

std::atomic<bool> g_interrupted{false};

void OnSignal(int) { g_interrupted = true; }

}  // namespace

int main(int argc, char** argv) {
  apogee::InitLogging({.process_name = "", .level = "warn", .to_file = false});
  std::vector<std::string> args(argv + 1, argv + argc);
  const char* env = std::getenv("NAMESRV_ADDR");
  bool help = false;
  std::string usage;
  auto config = apogee::admin::ParseBenchArgs(args, env != nullptr ? env : "", &help, &usage);
  if (!config.ok()) {
    std::cerr << "mqbench: " << config.status().message() << "\n" << usage;
    return 1;
  }
  if (help) {
    std::cout << usage;
    return 0;
  }
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  auto summary = apogee::admin::RunBench(*config, std::cout, &g_interrupted);
  if (!summary.ok()) {
    std::cerr << "mqbench: " << summary.status().message() << "\n";
    return 1;
  }
  return summary->ok > 0 ? 0 : 1;
}
