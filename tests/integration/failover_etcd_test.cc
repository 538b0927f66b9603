// Automatic failover coordinated by a real etcd (etcdEndpoints; docs/failover.md): one
// master and two replicas of one broker set, SYNC_MASTER + SYNC_FLUSH, an independent client
// sending one message at a time to whichever broker the NameServer names brokerId 0 and
// recording every acknowledgement. Faults: kill -9 of the master, SIGSTOP of the master, a
// cut link between master and etcd (TcpProxy), the old master coming back, two failovers in
// a row. Each: no acknowledged message missing on the new master, per-queue order kept, no
// acknowledgement from the old master once a new master acknowledged, writes acknowledged
// again within 10 s.
//
// APOGEE_FAILOVER_ROUNDS (default 1) repeats each test; scripts/failover-chaos.sh runs many
// and sums the "[failover-chaos]" lines printed here. Also the etcd client's calls against
// the real etcd 3.4 gateway.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "coord/etcd_client.h"
#include "etcd_process.h"
#include "ha_harness.h"
#include "protocol/response_code.h"
#include "tool_run.h"

namespace apogee::testing {
namespace {

namespace rc = protocol::response_code;
using namespace std::chrono_literals;

constexpr char kTopic[] = "FailoverTopic";
constexpr char kProbeTopic[] = "FailoverProbeTopic";
constexpr int32_t kQueues = 4;
constexpr int64_t kMaxWindowMs = 10000;

// ---- the etcd client against the real gateway ----

TEST(EtcdClientIntegrationTest, LeasesTransactionsAndRangesOnEtcd34) {
  EtcdProcess etcd;
  ASSERT_TRUE(etcd.Start());
  auto client = coord::EtcdClient::Create(etcd.endpoint(), 2000ms);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  coord::EtcdClient& c = **client;

  auto lease = c.LeaseGrant(2);
  ASSERT_TRUE(lease.ok()) << lease.status().ToString();
  auto ttl = c.LeaseKeepAlive(*lease);
  ASSERT_TRUE(ttl.ok()) << ttl.status().ToString();
  EXPECT_EQ(*ttl, 2);

  // Create-if-absent under the lease: the first wins, the second sees the first's value.
  auto first = c.Txn({coord::Compare::Absent("/t/master")},
                     {coord::TxnOp::Put("/t/master", "a", *lease)},
                     {coord::TxnOp::Range("/t/master")});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->succeeded);
  auto second = c.Txn({coord::Compare::Absent("/t/master")}, {coord::TxnOp::Put("/t/master", "b")},
                      {coord::TxnOp::Range("/t/master")});
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(second->succeeded);
  ASSERT_EQ(second->ranges.size(), 1u);
  ASSERT_EQ(second->ranges[0].size(), 1u);
  EXPECT_EQ(second->ranges[0][0].value, "a");
  EXPECT_EQ(second->ranges[0][0].lease, *lease);

  ASSERT_TRUE(c.Put("/t/epoch", "1").ok());
  ASSERT_TRUE(c.Put("/t/replicas/x", "x").ok());
  ASSERT_TRUE(c.Put("/u", "outside").ok());
  auto all = c.GetPrefix("/t/");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->kvs.size(), 3u);
  auto epoch = c.Get("/t/epoch");
  ASSERT_TRUE(epoch.ok());
  ASSERT_EQ(epoch->kvs.size(), 1u);
  // Compare-and-swap on the mod revision.
  const int64_t rev = epoch->kvs[0].mod_revision;
  auto cas = c.Txn({coord::Compare::ModRevision("/t/epoch", rev)}, {coord::TxnOp::Put("/t/epoch", "2")});
  ASSERT_TRUE(cas.ok());
  EXPECT_TRUE(cas->succeeded);
  auto stale = c.Txn({coord::Compare::ModRevision("/t/epoch", rev)}, {coord::TxnOp::Put("/t/epoch", "3")});
  ASSERT_TRUE(stale.ok());
  EXPECT_FALSE(stale->succeeded);

