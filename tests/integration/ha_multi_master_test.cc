// Two broker sets (broker-a, broker-b; each a SYNC_MASTER with a slave) in one cluster
// serving one topic. broker-a's master is killed with SIGKILL: the NameServer keeps
// listing broker-b's master (and broker-a's slave, for reads), sends to broker-b go on
// without a failure, and everything broker-a acknowledged is readable from its slave.
#include <gtest/gtest.h>
#include <signal.h>

#include <string>

#include "ha_harness.h"
#include "protocol/response_code.h"
#include "protocol/route_data.h"

namespace apogee::testing {
namespace {

namespace rc = protocol::response_code;
using namespace std::chrono_literals;

constexpr int32_t kQueues = 2;

// The brokerId -> address map of each broker set in the topic's route.
std::map<std::string, std::map<int64_t, std::string>> RouteBrokers(const std::string& namesrv) {
  remoting::RemotingClient client;
  client.Start();
  std::map<std::string, std::map<int64_t, std::string>> out;
  auto route = QueryRoute(client, namesrv, kHaTopic);
  if (route.ok()) {
    for (const auto& bd : route->broker_datas) {
      for (const auto& [id, addr] : bd.broker_addrs) out[bd.broker_name][id] = addr;
    }
  }
  client.Shutdown();
  return out;
}

TEST(HaMultiMasterTest, KillingOneMasterLeavesTheOtherSetServing) {
  NamesrvProcess namesrv;
  ASSERT_TRUE(namesrv.Start());
  HaBrokerSet a(namesrv.addr(), {.broker_name = "broker-a"});
  HaBrokerSet b(namesrv.addr(), {.broker_name = "broker-b"});
  ASSERT_TRUE(a.Start());
  ASSERT_TRUE(b.Start());
  ASSERT_TRUE(a.CreateTopic(kHaTopic, kQueues));
  ASSERT_TRUE(b.CreateTopic(kHaTopic, kQueues));
  // Both masters and both slaves are routed.
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto brokers = RouteBrokers(namesrv.addr());
        return brokers["broker-a"].size() == 2 && brokers["broker-b"].size() == 2;
      },
      30s))
      << "route never listed two masters and two slaves";

  LoadGenerator load_a(a.master().addr(), {.queues = kQueues});
  LoadGenerator load_b(b.master().addr(), {.queues = kQueues});
  load_a.Start();
  load_b.Start();
  ASSERT_TRUE(WaitUntil([&] { return load_a.acked() >= 100 && load_b.acked() >= 100; }, 60s))
      << "a: " << load_a.acked() << " b: " << load_b.acked();

  ASSERT_TRUE(a.master().process().Signal(SIGKILL));
  a.master().process().Wait(10s);
  load_a.Stop();
  const int64_t b_at_kill = load_b.acked();

  // The NameServer drops broker-a's master (its connection closed) and keeps the rest.
  EXPECT_TRUE(WaitUntil(
      [&] {
        auto brokers = RouteBrokers(namesrv.addr());
        return brokers["broker-a"].count(0) == 0 && brokers["broker-a"].count(1) == 1 &&
               brokers["broker-b"].count(0) == 1;
      },
      30s))
      << "route after the kill does not list broker-b's master and broker-a's slave only";
  auto brokers = RouteBrokers(namesrv.addr());
  EXPECT_EQ(brokers["broker-b"][0], b.master().addr());
  EXPECT_EQ(brokers["broker-a"][1], a.slave().addr());

  // broker-b goes on: more sends, every one SEND_OK.
  EXPECT_TRUE(WaitUntil([&] { return load_b.acked() >= b_at_kill + 200; }, 60s));
  load_b.Stop();
  // No send to broker-b failed; a FLUSH_SLAVE_TIMEOUT (its own slave late by slaveTimeout,
  // only when the machine starves a process) is still a stored message, so it is tolerated.
  for (const auto& [code, count] : load_b.CodeCounts()) {
    EXPECT_TRUE(code == rc::kSuccess || code == rc::kFlushSlaveTimeout)
        << count << " send(s) to broker-b answered code " << code;
  }

  HaClient client;
  auto report_a = VerifyReplica(client, a.slave().addr(), kHaTopic, kQueues, load_a.Acked(), 15s);
  ASSERT_TRUE(report_a.ok()) << report_a.status().ToString();
  EXPECT_TRUE(report_a->Clean()) << "broker-a's slave: " << report_a->ToString();
  auto report_b = VerifyReplica(client, b.slave().addr(), kHaTopic, kQueues, load_b.Acked(), 15s);
  ASSERT_TRUE(report_b.ok()) << report_b.status().ToString();
  EXPECT_TRUE(report_b->Clean()) << "broker-b's slave: " << report_b->ToString();
}

}  // namespace
}  // namespace apogee::testing
