// Hostile clients and unlucky operators against the store, on real processes (issue 12
// items 1, 2, 5, 6): sends into the broker's own topics, forged redirect properties,
// invalid sysFlags and offsets, oversized KV values, a record on disk that no
// ConsumeQueue can hold, and a full disk (a tmpfs of 64 MiB). Every case asserts that an
// unrelated client keeps being served and that nothing acknowledged is lost; after the
// cases the broker restarts (cleanly and after SIGKILL) and serves again.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "broker_process.h"
#include "env/env.h"
#include "message/host_address.h"
#include "message/message.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "namesrv_process.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/namesrv_headers.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "raw_requests.h"
#include "remoting/remoting_client.h"
#include "store/message_store.h"
#include "store/store_config.h"
#include "testutil/test_paths.h"

namespace apogee::testing {
namespace {

namespace resp = protocol::response_code;
namespace req = protocol::request_code;
using namespace std::chrono_literals;
using Properties = std::map<std::string, std::string>;


protocol::RemotingCommand Send(const std::string& topic, int32_t queue_id, std::string body,
                               const Properties& properties = {}, int32_t sys_flag = 0) {
  return RawSendRequest("hostile_producer", topic, queue_id, std::move(body), properties, sys_flag);
}

protocol::RemotingCommand Pull(const std::string& topic, int32_t queue_id, int64_t offset) {
  return RawPullRequest("hostile_consumer", topic, queue_id, offset);
}

// The store settings BrokerProcess writes into broker.conf, for opening its store here.
store::StoreConfig BrokerStoreConfig(const std::string& root) {
  store::StoreConfig c;
  c.store_path_root_dir = root;
  c.mapped_file_size_commit_log = 16 << 20;
  c.mapped_file_size_consume_queue = 20 * 20000;
  c.max_hash_slot_num = 50000;
  c.max_index_num = 200000;
  return c;
}

class HostileStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    client_.Start();
    unrelated_.Start();
  }
  void TearDown() override {
    client_.Shutdown();
    unrelated_.Shutdown();
  }

  Result<protocol::RemotingCommand> Call(protocol::RemotingCommand request,
                                         remoting::RemotingClient* via = nullptr) {
    return (via ? via : &client_)->InvokeSync(broker_.addr(), std::move(request), 10s);
  }
  // The code of the answer, or -1 when there was none.
  int32_t CodeOf(protocol::RemotingCommand request, std::string* remark = nullptr) {
    auto r = Call(std::move(request));
    if (!r.ok()) {
      if (remark) *remark = r.status().ToString();
      return -1;
    }
    if (remark) *remark = r->remark.value_or("");
    return r->code;
  }
  std::vector<message::MessageExt> PullAll(const std::string& topic, int32_t queue_id,
                                           remoting::RemotingClient* via = nullptr) {
    std::vector<message::MessageExt> all;
    int64_t offset = 0;
    while (true) {
      auto r = Call(Pull(topic, queue_id, offset), via);
      if (!r.ok() || r->code != resp::kSuccess) return all;
      auto msgs = message::DecodeMessages(r->body);
      if (!msgs.ok() || msgs->empty()) return all;
      offset = msgs->back().queue_offset + 1;
      all.insert(all.end(), msgs->begin(), msgs->end());
    }
  }
  // An unrelated client on its own connection sends one message and reads back every
  // message it was ever acknowledged, in order.
  void ExpectServesUnrelated(bool writes_expected = true) {
    if (writes_expected) {
      const std::string body = "unrelated-" + std::to_string(unrelated_acked_.size());
      auto r = Call(Send("HsUnrelated", 0, body), &unrelated_);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      ASSERT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
      unrelated_acked_.push_back(body);
    }
    std::vector<message::MessageExt> got;
    ASSERT_TRUE(WaitUntil(
        [&] {
          return (got = PullAll("HsUnrelated", 0, &unrelated_)).size() >= unrelated_acked_.size();
        },
        10s))
        << "unrelated client: " << got.size() << " of " << unrelated_acked_.size() << "\n"
        << broker_.ReadLog();
    ASSERT_EQ(got.size(), unrelated_acked_.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].body, unrelated_acked_[i]);
  }
  void RestartCleanlyAndAfterSigkill() {
    ASSERT_EQ(broker_.Stop(), 0) << broker_.ReadLog();
    ASSERT_TRUE(broker_.Start(""));
    ExpectServesUnrelated();
    ASSERT_TRUE(broker_.process().Signal(SIGKILL));
    broker_.process().Wait(10s);
    ASSERT_TRUE(broker_.Start(""));
    ExpectServesUnrelated();
  }

  BrokerProcess broker_{Props{{"messageDelayLevel", "1s 1s 1s"}}};
  remoting::RemotingClient client_;
  remoting::RemotingClient unrelated_;
  std::vector<std::string> unrelated_acked_;
};