  // The lease expires without keep-alives: its key goes, keep-alive answers 0.
  EXPECT_TRUE(WaitUntil(
      [&] {
        auto r = c.Get("/t/master");
        return r.ok() && r->kvs.empty();
      },
      10s));
  auto expired = c.LeaseKeepAlive(*lease);
  ASSERT_TRUE(expired.ok());
  EXPECT_EQ(*expired, 0);
  EXPECT_TRUE(c.LeaseRevoke(*lease).ok());

  // A dead endpoint first: the client moves on to the live one.
  auto two = coord::EtcdClient::Create("http://127.0.0.1:1," + etcd.endpoint(), 1000ms);
  ASSERT_TRUE(two.ok());
  EXPECT_TRUE((*two)->Get("/t/epoch").ok());
}

// ---- the broker set ----

struct Ack {
  int32_t queue_id = 0;
  int64_t seq = 0;
  int64_t queue_offset = 0;
  int64_t at_ms = 0;
  std::string by;  // the broker that acknowledged
};

// One sender thread, one message at a time, round-robin over the queues; a failed send is
// retried with the same number after the route is refreshed.
class FailoverSender {
 public:
  FailoverSender(std::string namesrv) : namesrv_(std::move(namesrv)) { route_client_.Start(); }
  ~FailoverSender() { Stop(); }

  void Start() {
    thread_ = std::thread([this] { Run(); });
  }
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int64_t acked() const { return acked_count_.load(); }
  std::vector<Ack> Acks() const {
    std::lock_guard<std::mutex> lock(mu_);
    return acks_;
  }
  std::vector<AckedMessage> AckedMessages() const {
    std::vector<AckedMessage> out;
    for (const Ack& a : Acks()) out.push_back({a.queue_id, a.seq, a.queue_offset, a.at_ms});
    return out;
  }
  // The master the NameServer names now ("" when none).
  std::string Master() {
    auto route = QueryRoute(route_client_, namesrv_, kTopic);
    if (!route.ok() || route->broker_datas.empty()) return "";
    auto it = route->broker_datas[0].broker_addrs.find(0);
    return it == route->broker_datas[0].broker_addrs.end() ? "" : it->second;
  }

 private:
  void Run() {
    std::vector<int64_t> next_seq(kQueues, 0);
    int32_t queue = 0;
    std::string master;
    while (!stop_) {
      if (master.empty()) {
        master = Master();
        if (master.empty()) {
          std::this_thread::sleep_for(50ms);
          continue;
        }
      }
      SendOutcome out = client_.Send(master, kTopic, queue,
                                     LoadGenerator::Body(queue, next_seq[queue], 100));
      if (out.code == rc::kSuccess) {
        std::lock_guard<std::mutex> lock(mu_);
        acks_.push_back({queue, next_seq[queue], out.queue_offset, SteadyMillis(), master});
        acked_count_++;
        next_seq[queue]++;
        queue = (queue + 1) % kQueues;
      } else {
        master.clear();  // refresh the route: a fenced or dead master
        std::this_thread::sleep_for(50ms);
      }
    }
  }

  std::string namesrv_;
  HaClient client_{2s};
  remoting::RemotingClient route_client_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> acked_count_{0};
  mutable std::mutex mu_;
  std::vector<Ack> acks_;  // guarded by mu_
};

class FailoverSet {
 public:
  explicit FailoverSet(const std::string& namesrv) : namesrv_(namesrv) {}

