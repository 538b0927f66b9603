// Restart after kill -9 (issue 13, "restart target"): how long MessageStore::Open takes to
// recover a store whose process was SIGKILLed, per GiB of CommitLog rescanned, split into the
// CRC scan, the re-dispatch (ConsumeQueues, IndexFiles) and the flush of what was rebuilt.
// A plain main, not Google Benchmark: one expensive setup, then a few identical rounds.
//
// 1. A child process opens a store (ASYNC_FLUSH, 1 GiB CommitLog files, index on, Java's
//    defaults otherwise), writes --gib GiB of 1 KiB messages over 8 queues (TAGS, KEYS and
//    UNIQ_KEY per message, as a producer sends them), waits until dispatch has caught up (the
//    ConsumeQueue and IndexFile pages are in the page cache, as in a broker that ran), and
//    SIGKILLs itself: no clean shutdown, the abort marker stays.
// 2. The parent runs sync(1) (so background writeback of the dirty pages does not compete with
//    the timed part; the pages stay cached: the page cache is warm, as after a real kill -9),
//    saves the checkpoint file and the abort marker (which holds the boot id), and then
//    --rounds times restores them and times MessageStore::Open (lock, load, recover) + Start =
//    ready for writes. Every round recovers the same state: the checkpoint is the one the
//    killed process left. The marker's boot id is this boot's, so the index files are kept
//    (MessageStore::Load); --as-reboot restores an empty marker instead, which recovery treats
//    as after a power loss (the index file being written is rebuilt), the behaviour before.
//
// Usage: restart_after_kill [--gib 4] [--rounds 3] [--dir $TMPDIR/...] [--keep] [--as-reboot]
//                           [--recover-only]  (reuse a --keep'd directory: for perf/callgrind)
// The data is deleted at the end unless --keep. Results: docs/benchmarks.md,
// "Restart after kill -9".
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/logging.h"
#include "env/env.h"
#include "message/host_address.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "store/message_store.h"

namespace {

using apogee::store::MessageStore;
using apogee::store::PutResult;
using apogee::store::PutStatus;
using apogee::store::StoreConfig;

constexpr int kQueues = 8;
constexpr size_t kBodySize = 1024;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "restart_after_kill: %s\n", what.c_str());
  std::exit(1);
}

StoreConfig Config(const std::string& root) {
  StoreConfig c;
  c.store_path_root_dir = root;
  c.flush_disk_type = "ASYNC_FLUSH";
  return c;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out) Fail("cannot write " + path);
}

