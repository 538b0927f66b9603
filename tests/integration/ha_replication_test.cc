// Master/slave replication through real mqbroker processes (issue #6 parts 1-4): the
// slave's CommitLog is byte-identical to the master's, it serves pulls, a late slave
// catches up, SYNC_MASTER answers SLAVE_NOT_AVAILABLE without a slave and SEND_OK with one,
// a slave refuses sends, and the slave copies topics and consumer offsets from its master.
// The failure cases (kill -9, link cuts, multi-master) are in the other ha_*_test.cc files.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "broker_process.h"
#include "ha_harness.h"
#include "namesrv_process.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/route_data.h"
#include "remoting/remoting_client.h"

namespace apogee::testing {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using namespace std::chrono_literals;

constexpr char kTopic[] = "HaReplTopic";
constexpr int32_t kQueues = 4;

std::string ReadRange(const std::string& path, int64_t n) {
  std::ifstream in(path, std::ios::binary);
  std::string out(static_cast<size_t>(n), '\0');
  in.read(out.data(), n);
  out.resize(static_cast<size_t>(in.gcount()));
  return out;
}

class HaReplicationTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(namesrv_.Start()); }

  std::unique_ptr<HaBrokerSet> MakeSet(const std::string& role, Props master_extra = {},
                                       Props slave_extra = {}) {
    HaBrokerSetOptions o;
    o.master_role = role;
    o.flush_disk_type = "ASYNC_FLUSH";
    o.master_extra = std::move(master_extra);
    o.slave_extra = std::move(slave_extra);
    return std::make_unique<HaBrokerSet>(namesrv_.addr(), o);
  }

  // Sends n messages round-robin over the queues; every answer must be `want`.
  void SendN(const std::string& addr, int n, int32_t want, const std::string& tag = "m") {
    for (int i = 0; i < n; ++i) {
      SendOutcome out = client_.Send(addr, kTopic, i % kQueues, tag + "-" + std::to_string(i));
      ASSERT_EQ(out.code, want) << "message " << i << ": " << out.error;
    }
  }

  // The master's CommitLog bytes [0, max) equal the slave's (16 MiB files: one file here).
  void ExpectSameCommitLog(HaBrokerSet& set) {
    auto master_max = client_.CommitLogMaxOffset(set.master().addr());
    auto slave_max = client_.CommitLogMaxOffset(set.slave().addr());
    ASSERT_TRUE(master_max.ok() && slave_max.ok());
    ASSERT_EQ(*master_max, *slave_max);
    ASSERT_LT(*master_max, 16 << 20) << "the test reads one file";
    const std::string name = "/commitlog/00000000000000000000";
    const std::string m = ReadRange(set.master().store_dir() + name, *master_max);
    const std::string s = ReadRange(set.slave().store_dir() + name, *master_max);
    ASSERT_EQ(static_cast<int64_t>(m.size()), *master_max);
    ASSERT_EQ(m.size(), s.size());
    EXPECT_TRUE(m == s) << "the slave's CommitLog bytes differ from the master's";
  }

  // Every queue reads the same records from master and slave.
  void ExpectSlaveServesSamePulls(HaBrokerSet& set, size_t expected_total) {
    size_t total = 0;
    for (int32_t q = 0; q < kQueues; ++q) {
      ASSERT_TRUE(client_.WaitForMaxQueueOffset(set.slave().addr(), kTopic, q,
                                                *client_.MaxQueueOffset(set.master().addr(),
                                                                        kTopic, q),
                                                15s));
      std::string master_raw, slave_raw;
      auto m = client_.PullAll(set.master().addr(), kTopic, q, &master_raw);
      auto s = client_.PullAll(set.slave().addr(), kTopic, q, &slave_raw);
      ASSERT_TRUE(m.ok()) << m.status().ToString();
      ASSERT_TRUE(s.ok()) << s.status().ToString();
      EXPECT_EQ(m->size(), s->size()) << "queue " << q;
      EXPECT_TRUE(master_raw == slave_raw) << "queue " << q << " records differ";
      total += s->size();
    }
    EXPECT_EQ(total, expected_total);
  }

  NamesrvProcess namesrv_;
  HaClient client_;
};

TEST_F(HaReplicationTest, SyncMasterAcksAfterTheSlaveAndTheLogsAreIdentical) {
  auto set = MakeSet("SYNC_MASTER");
  ASSERT_TRUE(set->Start());
  ASSERT_TRUE(set->CreateTopic(kTopic, kQueues));
  // The slave connects within a heartbeat or so; until then SYNC_MASTER has no slave.
  ASSERT_TRUE(WaitUntil(
      [&] { return client_.Send(set->master().addr(), kTopic, 0, "probe").code == rc::kSuccess; },
      20s))
      << set->slave().ReadLog();
  SendN(set->master().addr(), 300, rc::kSuccess);
  ASSERT_TRUE(set->WaitForSlaveCaughtUp(20s));
  ExpectSameCommitLog(*set);
  ExpectSlaveServesSamePulls(*set, 301);
}