  bool Start(bool proxy_first_to_etcd = false, const std::string& master_role = "SYNC_MASTER") {
    if (!etcd_.Start()) return false;
    if (proxy_first_to_etcd) {
      etcd_proxy_ = std::make_unique<TcpProxy>("127.0.0.1", etcd_.client_port());
      if (!etcd_proxy_->Start()) return false;
    }
    for (int i = 0; i < 3; ++i) {
      brokers_.push_back(std::make_unique<BrokerProcess>(Props{}, "broker-f"));
      BrokerProcess& b = *brokers_.back();
      b.SetExtra("brokerRole", i == 0 ? master_role : "SLAVE");
      b.SetExtra("brokerId", std::to_string(i));
      b.SetExtra("flushDiskType", "SYNC_FLUSH");
      b.SetExtra("etcdEndpoints", i == 0 && etcd_proxy_ ? "http://" + etcd_proxy_->addr()
                                                        : etcd_.endpoint());
      b.SetExtra("slaveSynchronizeInterval", "500");
      b.SetExtra("haSendHeartbeatInterval", "1000");
      b.SetExtra("haHousekeepingInterval", "5000");
    }
    for (auto& b : brokers_) {
      if (!b->Start(namesrv_)) return false;
    }
    return true;
  }

  // Waits until the NameServer names a master of the set and it acknowledges a probe.
  std::string WaitForMaster(FailoverSender& routes, std::chrono::milliseconds timeout,
                            const std::string& not_this = "") {
    std::string found;
    WaitUntil(
        [&] {
          std::string m = routes.Master();
          if (m.empty() || m == not_this) return false;
          if (client_.Send(m, kProbeTopic, 0, "probe").code != rc::kSuccess) return false;
          found = m;
          return true;
        },
        timeout);
    return found;
  }

  bool CreateTopic() {
    // On the elected master (the NameServer names it brokerId 0 of the set in TBW102's
    // route); the replicas copy it.
    remoting::RemotingClient routes;
    routes.Start();
    std::string master;
    if (!WaitUntil(
            [&] {
              auto route = QueryRoute(routes, namesrv_, "TBW102");
              if (!route.ok()) return false;
              for (const auto& bd : route->broker_datas) {
                auto it = bd.broker_addrs.find(0);
                if (bd.broker_name == "broker-f" && it != bd.broker_addrs.end()) master = it->second;
              }
              return !master.empty();
            },
            60s)) {
      return false;
    }
    return client_.CreateTopic(master, kTopic, kQueues) == rc::kSuccess &&
           client_.CreateTopic(master, kProbeTopic, 1) == rc::kSuccess;
  }

  // Waits until the master of the current epoch counts every broker of the set as in sync
  // (a replica outside the syncStateSet may not be elected).
  bool WaitForAllInSync(std::chrono::milliseconds timeout) {
    auto etcd = coord::EtcdClient::Create(etcd_.endpoint(), 2000ms);
    if (!etcd.ok()) return false;
    auto epoch_of = [](const std::string& json) {
      std::smatch m;
      static const std::regex kEpoch("\"epoch\":([0-9]+)");
      return std::regex_search(json, m, kEpoch) ? std::stoll(m[1]) : -1;
    };
    return WaitUntil(
        [&] {
          auto master = (*etcd)->Get("/apogee/failover/DefaultCluster/broker-f/master");
          auto sync = (*etcd)->Get("/apogee/failover/DefaultCluster/broker-f/syncStateSet");
          if (!master.ok() || !sync.ok() || master->kvs.empty() || sync->kvs.empty()) return false;
          const std::string& members = sync->kvs[0].value;
          size_t count = 0;
          for (size_t pos = members.find("127.0.0.1:"); pos != std::string::npos;
               pos = members.find("127.0.0.1:", pos + 1)) {
            ++count;
          }
          return count == brokers_.size() && epoch_of(members) == epoch_of(master->kvs[0].value);
        },
        timeout);
  }

  BrokerProcess* ByAddr(const std::string& addr) {
    for (auto& b : brokers_) {
      if (b->addr() == addr) return b.get();
    }
    return nullptr;
  }
  std::string Logs() {
    std::string out;
    for (auto& b : brokers_) out += "---- " + b->addr() + "\n" + b->ReadLog();
    return out;
  }

  HaClient& client() { return client_; }
  std::string etcd_endpoint() const { return etcd_.endpoint(); }
  TcpProxy* etcd_proxy() { return etcd_proxy_.get(); }
  std::vector<std::unique_ptr<BrokerProcess>>& brokers() { return brokers_; }