// Item 1: the send of issue 12 that bricked the broker (a timer-topic message with
// REAL_TOPIC=a/b), its relatives, and forged redirect properties on an ordinary send.
TEST_F(HostileStoreTest, SystemTopicsAndRedirectPropertiesAreTheBrokers) {
  ASSERT_TRUE(broker_.Start(""));
  ExpectServesUnrelated();
  const std::string due = std::to_string(NowMillis() + 1500);
  const std::string long_topic(300, 't');
  struct Case {
    std::string topic;
    Properties props;
  };
  const std::vector<Case> cases = {
      {"rmq_sys_wheel_timer", {{"REAL_TOPIC", "a/b"}, {"REAL_QID", "0"}, {"TIMER_OUT_MS", due}}},
      {"rmq_sys_wheel_timer",
       {{"REAL_TOPIC", long_topic}, {"REAL_QID", "0"}, {"TIMER_OUT_MS", due}}},
      {"SCHEDULE_TOPIC_XXXX", {{"REAL_TOPIC", "a/b"}, {"REAL_QID", "0"}, {"DELAY", "1"}}},
      {"SCHEDULE_TOPIC_XXXX", {{"REAL_TOPIC", long_topic}, {"REAL_QID", "0"}, {"DELAY", "1"}}},
      {"SCHEDULE_TOPIC_XXXX_V2", {{"REAL_TOPIC", "a/b"}, {"REAL_QID", "0"}}},
      {"RMQ_SYS_TRANS_HALF_TOPIC", {{"REAL_TOPIC", "a/b"}, {"REAL_QID", "0"}}},
      {"RMQ_SYS_TRANS_OP_HALF_TOPIC", {}},
      {"TRANS_CHECK_MAX_TIME_TOPIC", {}},
      {"rmq_sys_anything", {}},
  };
  for (const Case& c : cases) {
    std::string remark;
    EXPECT_EQ(CodeOf(Send(c.topic, 0, "evil", c.props), &remark), resp::kNoPermission) << c.topic;
    EXPECT_EQ(remark, "Sending message to topic[" + c.topic + "] is forbidden.");
  }
  // Forged REAL_TOPIC on ordinary timer and delayed sends: the broker writes its own.
  const Properties forged = {{"REAL_TOPIC", "a/b"}, {"REAL_QID", "99999"}};
  Properties timer = forged;
  timer["TIMER_DELAY_MS"] = "1000";
  ASSERT_EQ(CodeOf(Send("HsTimer", 0, "timed", timer)), resp::kSuccess);
  Properties delayed = forged;
  delayed["DELAY"] = "1";
  ASSERT_EQ(CodeOf(Send("HsDelay", 0, "delayed", delayed)), resp::kSuccess);
  ExpectServesUnrelated();
  std::this_thread::sleep_for(2500ms);  // past the TIMER_OUT_MS and both delays
  std::vector<message::MessageExt> got;
  ASSERT_TRUE(WaitUntil([&] { return (got = PullAll("HsTimer", 0)).size() == 1; }, 10s))
      << broker_.ReadLog();
  EXPECT_EQ(got[0].body, "timed");
  ASSERT_TRUE(WaitUntil([&] { return (got = PullAll("HsDelay", 0)).size() == 1; }, 10s))
      << broker_.ReadLog();
  EXPECT_EQ(got[0].body, "delayed");
  ExpectServesUnrelated();  // dispatch never stopped
  RestartCleanlyAndAfterSigkill();
  EXPECT_EQ(PullAll("HsTimer", 0).size(), 1u);
  EXPECT_EQ(PullAll("HsDelay", 0).size(), 1u);
}