// Java 4.x serves pulls from a SLAVE in the default configuration (slaveReadEnable=false):
// its status switch overrides the role switch's PULL_RETRY_IMMEDIATELY, and the answer only
// suggests the master (suggestWhichBrokerId 0) for the next pull. That is how consumers keep
// reading while the master is down.
TEST_F(HaReplicationTest, SlaveServesPullsInTheDefaultConfigurationAlsoWithTheMasterDown) {
  auto set = MakeSet("SYNC_MASTER");
  ASSERT_TRUE(set->Start());
  ASSERT_TRUE(set->CreateTopic(kTopic, kQueues));
  ASSERT_TRUE(WaitUntil(
      [&] { return client_.Send(set->master().addr(), kTopic, 0, "probe").code == rc::kSuccess; },
      20s))
      << set->slave().ReadLog();
  SendN(set->master().addr(), 40, rc::kSuccess);
  ASSERT_TRUE(set->WaitForSlaveCaughtUp(20s));
  ASSERT_TRUE(client_.WaitForMaxQueueOffset(set->slave().addr(), kTopic, 1, 10, 15s));

  protocol::PullMessageRequestHeader h;
  h.consumer_group = kHaGroup;
  h.topic = kTopic;
  h.queue_id = 1;
  h.queue_offset = 0;
  h.max_msg_nums = 32;
  h.sys_flag = 4;  // subscription in the header
  h.subscription = "*";
  h.expression_type = "TAG";
  auto request = protocol::RemotingCommand::MakeRequest(req::kPullMessage);
  protocol::EncodeCustomHeader(h, &request);
  auto pulled = client_.Call(set->slave().addr(), std::move(request));
  ASSERT_TRUE(pulled.ok()) << pulled.status().ToString();
  EXPECT_EQ(pulled->code, rc::kSuccess) << pulled->remark.value_or("");
  EXPECT_EQ(pulled->ext_fields.Get("suggestWhichBrokerId").value_or(""), "0");
  ExpectSlaveServesSamePulls(*set, 41);

  // The master dies: the slave still serves every message.
  ASSERT_TRUE(set->master().process().Signal(SIGKILL));
  set->master().process().Wait(10s);
  size_t total = 0;
  for (int32_t q = 0; q < kQueues; ++q) {
    auto msgs = client_.PullAll(set->slave().addr(), kTopic, q);
    ASSERT_TRUE(msgs.ok()) << msgs.status().ToString();
    total += msgs->size();
  }
  EXPECT_EQ(total, 41u);
}

TEST_F(HaReplicationTest, AsyncMasterReplicatesWithoutWaiting) {
  auto set = MakeSet("ASYNC_MASTER");
  ASSERT_TRUE(set->StartMaster());
  ASSERT_TRUE(set->CreateTopic(kTopic, kQueues));
  SendN(set->master().addr(), 50, rc::kSuccess);  // no slave yet: still SEND_OK
  ASSERT_TRUE(set->StartSlave());
  ASSERT_TRUE(set->CreateTopic(kTopic, kQueues));
  SendN(set->master().addr(), 50, rc::kSuccess, "after");
  ASSERT_TRUE(set->WaitForSlaveCaughtUp(20s));
  ExpectSameCommitLog(*set);
  ExpectSlaveServesSamePulls(*set, 100);
}

TEST_F(HaReplicationTest, LateSlaveCatchesUp) {
  auto set = MakeSet("ASYNC_MASTER");
  ASSERT_TRUE(set->StartMaster());
  ASSERT_TRUE(set->CreateTopic(kTopic, kQueues));
  SendN(set->master().addr(), 400, rc::kSuccess);
  ASSERT_TRUE(set->StartSlave());
  ASSERT_TRUE(set->CreateTopic(kTopic, kQueues));
  ASSERT_TRUE(set->WaitForSlaveCaughtUp(20s));
  ExpectSameCommitLog(*set);
  ExpectSlaveServesSamePulls(*set, 400);
  // A slave restart resumes from its own end.
  ASSERT_EQ(set->slave().Stop(), 0);
  SendN(set->master().addr(), 100, rc::kSuccess, "gap");
  ASSERT_TRUE(set->StartSlave());
  ASSERT_TRUE(set->WaitForSlaveCaughtUp(20s));
  ExpectSameCommitLog(*set);
  ExpectSlaveServesSamePulls(*set, 500);
}