 private:
  std::string namesrv_;
  EtcdProcess etcd_;
  std::unique_ptr<TcpProxy> etcd_proxy_;
  std::vector<std::unique_ptr<BrokerProcess>> brokers_;
  HaClient client_{3s};
};

// Acks after a failover: none from `old_master` once another broker acknowledged; the
// unavailability window is the gap around `fault_ms`.
struct FaultCheck {
  int64_t window_ms = 0;
  int64_t old_master_acks_after_new = 0;
};

FaultCheck CheckAcks(const std::vector<Ack>& acks, const std::string& old_master, int64_t fault_ms) {
  FaultCheck c;
  int64_t last_before = fault_ms;
  int64_t first_new = -1;
  for (const Ack& a : acks) {
    if (a.at_ms <= fault_ms) last_before = a.at_ms;
    if (a.by != old_master && a.at_ms > fault_ms && first_new < 0) first_new = a.at_ms;
  }
  if (first_new >= 0) {
    c.window_ms = first_new - last_before;
    for (const Ack& a : acks) {
      if (a.by == old_master && a.at_ms > first_new) c.old_master_acks_after_new++;
    }
  } else {
    c.window_ms = -1;
  }
  return c;
}

enum class Fault { kKill, kStop, kCutEtcd, kKillAsync };

const char* FaultName(Fault f) {
  switch (f) {
    case Fault::kKill: return "kill9";
    case Fault::kStop: return "sigstop";
    case Fault::kCutEtcd: return "etcd_link_cut";
    case Fault::kKillAsync: return "kill9_async_master";
  }
  return "?";
}

// The value of `key` in `mqadmin brokerStatus -b addr` ("" when absent).
std::string RuntimeInfo(const std::string& namesrv, const std::string& addr, const std::string& key) {
  ToolResult r = RunTool("mqadmin", {"brokerStatus", "-b", addr, "-n", namesrv});
  std::smatch m;
  const std::regex line("(^|\n)" + key + " *: ([^\n]*)");
  return std::regex_search(r.output, m, line) ? std::string(m[2]) : std::string();
}

