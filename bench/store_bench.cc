// Store benchmarks on the real file system (PosixEnv) under $TMPDIR:
//   BM_AppendAsync        1 KiB appends under ASYNC_FLUSH (messages/s, bytes/s)
//   BM_AppendSync/N       SYNC_FLUSH group commit with N puts in flight
//   BM_GetMessages        reads by queue offset, 32 messages per call
//   BM_RebuildDispatch    ConsumeQueue + IndexFile rebuild from the CommitLog (dispatch rate)
//   BM_CrashRecovery      abnormal-exit recovery with CRC checks (seconds per GiB)
// Results and reference figures: docs/benchmarks.md ("Store").
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>

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

std::string ScratchDir(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp ? tmp : "/tmp") + "/apogee-store-bench-" +
                    std::to_string(getpid()) + "-" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

StoreConfig BenchConfig(const std::string& root, bool sync) {
  StoreConfig c;
  c.store_path_root_dir = root;
  c.mapped_file_size_commit_log = 128 << 20;
  c.flush_disk_type = sync ? "SYNC_FLUSH" : "ASYNC_FLUSH";
  c.max_hash_slot_num = 500000;
  c.max_index_num = 2000000;
  c.warm_mapped_file_enable = sync;
  return c;
}

struct Fields {
  std::string topic = "BenchTopic";
  std::string body;
  std::string properties;
  apogee::message::RecordFields fields;
  explicit Fields(size_t body_size, int i = 0) : body(body_size, 'b') {
    apogee::message::MessageProperties props;
    (void)props.Set("TAGS", "TagA");
    (void)props.Set("UNIQ_KEY", "7F0000010001" + std::to_string(100000000 + i));
    properties = props.Encode();
    fields.topic = topic;
    fields.body = body;
    fields.properties = properties;
    fields.queue_id = i % 8;
    fields.born_host = apogee::message::HostAddress::IPv4(127, 0, 0, 1, 40000);
    fields.store_host = apogee::message::HostAddress::IPv4(127, 0, 0, 1, 10911);
  }
};

std::unique_ptr<MessageStore> OpenOrDie(const StoreConfig& config) {
  auto s = MessageStore::Open(config, apogee::env::Env::Default());
  if (!s.ok()) {
    std::fprintf(stderr, "open: %s\n", s.status().ToString().c_str());
    std::abort();
  }
  if (!(*s)->Start().ok()) std::abort();
  return std::move(*s);
}

void BM_AppendAsync(benchmark::State& state) {
  std::string dir = ScratchDir("async");
  auto store = OpenOrDie(BenchConfig(dir, false));
  Fields f(static_cast<size_t>(state.range(0)));
  int64_t bytes = 0;
  for (auto _ : state) {
    store->PutMessage(f.fields, true, [&bytes](const PutResult& r) { bytes += r.wrote_bytes; });
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(bytes);
  store->Shutdown();
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_AppendAsync)->Arg(1024)->Unit(benchmark::kMicrosecond)->MinTime(3);

void BM_AppendSync(benchmark::State& state) {
  std::string dir = ScratchDir("sync");
  auto store = OpenOrDie(BenchConfig(dir, true));
  Fields f(1024);
  const int64_t in_flight_max = state.range(0);
  std::mutex mu;
  std::condition_variable cv;
  int64_t in_flight = 0;
  std::atomic<int64_t> failures{0};
  auto done = [&](const PutResult& r) {
    if (r.status != PutStatus::kPutOk) failures.fetch_add(1);
    std::lock_guard<std::mutex> lock(mu);
    --in_flight;
    cv.notify_one();
  };
  for (auto _ : state) {
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return in_flight < in_flight_max; });
      ++in_flight;
    }
    store->PutMessage(f.fields, true, done);
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return in_flight == 0; });
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * 1024);
  state.counters["failed"] = static_cast<double>(failures.load());
  store->Shutdown();
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_AppendSync)->Arg(1)->Arg(16)->Arg(64)->Unit(benchmark::kMicrosecond)->MinTime(3)
    ->UseRealTime();

// A store with `n` 1 KiB messages over 8 queues, shut down cleanly.
std::string PrepareStore(const std::string& name, int n) {
  std::string dir = ScratchDir(name);
  auto store = OpenOrDie(BenchConfig(dir, false));
  for (int i = 0; i < n; ++i) {
    Fields f(1024, i);
    store->PutMessage(f.fields, true, [](const PutResult&) {});
  }
  while (store->DispatchBehindBytes() > 0) usleep(1000);
  store->Shutdown();
  return dir;
}

void BM_GetMessages(benchmark::State& state) {
  std::string dir = PrepareStore("get", 200000);
  auto store = OpenOrDie(BenchConfig(dir, false));
  const int64_t max = store->GetMaxOffsetInQueue("BenchTopic", 0);
  int64_t offset = 0;
  int64_t messages = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    auto r = store->GetMessages("BenchTopic", 0, offset, 32, 1 << 20);
    messages += static_cast<int64_t>(r.messages.size());
    bytes += r.total_bytes;
    offset = r.next_begin_offset >= max ? 0 : r.next_begin_offset;
  }
  state.SetItemsProcessed(messages);
  state.SetBytesProcessed(bytes);
  store->Shutdown();
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_GetMessages)->Unit(benchmark::kMicrosecond);

void BM_RebuildDispatch(benchmark::State& state) {
  const int n = 200000;
  std::string dir = PrepareStore("rebuild", n);
  StoreConfig config = BenchConfig(dir, false);
  for (auto _ : state) {
    state.PauseTiming();
    std::filesystem::remove_all(config.ConsumeQueueDir());
    std::filesystem::remove_all(config.IndexDir());
    std::filesystem::remove(config.CheckpointPath());
    state.ResumeTiming();
    auto s = MessageStore::Open(config, apogee::env::Env::Default());
    if (!s.ok()) std::abort();
    (*s)->Shutdown();
  }
  state.SetItemsProcessed(state.iterations() * n);
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_RebuildDispatch)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_CrashRecovery(benchmark::State& state) {
  const int n = 400000;  // ~450 MB of CommitLog
  std::string dir = PrepareStore("recovery", n);
  StoreConfig config = BenchConfig(dir, false);
  int64_t scanned = 0;
  for (auto _ : state) {
    state.PauseTiming();
    // An abort marker and a zero checkpoint: recovery scans every record with its CRC.
    std::filesystem::remove(config.CheckpointPath());
    { std::FILE* f = std::fopen(config.AbortPath().c_str(), "w"); std::fclose(f); }
    state.ResumeTiming();
    auto s = MessageStore::Open(config, apogee::env::Env::Default());
    if (!s.ok()) std::abort();
    scanned += (*s)->recovery_report().scanned_bytes;
    (*s)->Shutdown();
  }
  state.SetBytesProcessed(scanned);
  state.counters["GiB_scanned"] = static_cast<double>(scanned) / (1 << 30);
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_CrashRecovery)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