TEST_F(HaReplicationTest, SyncMasterWithoutSlaveAnswersSlaveNotAvailable) {
  auto set = MakeSet("SYNC_MASTER");
  ASSERT_TRUE(set->StartMaster());
  ASSERT_TRUE(set->CreateTopic(kTopic, kQueues));
  SendOutcome out = client_.Send(set->master().addr(), kTopic, 0, "alone");
  EXPECT_EQ(out.code, rc::kSlaveNotAvailable) << out.error;
  EXPECT_EQ(out.queue_offset, 0) << "still stored and answered with its offset";
}

TEST_F(HaReplicationTest, SlaveRefusesSends) {
  auto set = MakeSet("ASYNC_MASTER");
  ASSERT_TRUE(set->Start());
  ASSERT_TRUE(set->CreateTopic(kTopic, kQueues));
  SendOutcome out = client_.Send(set->slave().addr(), kTopic, 0, "to-slave");
  EXPECT_EQ(out.code, rc::kServiceNotAvailable) << out.error;
}

TEST_F(HaReplicationTest, SlaveCopiesTopicsAndConsumerOffsetsFromItsMaster) {
  auto set = MakeSet("ASYNC_MASTER", {}, {{"slaveSynchronizeInterval", "500"}});
  ASSERT_TRUE(set->Start());
  // Created on the master only.
  ASSERT_EQ(client_.CreateTopic(set->master().addr(), "SyncedTopic", 3), rc::kSuccess);
  protocol::UpdateConsumerOffsetRequestHeader h;
  h.consumer_group = "SyncedGroup";
  h.topic = "SyncedTopic";
  h.queue_id = 2;
  h.commit_offset = 42;
  auto request = protocol::RemotingCommand::MakeRequest(req::kUpdateConsumerOffset);
  protocol::EncodeCustomHeader(h, &request);
  auto response = client_.Call(set->master().addr(), std::move(request));
  ASSERT_TRUE(response.ok());
  ASSERT_EQ(response->code, rc::kSuccess);

  const std::string topics = set->slave().config_dir() + "/topics.json";
  const std::string offsets = set->slave().config_dir() + "/consumerOffset.json";
  EXPECT_TRUE(WaitUntil(
      [&] { return ReadFileOrEmpty(topics).find("SyncedTopic") != std::string::npos; }, 40s))
      << set->slave().ReadLog();
  EXPECT_TRUE(WaitUntil(
      [&] {
        return ReadFileOrEmpty(offsets).find("SyncedTopic@SyncedGroup") != std::string::npos;
      },
      40s))
      << ReadFileOrEmpty(offsets);
  // The slave answers offset queries from the copy.
  protocol::QueryConsumerOffsetRequestHeader q;
  q.consumer_group = "SyncedGroup";
  q.topic = "SyncedTopic";
  q.queue_id = 2;
  auto query = protocol::RemotingCommand::MakeRequest(req::kQueryConsumerOffset);
  protocol::EncodeCustomHeader(q, &query);
  auto answer = client_.Call(set->slave().addr(), std::move(query));
  ASSERT_TRUE(answer.ok());
  ASSERT_EQ(answer->code, rc::kSuccess) << answer->remark.value_or("");
  EXPECT_EQ(answer->ext_fields.Get("offset").value_or(""), "42");
}

TEST_F(HaReplicationTest, SlaveStaysRoutedAndServesPullsWhileTheMasterIsDown) {
  auto set = MakeSet("ASYNC_MASTER");
  ASSERT_TRUE(set->Start());
  ASSERT_TRUE(set->CreateTopic(kTopic, kQueues));
  SendN(set->master().addr(), 40, rc::kSuccess);
  ASSERT_TRUE(set->WaitForSlaveCaughtUp(20s));
  // The slave registers the topic once it has it (its next registration).
  remoting::RemotingClient route_client;
  route_client.Start();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto route = QueryRoute(route_client, namesrv_.addr(), kTopic);
        return route.ok() && route->broker_datas.size() == 1 &&
               route->broker_datas[0].broker_addrs.size() == 2;
      },
      40s));
  ASSERT_EQ(set->master().Stop(), 0);  // clean stop: unregisters the master only
  auto route = QueryRoute(route_client, namesrv_.addr(), kTopic);
  ASSERT_TRUE(route.ok()) << route.status().ToString();
  ASSERT_EQ(route->broker_datas.size(), 1u);
  const auto& addrs = route->broker_datas[0].broker_addrs;
  EXPECT_EQ(addrs.count(0), 0u) << "the stopped master is still listed";
  ASSERT_EQ(addrs.count(1), 1u);
  EXPECT_EQ(addrs.at(1), set->slave().addr());
  size_t total = 0;
  for (int32_t q = 0; q < kQueues; ++q) {
    auto s = client_.PullAll(set->slave().addr(), kTopic, q);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    total += s->size();
  }
  EXPECT_EQ(total, 40u);
}

}  // namespace
}  // namespace apogee::testing