// One round: fresh etcd, NameServer and set; load; the fault; a new master; the old master
// returns (except after kill -9 in `failovers` = 1 rounds); verify on the new master.
void RunRound(Fault fault, int failovers, int round) {
  NamesrvProcess namesrv;
  ASSERT_TRUE(namesrv.Start());
  FailoverSet set(namesrv.addr());
  const bool async = fault == Fault::kKillAsync;
  ASSERT_TRUE(set.Start(fault == Fault::kCutEtcd, async ? "ASYNC_MASTER" : "SYNC_MASTER")) << set.Logs();
  ASSERT_TRUE(set.CreateTopic()) << set.Logs();
  FailoverSender sender(namesrv.addr());
  std::string master = set.WaitForMaster(sender, 60s);
  ASSERT_FALSE(master.empty()) << "no master elected\n" << set.Logs();

  sender.Start();
  std::vector<FaultCheck> checks;
  std::mt19937 rng(std::random_device{}());
  for (int f = 0; f < failovers; ++f) {
    ASSERT_TRUE(set.WaitForAllInSync(30s)) << "the syncStateSet never held the whole set\n"
                                           << set.Logs();
    const int64_t base = sender.acked();
    ASSERT_TRUE(WaitUntil([&] { return sender.acked() >= base + 30; }, 60s))
        << "no acks before fault " << f << "\n" << set.Logs();
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 500)(rng)));
    BrokerProcess* old = set.ByAddr(master);
    ASSERT_NE(old, nullptr);
    const int64_t fault_ms = SteadyMillis();
    switch (fault) {
      case Fault::kKill:
      case Fault::kKillAsync:
        old->process().Signal(SIGKILL);
        old->process().Wait(10s);
        break;
      case Fault::kStop: old->process().Signal(SIGSTOP); break;
      case Fault::kCutEtcd: set.etcd_proxy()->Drop(); break;
    }
    const std::string next = set.WaitForMaster(sender, 30s, master);
    ASSERT_FALSE(next.empty()) << "no new master after " << FaultName(fault) << "\n" << set.Logs();
    const int64_t acked_at_fault = sender.acked();
    ASSERT_TRUE(WaitUntil([&] { return sender.acked() >= acked_at_fault + 20; }, 30s))
        << "writes not acknowledged again\n" << set.Logs();

    // The old master returns and must not acknowledge anything in the new epoch.
    switch (fault) {
      case Fault::kKill:
      case Fault::kKillAsync:
        ASSERT_TRUE(old->Start(namesrv.addr())) << old->ReadLog();
        break;
      case Fault::kStop: old->process().Signal(SIGCONT); break;
      case Fault::kCutEtcd: set.etcd_proxy()->Resume(); break;
    }
    // Once it restarted as a replica it refuses sends; until then it is fenced.
    std::this_thread::sleep_for(1s);
    EXPECT_TRUE(WaitUntil(
        [&] {
          SendOutcome probe = set.client().Send(master, kProbeTopic, 0, "old-master-probe");
          return probe.code != rc::kSuccess;
        },
        15s))
        << "the old master still acknowledges\n" << old->ReadLog();
    FaultCheck check = CheckAcks(sender.Acks(), master, fault_ms);
    checks.push_back(check);
    EXPECT_GE(check.window_ms, 0) << "no ack after the fault";
    EXPECT_LE(check.window_ms, kMaxWindowMs) << set.Logs();
    EXPECT_EQ(check.old_master_acks_after_new, 0);
    master = next;
    // The returning broker catches up before the next fault (it may be elected next).
    ASSERT_TRUE(WaitUntil(
        [&] {
          auto a = set.client().CommitLogMaxOffset(old->addr());
          auto b = set.client().CommitLogMaxOffset(master);
          return a.ok() && b.ok() && *a >= *b - 64 * 1024;
        },
        30s))
        << "the old master did not catch up\n" << old->ReadLog();
  }
  sender.Stop();
  auto report = VerifyReplica(set.client(), master, kTopic, kQueues, sender.AckedMessages(), 15s);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  std::vector<int64_t> windows;
  for (const FaultCheck& c : checks) windows.push_back(c.window_ms);
  std::cout << "[failover-chaos] fault=" << FaultName(fault)
            << (failovers > 1 ? "_x" + std::to_string(failovers) : std::string()) << " round=" << round << " "
            << report->ToString() << " window_ms=" << (windows.empty() ? 0 : *std::max_element(windows.begin(), windows.end()))
            << std::endl;
  if (async) {
    // ASYNC_MASTER acknowledges before replication: the un-replicated tail at the kill is
    // lost (measured, docs/failover.md). The returning old master held it (SYNC_FLUSH) and
    // must have cut at least those messages, and counted them.
    const std::string cut = RuntimeInfo(namesrv.addr(), set.brokers()[0]->addr(), "failoverDivergentMessagesTotal");
    std::cout << "[failover-chaos] async_loss round=" << round << " lost=" << report->lost
              << " old_master_divergent_messages=" << cut << std::endl;
    EXPECT_FALSE(cut.empty());
    if (!cut.empty()) {
      EXPECT_GE(std::stoll(cut), report->lost);
    }
  } else {
    EXPECT_EQ(report->lost, 0) << report->ToString() << "\n" << set.Logs();
  }
  EXPECT_EQ(report->out_of_order, 0) << report->ToString();
  EXPECT_EQ(report->mismatched, 0) << report->ToString();
  EXPECT_EQ(report->foreign, 0) << report->ToString();
}

TEST(FailoverEtcdTest, KillMinus9OfTheMasterThenItReturns) {
  const int rounds = EnvInt("APOGEE_FAILOVER_ROUNDS", 1);
  for (int r = 1; r <= rounds && !::testing::Test::HasFailure(); ++r) RunRound(Fault::kKill, 1, r);
}

TEST(FailoverEtcdTest, SigstoppedMasterIsFencedAndRejoins) {
  const int rounds = EnvInt("APOGEE_FAILOVER_ROUNDS", 1);
  for (int r = 1; r <= rounds && !::testing::Test::HasFailure(); ++r) RunRound(Fault::kStop, 1, r);
}

