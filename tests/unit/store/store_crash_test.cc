// Seeded crash tests on the fault-injecting env: each run writes in rounds, "crashes" at a
// random point (Halt + drop every unsynced byte, sometimes with injected flush failures),
// recovers and checks that
//   * every put acknowledged PUT_OK under SYNC_FLUSH is readable, in queue order;
//   * each queue is a gap-free prefix of what was submitted to it (nothing past the torn
//     tail, nothing reordered);
//   * the IndexFile agrees with the CommitLog (acknowledged keys are found);
//   * new puts continue at the recovered queue offsets.
// APOGEE_CRASH_SEEDS=n runs n seeds (default 150).
#include <gtest/gtest.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <random>

#include "env/fault_injection_env.h"
#include "env/mem_env.h"
#include "message/message_record.h"
#include "store/message_store.h"
#include "store_test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;

constexpr int kQueues = 3;

struct Submitted {
  std::string body;
  std::string key;
  std::shared_ptr<PutStatus> status;  // set by the callback
  bool wait = true;  // WAIT=false puts are answered at once and promise no durability
};

int SeedCount() {
  const char* env = std::getenv("APOGEE_CRASH_SEEDS");
  return env ? std::max(1, std::atoi(env)) : 150;
}

// Reads every message of a queue as bodies, in queue order.
std::vector<std::string> ReadQueue(const MessageStore& store, int queue) {
  std::vector<std::string> out;
  int64_t offset = 0;
  while (true) {
    GetMessageResult g = store.GetMessages("Crash", queue, offset, 32, 1 << 20);
    if (g.status != GetStatus::kFound) break;
    for (const MessageRef& ref : g.messages) {
      auto d = message::DecodeRecord(ref.data, static_cast<size_t>(ref.size));
      EXPECT_EQ(d.status, message::RecordStatus::kMessage);
      EXPECT_EQ(d.record.queue_offset, static_cast<int64_t>(out.size()));
      out.emplace_back(d.record.body);
    }
    offset = g.next_begin_offset;
  }
  return out;
}

void RunSeed(uint64_t seed, bool sync_flush) {
  SCOPED_TRACE("seed " + std::to_string(seed) + (sync_flush ? " SYNC" : " ASYNC"));
  std::mt19937_64 rng(seed);
  auto mem = env::NewMemEnv();
  env::FaultInjectionEnv fault(mem.get());
  ManualClock clock;
  StoreConfig config = SmallConfig("/crash");
  config.flush_disk_type = sync_flush ? "SYNC_FLUSH" : "ASYNC_FLUSH";
  config.mapped_file_size_commit_log = 16 * 1024;  // many rolls
  config.mapped_file_size_consume_queue = 20 * 16;
  config.max_index_num = 64;

  // What each queue held after the last verified recovery.
  std::vector<std::vector<std::string>> durable(kQueues);
  const int rounds = 2 + static_cast<int>(rng() % 3);
  for (int round = 0; round <= rounds; ++round) {
    auto opened = MessageStore::Open(config, &fault, &clock);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    std::unique_ptr<MessageStore> store = std::move(*opened);
    ASSERT_TRUE(store->Start().ok());

    // ---- verify what survived the previous crash ----
    if (round > 0) {
      for (int q = 0; q < kQueues; ++q) {
        std::vector<std::string> got = ReadQueue(*store, q);
        ASSERT_GE(got.size(), durable[q].size()) << "queue " << q << " lost acknowledged data";
        for (size_t i = 0; i < got.size(); ++i) {
          if (i < durable[q].size()) {
            ASSERT_EQ(got[i], durable[q][i]) << "queue " << q << " offset " << i;
          }
        }
        EXPECT_EQ(store->GetMaxOffsetInQueue("Crash", q), static_cast<int64_t>(got.size()));
        durable[q] = got;
      }
    }
    if (round == rounds) {
      store->Shutdown();
      break;
    }

    // ---- write, then crash at a random point ----
    std::vector<std::vector<Submitted>> submitted(kQueues);
    if (rng() % 4 == 0) {
      fault.FailRandomly(env::FaultPoint::kSync, 0.05, rng());
    }
    const int puts = static_cast<int>(rng() % 120);
    for (int i = 0; i < puts; ++i) {
      int q = static_cast<int>(rng() % kQueues);
      clock.Advance(static_cast<int64_t>(rng() % 50));
      std::string body = "s" + std::to_string(seed) + "r" + std::to_string(round) + "i" +
                         std::to_string(i) + std::string(rng() % 1500, 'x');
      std::string key = "k" + std::to_string(seed) + "_" + std::to_string(round) + "_" +
                        std::to_string(i);
      TestMessage m("Crash", q, body, i % 2 ? "TagA" : "TagB", key);
      auto status = std::make_shared<PutStatus>(PutStatus::kUnknownError);
      // Most puts wait for the disk; some are fire-and-forget (WAIT=false).
      bool wait = rng() % 5 != 0;
      store->PutMessage(m.fields, wait, [status](const PutResult& r) { *status = r.status; });
      submitted[q].push_back(Submitted{body, key, status, wait});
      if (rng() % 8 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 3));
    }
    store->Halt();
    fault.ClearAllFaults();
    ASSERT_TRUE(fault.DropUnsyncedData().ok());

    // Everything acknowledged PUT_OK under SYNC_FLUSH must survive: extend the expected
    // durable prefix up to the last acknowledged put of each queue.
    std::vector<std::string> keys_to_check;
    for (int q = 0; q < kQueues; ++q) {
      size_t last_acked = 0;
      for (size_t i = 0; i < submitted[q].size(); ++i) {
        if (submitted[q][i].wait && *submitted[q][i].status == PutStatus::kPutOk) {
          last_acked = i + 1;
        }
      }
      if (!sync_flush) last_acked = 0;  // ASYNC_FLUSH promises nothing across a crash
      for (size_t i = 0; i < last_acked; ++i) durable[q].push_back(submitted[q][i].body);
      if (last_acked > 0) keys_to_check.push_back(submitted[q][last_acked - 1].key);
    }
    store.reset();

    if (!keys_to_check.empty()) {
      auto check = MessageStore::Open(config, &fault, &clock);
      ASSERT_TRUE(check.ok()) << check.status().ToString();
      for (const std::string& key : keys_to_check) {
        EXPECT_EQ((*check)->QueryMessages("Crash", key, 4, 0, INT64_MAX).messages.size(), 1u)
            << "index lost acknowledged key " << key;
      }
      (*check)->Halt();  // never started: leaves the files as they are
    }
  }
}

TEST(StoreCrashTest, SyncFlushSeeds) {
  int n = SeedCount();
  for (int seed = 0; seed < n && !::testing::Test::HasFatalFailure(); ++seed) {
    RunSeed(static_cast<uint64_t>(seed), /*sync_flush=*/true);
  }
}

TEST(StoreCrashTest, AsyncFlushSeedsStayConsistent) {
  int n = std::max(1, SeedCount() / 3);
  for (int seed = 0; seed < n && !::testing::Test::HasFatalFailure(); ++seed) {
    RunSeed(static_cast<uint64_t>(1000 + seed), /*sync_flush=*/false);
  }
}

}  // namespace
}  // namespace apogee::store