// Item 6: a sysFlag the store would keep but never deliver, and offsets that are not.
TEST_F(HostileStoreTest, InvalidSysFlagAndConsumerOffsetsAreRefused) {
  ASSERT_TRUE(broker_.Start(""));
  ExpectServesUnrelated();
  for (int32_t flag : {-1, 12, 1 << 20, INT32_MIN}) {
    std::string remark;
    EXPECT_EQ(CodeOf(Send("HsFlags", 0, "f", {}, flag), &remark), resp::kMessageIllegal) << flag;
    EXPECT_NE(remark.find("sysFlag"), std::string::npos) << remark;
  }
  EXPECT_TRUE(PullAll("HsFlags", 0).empty());
  for (auto [queue_id, offset] : {std::pair<int32_t, int64_t>{INT32_MAX, 1}, {0, INT64_MIN}}) {
    protocol::UpdateConsumerOffsetRequestHeader h;
    h.consumer_group = "hostile_consumer";
    h.topic = "HsUnrelated";
    h.queue_id = queue_id;
    h.commit_offset = offset;
    auto request = protocol::RemotingCommand::MakeRequest(req::kUpdateConsumerOffset);
    protocol::EncodeCustomHeader(h, &request);
    std::string remark;
    EXPECT_EQ(CodeOf(std::move(request), &remark), resp::kInvalidParameter)
        << queue_id << " " << offset << ": " << remark;
  }
  ExpectServesUnrelated();
  RestartCleanlyAndAfterSigkill();
}

// Item 6 (NameServer): PUT_KV_CONFIG with a large value is refused; the NameServer serves on.
TEST(HostileNamesrvTest, KvConfigValuesAreBounded) {
  NamesrvProcess namesrv;
  ASSERT_TRUE(namesrv.Start());
  remoting::RemotingClient client;
  client.Start();
  auto put = [&](const std::string& key, std::string value) {
    protocol::PutKVConfigRequestHeader h;
    h.namespace_name = "hostile";
    h.key = key;
    h.value = std::move(value);
    auto request = protocol::RemotingCommand::MakeRequest(req::kPutKvConfig);
    protocol::EncodeCustomHeader(h, &request);
    return client.InvokeSync(namesrv.addr(), std::move(request), 10s);
  };
  // 1 MiB does not even reach the processor: the header is past serverMaxHeaderBytes and the
  // connection is closed. 100 KiB fits the header but not PUT_KV_CONFIG's 64 KiB bound.
  EXPECT_FALSE(put("huge", std::string(1 << 20, 'v')).ok());
  auto big = put("big", std::string(100 << 10, 'v'));
  ASSERT_TRUE(big.ok()) << big.status().ToString();
  EXPECT_EQ(big->code, resp::kInvalidParameter);
  EXPECT_NE(big->remark.value_or("").find("bytes"), std::string::npos);
  auto small = put("small", "v");
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->code, resp::kSuccess);
  EXPECT_LT(ReadFileOrEmpty(namesrv.kv_path()).size(), 1000u);
  client.Shutdown();
}

// `mqstore verify` of a store (the broker's index sizes); its report, and whether it exited 0.
std::string VerifyStore(const std::string& store_dir, bool* exited_zero) {
  ChildProcess verify;
  TempDir out;
  *exited_zero = false;
  if (!verify.Start({BinDir() + "/mqstore", "verify", store_dir, "--slots",
                     "50000", "--entries", "200000"},
                    out.Join("verify.log"))) {
    return "cannot start mqstore";
  }
  const int status = verify.Wait(60s);
  *exited_zero = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return verify.ReadLog();
}

// One record of `body` to `topic`/0 as the broker would store it (for writing by hand). The
// fields are views: `topic` and `body` must outlive them.
message::RecordFields RecordOf(std::string_view topic, std::string_view body,
                               uint16_t store_port) {
  message::RecordFields f;
  f.topic = topic;
  f.queue_id = 0;
  f.body = body;
  f.born_timestamp = NowMillis();
  f.born_host = message::HostAddress::IPv4(127, 0, 0, 1, 1);
  f.store_host = message::HostAddress::IPv4(127, 0, 0, 1, store_port);
  return f;
}