TEST(FailoverEtcdTest, CutMasterEtcdLinkThenTheOldMasterReturns) {
  const int rounds = EnvInt("APOGEE_FAILOVER_ROUNDS", 1);
  for (int r = 1; r <= rounds && !::testing::Test::HasFailure(); ++r) RunRound(Fault::kCutEtcd, 1, r);
}

// ASYNC_MASTER: the election and the old master's cut work alike; what is lost is measured.
TEST(FailoverEtcdTest, AsyncMasterKillMinus9LosesOnlyTheUnreplicatedTail) {
  const int rounds = EnvInt("APOGEE_FAILOVER_ROUNDS", 1);
  for (int r = 1; r <= rounds && !::testing::Test::HasFailure(); ++r) RunRound(Fault::kKillAsync, 1, r);
}

TEST(FailoverEtcdTest, TwoKillFailoversInARow) {
  const int rounds = EnvInt("APOGEE_FAILOVER_ROUNDS", 1);
  for (int r = 1; r <= rounds && !::testing::Test::HasFailure(); ++r) RunRound(Fault::kKill, 2, r);
}

// mqadmin getSyncStateSet / getBrokerEpoch / electMaster against the real set, with a sender
// running through the manual switch: electMaster refuses a broker outside the syncStateSet,
// switches to an in-sync replica (epoch 2), the old master is fenced and cuts nothing, and
// no acknowledged message is missing on the new master.
TEST(FailoverEtcdTest, MqadminShowsTheSetAndElectMasterSwitchesToAnInSyncReplica) {
  NamesrvProcess namesrv;
  ASSERT_TRUE(namesrv.Start());
  FailoverSet set(namesrv.addr());
  ASSERT_TRUE(set.Start()) << set.Logs();
  ASSERT_TRUE(set.CreateTopic()) << set.Logs();
  FailoverSender sender(namesrv.addr());
  const std::string master = set.WaitForMaster(sender, 60s);
  ASSERT_FALSE(master.empty()) << set.Logs();
  ASSERT_TRUE(set.WaitForAllInSync(30s)) << set.Logs();
  std::string target;
  for (auto& b : set.brokers()) {
    if (b->addr() != master && (target.empty() || b->addr() < target)) target = b->addr();
  }
  const std::string etcd = set.etcd_endpoint();

  ToolResult sync = RunTool("mqadmin", {"getSyncStateSet", "-a", etcd, "-c", "DefaultCluster"});
  EXPECT_EQ(sync.exit_code, 0) << sync.output;
  EXPECT_NE(sync.output.find("#brokerName\tbroker-f\n#MasterAddr\t" + master + "\n#MasterEpoch\t1\n"),
            std::string::npos)
      << sync.output;
  EXPECT_NE(sync.output.find("#SyncStateSetNums\t3"), std::string::npos) << sync.output;
  EXPECT_NE(sync.output.find("InSyncReplica:\tReplicaIdentity{brokerName='broker-f', brokerId=0, "
                             "brokerAddress='" + master + "', alive=true}\tonline"),
            std::string::npos)
      << sync.output;

  // Every member reports epoch 1 from offset 0 (the slaves' routes may lag a registration).
  ASSERT_TRUE(WaitUntil(
      [&] {
        ToolResult epochs = RunTool("mqadmin", {"getBrokerEpoch", "-b", "broker-f", "-n", namesrv.addr()});
        size_t members = 0;
        for (size_t p = epochs.output.find("#brokerAddr"); p != std::string::npos;
             p = epochs.output.find("#brokerAddr", p + 1)) {
          ++members;
        }
        return epochs.exit_code == 0 && members == 3 &&
               epochs.output.find("#Epoch: EpochEntry{epoch=1, startOffset=0, endOffset=") != std::string::npos;
      },
      30s));

  sender.Start();
  ASSERT_TRUE(WaitUntil([&] { return sender.acked() >= 30; }, 60s)) << set.Logs();

  ToolResult refused = RunTool("mqadmin", {"electMaster", "-a", etcd, "-c", "DefaultCluster", "-n",
                                           "broker-f", "-b", "127.0.0.1:1"});
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("not in the syncStateSet"), std::string::npos) << refused.output;
  ToolResult already = RunTool("mqadmin", {"electMaster", "-a", etcd, "-c", "DefaultCluster", "-n",
                                           "broker-f", "-b", master});
  EXPECT_EQ(already.exit_code, 1) << already.output;

  const int64_t switch_ms = SteadyMillis();
  ToolResult elect = RunTool("mqadmin", {"electMaster", "-a", etcd, "-c", "DefaultCluster", "-n",
                                         "broker-f", "-b", target});
  ASSERT_EQ(elect.exit_code, 0) << elect.output << set.Logs();
  EXPECT_NE(elect.output.find("#BrokerMasterAddr\t" + target + "\n#MasterEpoch\t2\n"), std::string::npos)
      << elect.output;
  const std::string next = set.WaitForMaster(sender, 30s, master);
  ASSERT_EQ(next, target) << set.Logs();
  const int64_t acked_at_switch = sender.acked();
  ASSERT_TRUE(WaitUntil([&] { return sender.acked() >= acked_at_switch + 20; }, 30s)) << set.Logs();
  EXPECT_TRUE(WaitUntil(
      [&] { return set.client().Send(master, kProbeTopic, 0, "old-master-probe").code != rc::kSuccess; }, 15s))
      << "the old master still acknowledges";
  sender.Stop();
  FaultCheck check = CheckAcks(sender.Acks(), master, switch_ms);
  EXPECT_EQ(check.old_master_acks_after_new, 0);
  EXPECT_GE(check.window_ms, 0);
  EXPECT_LE(check.window_ms, kMaxWindowMs);
  auto report = VerifyReplica(set.client(), target, kTopic, kQueues, sender.AckedMessages(), 15s);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  std::cout << "[failover-electMaster] " << report->ToString() << " window_ms=" << check.window_ms << std::endl;
  EXPECT_EQ(report->lost, 0) << report->ToString() << "\n" << set.Logs();
  EXPECT_EQ(report->out_of_order, 0) << report->ToString();

  // The old master follows the new one; it stepped down with nothing the new master lacks.
  // It may restart twice: once while no master record exists yet (a replica of epoch 1
  // without a master) and again when the new master's record appears, so wait for the
  // settled state rather than for the first "replica".
  ASSERT_TRUE(WaitUntil(
      [&] {
        return RuntimeInfo(namesrv.addr(), master, "failoverRole") == "replica" &&
               RuntimeInfo(namesrv.addr(), master, "failoverEpoch") == "2" &&
               RuntimeInfo(namesrv.addr(), master, "failoverMasterAddr") == target;
      },
      30s))
      << set.Logs();
  EXPECT_EQ(RuntimeInfo(namesrv.addr(), master, "failoverDivergentBytesTotal"), "0");
  EXPECT_EQ(RuntimeInfo(namesrv.addr(), target, "failoverRole"), "master");
  ToolResult after = RunTool("mqadmin", {"getSyncStateSet", "-a", etcd, "-b", "broker-f", "-c", "DefaultCluster"});
  EXPECT_NE(after.output.find("#MasterAddr\t" + target + "\n#MasterEpoch\t2\n"), std::string::npos)
      << after.output;
  ASSERT_TRUE(WaitUntil(
      [&] {
        ToolResult epochs = RunTool("mqadmin", {"getBrokerEpoch", "-b", "broker-f", "-n", namesrv.addr()});
        return epochs.output.find("#brokerAddr\t" + target + "\n#brokerId\t0\n#Epoch: EpochEntry{epoch=1, "
                                  "startOffset=0, endOffset=") != std::string::npos &&
               epochs.output.find("#Epoch: EpochEntry{epoch=2, startOffset=") != std::string::npos;
      },
      30s));
}

}  // namespace
}  // namespace apogee::testing