// Child: fill the store, wait for dispatch, die by SIGKILL.
[[noreturn]] void WriteAndDie(const StoreConfig& config, int64_t bytes) {
  auto opened = MessageStore::Open(config, apogee::env::Env::Default());
  if (!opened.ok()) Fail("open: " + opened.status().ToString());
  std::unique_ptr<MessageStore> store = std::move(*opened);
  if (!store->Start().ok()) Fail("start");
  const std::string body(kBodySize, 'b');
  int64_t written = 0;
  int64_t failed = 0;
  for (int64_t i = 0; written < bytes; ++i) {
    apogee::message::MessageProperties props;
    (void)props.Set("TAGS", "TagA");
    (void)props.Set("KEYS", "order-" + std::to_string(i));
    (void)props.Set("UNIQ_KEY", "7F00000100012A9F" + std::to_string(1000000000 + i));
    std::string properties = props.Encode();
    apogee::message::RecordFields f;
    f.topic = "RestartBench";
    f.body = body;
    f.properties = properties;
    f.queue_id = static_cast<int32_t>(i % kQueues);
    f.born_host = apogee::message::HostAddress::IPv4(127, 0, 0, 1, 40000);
    f.store_host = apogee::message::HostAddress::IPv4(127, 0, 0, 1, 10911);
    f.born_timestamp = 1700000000000 + i;
    store->PutMessage(f, true, [&](const PutResult& r) {
      if (r.status == PutStatus::kPutOk) {
        written += r.wrote_bytes;
      } else {
        ++failed;
      }
    });
    if (failed > 100) Fail("puts refused (disk full?)");
  }
  while (store->DispatchBehindBytes() > 0) usleep(10000);
  std::fprintf(stderr, "child: %.2f GiB written and dispatched; SIGKILL\n",
               static_cast<double>(written) / (1 << 30));
  kill(getpid(), SIGKILL);
  std::abort();
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

int main(int argc, char** argv) {
  double gib = 4;
  int rounds = 3;
  bool keep = false;
  bool recover_only = false;
  bool as_reboot = false;
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp ? tmp : "/tmp") + "/apogee-restart-bench";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--gib" && i + 1 < argc) gib = std::atof(argv[++i]);
    else if (a == "--rounds" && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--keep") keep = true;
    else if (a == "--recover-only") recover_only = true;
    else if (a == "--as-reboot") as_reboot = true;
    else Fail("unknown argument " + a);
  }
  if (gib <= 0 || gib > 4) Fail("--gib must be in (0, 4]: keep the scratch data small");
  apogee::LogOptions log;
  log.level = "info";  // the store's recovery lines (scan / re-dispatch / flush ms) on stderr
  log.to_file = false;
  apogee::InitLogging(log);
  const StoreConfig config = Config(dir);
  if (!recover_only) {
    std::filesystem::remove_all(dir);
    pid_t pid = fork();
    if (pid < 0) Fail("fork");
    if (pid == 0) WriteAndDie(config, static_cast<int64_t>(gib * (1 << 30)));
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) Fail("the writer did not die by SIGKILL");
    sync();
  }
  if (!std::filesystem::exists(config.AbortPath())) Fail("no abort marker in " + dir);
  const std::string checkpoint = ReadFile(config.CheckpointPath());
  const std::string abort_marker = as_reboot ? "" : ReadFile(config.AbortPath());

  std::printf("restart after kill -9: %s, warm page cache, 1 KiB messages, checkCRCOnRecover=%s\n",
              dir.c_str(), config.check_crc_on_recover ? "true" : "false");
  std::printf("wall clock: ready = Open + Start; phases (s per GiB rescanned): scan (CRC), "
              "dispatch, flush, other\n"
              "cpu: the recovering thread's CPU time per phase (s per GiB), not inflated by load\n");
  std::printf("%5s %6s %8s %7s | %6s %6s %6s %6s | %7s %6s %6s %6s\n", "round", "GiB", "ready s",
              "s/GiB", "scan", "disp", "flush", "other", "cpu/GiB", "scan", "disp", "flush");
  std::vector<double> per_gib;
  std::vector<double> cpu_per_gib;
  for (int round = 1; round <= rounds; ++round) {
    WriteFile(config.CheckpointPath(), checkpoint);
    WriteFile(config.AbortPath(), abort_marker);
    auto begin = std::chrono::steady_clock::now();
    auto opened = MessageStore::Open(config, apogee::env::Env::Default());
    if (!opened.ok()) Fail("open: " + opened.status().ToString());
    if (!(*opened)->Start().ok()) Fail("start");
    const double ready = Seconds(std::chrono::steady_clock::now() - begin);
    const auto& r = (*opened)->recovery_report();
    if (r.last_exit_ok) Fail("the store saw a clean exit");
    (*opened)->Halt();  // keep the state for the next round; no clean-exit marker
    const double g = static_cast<double>(r.scanned_bytes) / (1 << 30);
    if (g <= 0) Fail("nothing was rescanned");
    auto ms = [g](int64_t v) { return static_cast<double>(v) / 1e3 / g; };
    auto us = [g](int64_t v) { return static_cast<double>(v) / 1e6 / g; };
    const double other = ready - static_cast<double>(r.scan_ms + r.dispatch_ms + r.flush_ms) / 1e3;
    const double cpu = us(r.scan_cpu_us + r.dispatch_cpu_us + r.flush_cpu_us);
    std::printf("%5d %6.2f %8.3f %7.3f | %6.3f %6.3f %6.3f %6.3f | %7.3f %6.3f %6.3f %6.3f\n",
                round, g, ready, ready / g, ms(r.scan_ms), ms(r.dispatch_ms), ms(r.flush_ms),
                other / g, cpu, us(r.scan_cpu_us), us(r.dispatch_cpu_us), us(r.flush_cpu_us));
    std::printf("      scanned [%lld, %lld), re-dispatched from %lld, index files %s\n",
                static_cast<long long>(r.commit_log_start),
                static_cast<long long>(r.commit_log_end),
                static_cast<long long>(r.dispatched_from),
                r.same_boot ? "kept (same boot)" : "rebuilt (another boot, or no boot id)");
    per_gib.push_back(ready / g);
    cpu_per_gib.push_back(cpu);
  }
  if (!per_gib.empty()) {
    std::sort(per_gib.begin(), per_gib.end());
    std::sort(cpu_per_gib.begin(), cpu_per_gib.end());
    std::printf("median %.3f s per GiB rescanned (best %.3f); recovery CPU median %.3f s per GiB "
                "(best %.3f)\n",
                per_gib[per_gib.size() / 2], per_gib.front(), cpu_per_gib[cpu_per_gib.size() / 2],
                cpu_per_gib.front());
  }
  if (!keep) std::filesystem::remove_all(dir);
  return 0;
}