// Item 2: issue 12's brick, planted on disk as an older broker (or a replica) could have
// left it: a record no ConsumeQueue can hold ("a/b"), and timer-topic records whose
// REAL_TOPIC is "a/b" or 300 characters. The broker starts (also after a crash, which
// re-dispatches everything), skips and counts them, delivers everything else, keeps
// dispatching, and `mqstore verify` accepts the store with a warning naming the record.
TEST_F(HostileStoreTest, ABadRecordOnDiskNeitherStallsDispatchNorBlocksStart) {
  const int64_t due = NowMillis() + 1500;
  {
    auto opened =
        store::MessageStore::Open(BrokerStoreConfig(broker_.store_dir()), env::Env::Default());
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    auto store = std::move(*opened);
    ASSERT_TRUE(store->Start().ok());
    auto put = [&](const std::string& topic, const std::string& body,
                   const Properties& props = {}) {
      message::MessageProperties p;
      for (const auto& [k, v] : props) (void)p.Set(k, v);
      const std::string encoded = p.Encode();
      message::RecordFields f = RecordOf(topic, body, broker_.port());
      f.properties = encoded;
      if (topic.find('/') == std::string::npos) {
        ASSERT_EQ(store->PutMessage(f, true).get().status, store::PutStatus::kPutOk);
        return;
      }
      f.physical_offset = store->MaxPhyOffset();
      Result<std::string> raw = message::EncodeRecordToString(f);
      ASSERT_TRUE(raw.ok());
      ASSERT_TRUE(store->AppendRaw(f.physical_offset, *raw).ok());
    };
    for (int i = 0; i < 5; ++i) put("HsGood", "before-" + std::to_string(i));
    put("a/b", "unindexable");
    const std::string out = std::to_string(due);
    put("rmq_sys_wheel_timer", "brick",
        {{"REAL_TOPIC", "a/b"}, {"REAL_QID", "0"}, {"TIMER_OUT_MS", out}});
    put("rmq_sys_wheel_timer", "long",
        {{"REAL_TOPIC", std::string(300, 't')}, {"REAL_QID", "0"}, {"TIMER_OUT_MS", out}});
    for (int i = 0; i < 5; ++i) put("HsGood", "after-" + std::to_string(i));
    store->Halt();  // a crash: the broker re-dispatches the whole CommitLog
  }
  ASSERT_TRUE(broker_.Start(""));
  ExpectServesUnrelated();
  ASSERT_EQ(CodeOf(Send("HsGood", 0, "live-0")), resp::kSuccess);  // creates the topic config
  std::vector<message::MessageExt> got;
  ASSERT_TRUE(WaitUntil([&] { return (got = PullAll("HsGood", 0)).size() == 11; }, 10s))
      << got.size() << "\n"
      << broker_.ReadLog();
  EXPECT_EQ(got[0].body, "before-0");
  EXPECT_EQ(got[10].body, "live-0");
  while (NowMillis() < due + 1000) std::this_thread::sleep_for(100ms);
  ASSERT_EQ(CodeOf(Send("HsGood", 0, "live-1")), resp::kSuccess);
  ASSERT_TRUE(WaitUntil([&] { return PullAll("HsGood", 0).size() == 12; }, 10s))
      << broker_.ReadLog();
  ExpectServesUnrelated();
  EXPECT_NE(broker_.ReadLog().find("skips the record"), std::string::npos);
  RestartCleanlyAndAfterSigkill();
  EXPECT_EQ(PullAll("HsGood", 0).size(), 12u);
  ASSERT_EQ(broker_.Stop(), 0);

  bool exited_zero = false;
  const std::string report = VerifyStore(broker_.store_dir(), &exited_zero);
  EXPECT_TRUE(exited_zero) << report;
  EXPECT_NE(report.find("WARNING"), std::string::npos) << report;
  EXPECT_NE(report.find("'a/b'"), std::string::npos) << report;
  EXPECT_NE(report.find("store verified: no problems"), std::string::npos) << report;
}

