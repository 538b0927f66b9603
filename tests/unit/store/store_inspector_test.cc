#include "store/store_inspector.h"

#include <gtest/gtest.h>

#include "env/mem_env.h"
#include "message/message_record.h"
#include "store/message_store.h"
#include "store_test_util.h"
#include "testutil/test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;

class StoreInspectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = MessageStore::Open(config_, mem_.get(), &clock_);
    ASSERT_TRUE(opened.ok());
    auto store = std::move(*opened);
    ASSERT_TRUE(store->Start().ok());
    for (int i = 0; i < 30; ++i) {
      TestMessage m(i % 2 ? "Alpha" : "Beta", i % 3, std::string(3000, 'i'), "TagA",
                    "key" + std::to_string(i), "U" + std::to_string(i));
      ASSERT_EQ(store->PutMessage(m.fields).get().status, PutStatus::kPutOk);
    }
    ASSERT_TRUE(apogee::testing::WaitUntil([&] { return store->DispatchBehindBytes() <= 0; },
                                           std::chrono::seconds(5)));
    store->Shutdown();
  }
  std::unique_ptr<env::Env> mem_ = env::NewMemEnv();
  StoreConfig config_ = SmallConfig("/i");
  ManualClock clock_;
};

TEST_F(StoreInspectorTest, CommitLogSummaryAndDump) {
  InspectOptions options;
  options.dump = true;
  auto r = InspectCommitLog(mem_.get(), "/i/commitlog", options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->ok()) << r->text;
  EXPECT_EQ(r->records, 30);
  EXPECT_EQ(r->files, 2);
  EXPECT_EQ(r->blanks, 1);
  EXPECT_NE(r->text.find("topic Alpha: 15"), std::string::npos) << r->text;
  EXPECT_NE(r->text.find("keys=key7"), std::string::npos);
  EXPECT_NE(r->text.find("OK: every record verified"), std::string::npos);
}

// A sound record the broker cannot index ("a/b" cannot name a ConsumeQueue) is a warning
// with its offset, not a problem: the broker skips it and starts on such a store.
TEST_F(StoreInspectorTest, RecordsTheBrokerSkipsAreWarnedAbout) {
  {
    auto opened = MessageStore::Open(config_, mem_.get(), &clock_);
    ASSERT_TRUE(opened.ok());
    auto store = std::move(*opened);
    ASSERT_TRUE(store->Start().ok());
    TestMessage bad("a/b", 0, "bad");
    bad.fields.physical_offset = store->MaxPhyOffset();
    Result<std::string> raw = message::EncodeRecordToString(bad.fields);
    ASSERT_TRUE(raw.ok());
    ASSERT_TRUE(store->AppendRaw(bad.fields.physical_offset, *raw).ok());
    store->Shutdown();
  }
  auto r = InspectCommitLog(mem_.get(), "/i/commitlog", InspectOptions{});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->ok()) << r->text;
  ASSERT_EQ(r->warnings.size(), 1u) << r->text;
  EXPECT_NE(r->text.find("WARNING"), std::string::npos) << r->text;
  EXPECT_NE(r->text.find("topic 'a/b' queue 0 cannot have a ConsumeQueue"), std::string::npos)
      << r->text;
}

TEST_F(StoreInspectorTest, CommitLogCorruptionIsReportedWithItsOffset) {
  auto file = mem_->OpenFile("/i/commitlog/00000000000000000000", env::OpenMode::kOpenExisting);
  ASSERT_TRUE(file.ok());
  // Flip a body byte of the second record (records are 3000 + header bytes).
  uint8_t b = 0;
  ASSERT_TRUE((*file)->Read(4000, 1, &b).ok());
  b ^= 0x55;
  ASSERT_TRUE((*file)->Write(4000, std::string_view(reinterpret_cast<char*>(&b), 1)).ok());
  auto r = InspectCommitLog(mem_.get(), "/i/commitlog", InspectOptions{});
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r->ok());
  EXPECT_NE(r->problems[0].find("00000000000000000000 offset"), std::string::npos)
      << r->problems[0];
  EXPECT_NE(r->text.find("PROBLEM"), std::string::npos);
  InspectOptions no_crc;
  no_crc.verify_crc = false;
  EXPECT_TRUE(InspectCommitLog(mem_.get(), "/i/commitlog", no_crc)->ok());
}

TEST_F(StoreInspectorTest, ConsumeQueueAgreesWithCommitLog) {
  auto r = InspectConsumeQueue(mem_.get(), "/i/consumequeue/Alpha/1", "/i/commitlog",
                               InspectOptions{});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->ok()) << r->text;
  EXPECT_EQ(r->records, 5);  // i odd and i % 3 == 1: 1, 7, 13, 19, 25
  // An entry pointing at the wrong record is caught.
  auto file = mem_->OpenFile("/i/consumequeue/Alpha/1/00000000000000000000",
                             env::OpenMode::kOpenExisting);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Write(20 + 8, std::string("\x00\x00\x00\x05", 4)).ok());  // size of #1
  auto bad = InspectConsumeQueue(mem_.get(), "/i/consumequeue/Alpha/1", "/i/commitlog",
                                 InspectOptions{});
  ASSERT_TRUE(bad.ok());
  ASSERT_FALSE(bad->ok());
  EXPECT_NE(bad->problems[0].find("queue offset 1"), std::string::npos) << bad->problems[0];
}

TEST_F(StoreInspectorTest, IndexFileAndCheckpoint) {
  auto names = mem_->ListDir("/i/index");
  ASSERT_TRUE(names.ok());
  ASSERT_EQ(names->size(), 1u);
  auto r = InspectIndexFile(mem_.get(), "/i/index/" + names->front(), config_.max_hash_slot_num,
                            config_.max_index_num, InspectOptions{});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->ok()) << r->text;
  EXPECT_EQ(r->records, 60);  // UNIQ_KEY and one key per message
  auto cp = InspectCheckpoint(mem_.get(), "/i/checkpoint");
  ASSERT_TRUE(cp.ok());
  EXPECT_NE(cp->text.find("physicMsgTimestamp  1700000000000"), std::string::npos) << cp->text;
  EXPECT_FALSE(InspectCheckpoint(mem_.get(), "/i/missing").ok());
}

}  // namespace
}  // namespace apogee::store
