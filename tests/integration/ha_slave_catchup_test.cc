// A slave that starts late, or is killed (-9) and restarted while the master keeps taking
// sends, catches up and then serves the same bytes as its master: identical pull bodies
// (the CommitLog records, physical offsets and store times included) and an identical
// CommitLog file.
#include <gtest/gtest.h>
#include <signal.h>

#include <string>

#include "ha_harness.h"
#include "protocol/response_code.h"

namespace apogee::testing {
namespace {

namespace rc = protocol::response_code;
using namespace std::chrono_literals;

constexpr int32_t kQueues = 3;
constexpr char kFirstCommitLog[] = "/commitlog/00000000000000000000";

// Every queue read from master and slave must be byte-identical, and so must the first
// CommitLog file up to the master's end (everything fits in that file here).
void ExpectSameBytes(HaBrokerSet& set) {
  HaClient client;
  for (int32_t q = 0; q < kQueues; ++q) {
    // Both brokers build their ConsumeQueues asynchronously (a restarted master re-dispatches
    // its tail too): compare once both have settled on the same content.
    std::string master_raw;
    std::string slave_raw;
    size_t master_count = 0;
    size_t slave_count = 0;
    const bool same = WaitUntil(
        [&] {
          master_raw.clear();
          slave_raw.clear();
          auto from_master = client.PullAll(set.master().addr(), kHaTopic, q, &master_raw);
          auto from_slave = client.PullAll(set.slave().addr(), kHaTopic, q, &slave_raw);
          if (!from_master.ok() || !from_slave.ok()) return false;
          master_count = from_master->size();
          slave_count = from_slave->size();
          return master_count > 0 && master_raw == slave_raw;
        },
        20s);
    EXPECT_TRUE(same) << "queue " << q << ": pull bodies differ (master " << master_count
                      << " messages / " << master_raw.size() << " bytes, slave " << slave_count
                      << " / " << slave_raw.size() << ")";
  }
  // The CommitLog up to the master's end (beyond it a recovered master may keep the bytes
  // of a torn record it truncated logically; they are not data).
  auto master_end = client.CommitLogMaxOffset(set.master().addr());
  auto slave_end = client.CommitLogMaxOffset(set.slave().addr());
  ASSERT_TRUE(master_end.ok() && slave_end.ok());
  EXPECT_EQ(*slave_end, *master_end);
  const auto end = static_cast<size_t>(*master_end);
  const std::string master_log = ReadFileOrEmpty(set.master().store_dir() + kFirstCommitLog);
  const std::string slave_log = ReadFileOrEmpty(set.slave().store_dir() + kFirstCommitLog);
  ASSERT_GE(master_log.size(), end);
  ASSERT_GE(slave_log.size(), end);
  size_t first_diff = 0;
  while (first_diff < end && master_log[first_diff] == slave_log[first_diff]) ++first_diff;
  EXPECT_EQ(first_diff, end) << "CommitLogs differ from byte " << first_diff;
}

TEST(HaSlaveCatchupTest, SlaveStartedLateCatchesUpAndServesIdenticalBytes) {
  NamesrvProcess namesrv;
  ASSERT_TRUE(namesrv.Start());
  HaBrokerSet set(namesrv.addr(), {.master_role = "ASYNC_MASTER"});
  ASSERT_TRUE(set.StartMaster());
  ASSERT_TRUE(set.CreateTopic(kHaTopic, kQueues));
  {
    LoadGenerator load(set.master().addr(),
                       {.queues = kQueues, .body_size = 300, .max_per_queue = 500});
    load.Start();
    load.Join();
    ASSERT_EQ(load.acked(), 3 * 500) << "master alone must take every send";
  }
  ASSERT_TRUE(set.StartSlave());
  ASSERT_TRUE(set.WaitForTopicOnSlave(kHaTopic, 30s));
  ASSERT_TRUE(set.WaitForSlaveCaughtUp(30s)) << set.slave().ReadLog();
  ExpectSameBytes(set);
}

TEST(HaSlaveCatchupTest, SlaveKilledAndRestartedUnderLoadCatchesUp) {
  NamesrvProcess namesrv;
  ASSERT_TRUE(namesrv.Start());
  HaBrokerSet set(namesrv.addr(), {.master_role = "ASYNC_MASTER"});
  ASSERT_TRUE(set.Start());
  ASSERT_TRUE(set.CreateTopic(kHaTopic, kQueues));
  LoadGenerator load(set.master().addr(), {.queues = kQueues, .body_size = 300});
  load.Start();
  ASSERT_TRUE(WaitUntil([&] { return load.acked() >= 300; }, 30s));
  ASSERT_TRUE(set.slave().process().Signal(SIGKILL));
  set.slave().process().Wait(10s);
  // The master goes on alone for a while, then the slave comes back on the same store.
  const int64_t at_kill = load.acked();
  ASSERT_TRUE(WaitUntil([&] { return load.acked() >= at_kill + 300; }, 30s));
  ASSERT_TRUE(set.StartSlave());
  ASSERT_TRUE(WaitUntil([&] { return load.acked() >= at_kill + 600; }, 30s));
  load.Stop();
  EXPECT_EQ(load.CodeCounts().size(), 1u) << "an ASYNC_MASTER answers SEND_OK throughout";
  ASSERT_TRUE(set.WaitForSlaveCaughtUp(30s)) << set.slave().ReadLog();
  ExpectSameBytes(set);
  HaClient client;
  auto report = VerifyReplica(client, set.slave().addr(), kHaTopic, kQueues, load.Acked(), 15s);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->Clean()) << report->ToString();
}

// A SYNC_MASTER killed (-9) under load and restarted on the same store: its recovered
// CommitLog may hold an unacknowledged tail the slave never got; the slave resumes from its
// own end (no divergence is reported: the slave's bytes are a prefix of the master's),
// catches up and again serves the master's exact bytes.
TEST(HaSlaveCatchupTest, MasterKilledAndRestartedSlaveResumesWithoutDivergence) {
  NamesrvProcess namesrv;
  ASSERT_TRUE(namesrv.Start());
  HaBrokerSet set(namesrv.addr(), {.master_role = "SYNC_MASTER"});
  ASSERT_TRUE(set.Start());
  ASSERT_TRUE(set.CreateTopic(kHaTopic, kQueues));
  LoadGenerator load(set.master().addr(), {.queues = kQueues, .body_size = 300});
  load.Start();
  ASSERT_TRUE(WaitUntil([&] { return load.acked() >= 300; }, 60s)) << set.master().ReadLog();
  ASSERT_TRUE(set.master().process().Signal(SIGKILL));
  set.master().process().Wait(10s);
  load.Stop();
  const auto before = load.Acked();

  ASSERT_TRUE(set.StartMaster());
  {
    LoadGenerator more(set.master().addr(),
                       {.queues = kQueues, .body_size = 300, .max_per_queue = 50});
    // Sequence numbers restart at 0 in this second load; only the bytes are compared below.
    more.Start();
    more.Join();
  }
  ASSERT_TRUE(set.WaitForSlaveCaughtUp(30s)) << set.slave().ReadLog();
  ExpectSameBytes(set);
  HaClient client;
  auto report = VerifyReplica(client, set.slave().addr(), kHaTopic, kQueues, before, 15s);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->lost, 0) << report->ToString();
  EXPECT_EQ(report->mismatched, 0) << report->ToString();
  EXPECT_EQ(set.slave().ReadLog().find("diverge"), std::string::npos)
      << "the slave reported divergence:\n"
      << set.slave().ReadLog();
}

}  // namespace
}  // namespace apogee::testing