// A put cut short by kill -9 leaves half a record at the end of the CommitLog. The broker
// starts, serves every whole record, and its recovery zeroes the half record, so
// `mqstore verify` after the restart reports no problem (before it, it does).
TEST_F(HostileStoreTest, ATornTailRecordIsZeroedByRecovery) {
  int64_t torn_at = 0;
  std::string torn;
  {
    auto opened =
        store::MessageStore::Open(BrokerStoreConfig(broker_.store_dir()), env::Env::Default());
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    auto store = std::move(*opened);
    ASSERT_TRUE(store->Start().ok());
    for (int i = 0; i < 5; ++i) {
      const std::string body = "whole-" + std::to_string(i);
      message::RecordFields f = RecordOf("HsTorn", body, broker_.port());
      ASSERT_EQ(store->PutMessage(f, true).get().status, store::PutStatus::kPutOk);
    }
    const std::string big(2000, 't');
    message::RecordFields f = RecordOf("HsTorn", big, broker_.port());
    f.physical_offset = torn_at = store->MaxPhyOffset();
    Result<std::string> raw = message::EncodeRecordToString(f);
    ASSERT_TRUE(raw.ok());
    torn = raw->substr(0, raw->size() / 2);
    store->Halt();  // a crash
  }
  {
    // The first half of the sixth record, as a put interrupted mid-copy leaves it.
    std::fstream file(broker_.store_dir() + "/commitlog/00000000000000000000",
                      std::ios::in | std::ios::out | std::ios::binary);
    ASSERT_TRUE(file.is_open());
    file.seekp(torn_at);
    file.write(torn.data(), static_cast<std::streamsize>(torn.size()));
    ASSERT_TRUE(file.good());
  }
  bool exited_zero = true;
  std::string report = VerifyStore(broker_.store_dir(), &exited_zero);
  EXPECT_FALSE(exited_zero) << report;
  EXPECT_NE(report.find("PROBLEM"), std::string::npos) << report;

  ASSERT_TRUE(broker_.Start(""));
  ASSERT_EQ(CodeOf(Send("HsTorn", 0, "live")), resp::kSuccess);  // creates the topic config
  std::vector<message::MessageExt> got;
  ASSERT_TRUE(WaitUntil([&] { return (got = PullAll("HsTorn", 0)).size() >= 6; }, 10s))
      << got.size() << "\n"
      << broker_.ReadLog();
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0].body, "whole-0");
  EXPECT_EQ(got[4].body, "whole-4");
  EXPECT_EQ(got[5].body, "live");
  EXPECT_EQ(got[5].commit_log_offset, torn_at);  // appended where the torn record was
  ExpectServesUnrelated();
  ASSERT_EQ(broker_.Stop(), 0) << broker_.ReadLog();
  report = VerifyStore(broker_.store_dir(), &exited_zero);
  EXPECT_TRUE(exited_zero) << report;
  EXPECT_NE(report.find("store verified: no problems"), std::string::npos) << report;
}

// Item 5: the store preallocates only as far ahead as needed. With Java's 1 GiB CommitLog
// files an idle broker holds no CommitLog file at all, and a few sends hold exactly one
// (Java creates the next file and the one after at once: 2 GiB for an idle broker).
int64_t AllocatedBytesUnder(const std::string& dir, int* files) {
  int64_t bytes = 0;
  *files = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    struct stat st {};
    if (stat(entry.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    ++*files;
    bytes += static_cast<int64_t>(st.st_blocks) * 512;
  }
  return bytes;
}

TEST_F(HostileStoreTest, AnIdleBrokerDoesNotPreallocateCommitLogFiles) {
  constexpr int64_t kGiB = int64_t{1} << 30;
  broker_.SetExtra("mappedFileSizeCommitLog", std::to_string(kGiB));
  ASSERT_TRUE(broker_.Start(""));
  const std::string commit_log = broker_.store_dir() + "/commitlog";
  std::this_thread::sleep_for(1500ms);  // idle
  int files = 0;
  EXPECT_EQ(AllocatedBytesUnder(commit_log, &files), 0);
  EXPECT_EQ(files, 0);
  ExpectServesUnrelated();
  for (int i = 0; i < 20; ++i) ExpectServesUnrelated();
  std::this_thread::sleep_for(1000ms);  // time for a background allocation, were there one
  const int64_t allocated = AllocatedBytesUnder(commit_log, &files);
  EXPECT_EQ(files, 1);
  EXPECT_LE(allocated, kGiB + (1 << 20));
  ASSERT_EQ(broker_.Stop(), 0) << broker_.ReadLog();
}

// Item 5: a full disk (a 64 MiB tmpfs). New topics (each a ConsumeQueue file) and then
// large messages fill it; sends are refused with a clear error before any file creation
// can fail; everything acknowledged stays readable; the broker restarts on the full disk.
class HostileDiskTest : public HostileStoreTest {
 protected:
  void SetUp() override {
    mount_point_ = mount_dir_.Join("disk");
    ASSERT_EQ(mkdir(mount_point_.c_str(), 0755), 0);
    if (mount("hostile-tmpfs", mount_point_.c_str(), "tmpfs", 0, "size=64m") != 0) {
      GTEST_SKIP() << "cannot mount a 64 MiB tmpfs at " << mount_point_ << " ("
                   << std::strerror(errno) << "); the disk-full test needs root (CAP_SYS_ADMIN)";
    }
    mounted_ = true;
    broker_.SetExtra("storePathRootDir", mount_point_ + "/store");
    HostileStoreTest::SetUp();
  }
  void TearDown() override {
    HostileStoreTest::TearDown();
    broker_.Stop();
    if (mounted_) umount2(mount_point_.c_str(), MNT_DETACH);
  }

  TempDir mount_dir_;
  std::string mount_point_;
  bool mounted_ = false;
  // The whole scenario, for the flush type the fixture configured.
  void FillTheDiskThenRestart();
};

// The same under SYNC_FLUSH, where the CommitLog is written through the file, pre-written
// ahead of the writer, and every answer waits for fdatasync.
class HostileDiskSyncFlushTest : public HostileDiskTest {
 protected:
  void SetUp() override {
    broker_.SetExtra("flushDiskType", "SYNC_FLUSH");
    HostileDiskTest::SetUp();
  }
};

TEST_F(HostileDiskTest, FullDiskRefusesWritesLosesNothingAndRestarts) { FillTheDiskThenRestart(); }

TEST_F(HostileDiskSyncFlushTest, FullDiskRefusesWritesLosesNothingAndRestarts) {
  FillTheDiskThenRestart();
}

void HostileDiskTest::FillTheDiskThenRestart() {
  ASSERT_TRUE(broker_.Start(""));
  ExpectServesUnrelated();
  std::map<std::string, std::vector<std::string>> acked;  // topic -> bodies, queue 0
  std::string refusal;
  // Phase 1: the first message of many new topics (issue 12: 200 topics filled 825 MB).
  int flood = 0;
  for (; flood < 400; ++flood) {
    const std::string topic = "HsFlood" + std::to_string(flood);
    std::string remark;
    const int32_t code = CodeOf(Send(topic, 0, "first"), &remark);
    if (code != resp::kSuccess) {
      EXPECT_EQ(code, resp::kServiceNotAvailable) << remark;
      refusal = remark;
      break;
    }
    acked[topic].push_back("first");
  }
  EXPECT_LT(flood, 400) << "64 MiB never filled";
  EXPECT_GT(flood, 3);
  EXPECT_NE(refusal.find("disk full"), std::string::npos) << refusal;
  // Phase 2: large messages into a queue that exists, until refused.
  std::this_thread::sleep_for(300ms);
  const std::string big(16 << 10, 'b');
  int sent = 0;
  for (; sent < 10000; ++sent) {
    std::string remark;
    const std::string body = std::to_string(sent) + big;
    const int32_t code = CodeOf(Send("HsFlood0", 0, body), &remark);
    if (code != resp::kSuccess) {
      EXPECT_EQ(code, resp::kServiceNotAvailable) << remark;
      EXPECT_NE(remark.find("disk full"), std::string::npos) << remark;
      break;
    }
    acked["HsFlood0"].push_back(body);
  }
  EXPECT_LT(sent, 10000) << "64 MiB never filled";
  auto check_everything_readable = [&] {
    for (const auto& [topic, bodies] : acked) {
      std::vector<message::MessageExt> got;
      ASSERT_TRUE(WaitUntil([&] { return (got = PullAll(topic, 0)).size() >= bodies.size(); }, 20s))
          << topic << ": " << got.size() << " of " << bodies.size() << " readable\n"
          << broker_.ReadLog();
      ASSERT_EQ(got.size(), bodies.size()) << topic;
      for (size_t i = 0; i < bodies.size(); ++i) ASSERT_EQ(got[i].body, bodies[i]) << topic;
    }
  };
  check_everything_readable();
  ExpectServesUnrelated(/*writes_expected=*/false);
  // Restart on the full disk, cleanly and after SIGKILL: it starts, serves every
  // acknowledged message, and still refuses writes.
  ASSERT_EQ(broker_.Stop(), 0) << broker_.ReadLog();
  ASSERT_TRUE(broker_.Start("")) << broker_.ReadLog();
  check_everything_readable();
  std::string remark;
  EXPECT_EQ(CodeOf(Send("HsFlood0", 0, big), &remark), resp::kServiceNotAvailable) << remark;
  ASSERT_TRUE(broker_.process().Signal(SIGKILL));
  broker_.process().Wait(10s);
  ASSERT_TRUE(broker_.Start("")) << broker_.ReadLog();
  check_everything_readable();
  ExpectServesUnrelated(/*writes_expected=*/false);
}

}  // namespace
}  // namespace apogee::testing
