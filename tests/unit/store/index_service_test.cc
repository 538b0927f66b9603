#include "store/index_service.h"

#include <gtest/gtest.h>

#include <climits>
#include <map>
#include <string>

#include "env/mem_env.h"
#include "message/message_format.h"
#include "store/store_checkpoint.h"
#include "store/store_format.h"
#include "store/store_inspector.h"

namespace apogee::store {
namespace {

class IndexServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto cp = StoreCheckpoint::Open(env_.get(), "/root/checkpoint");
    ASSERT_TRUE(cp.ok());
    checkpoint_ = std::move(*cp);
  }
  std::unique_ptr<IndexService> Make(int32_t index_num = 100) {
    return std::make_unique<IndexService>(env_.get(), "/root/index", 64, index_num,
                                          checkpoint_.get(), &clock_);
  }
  static DispatchRequest Req(int64_t phy, std::string_view uniq, std::string_view keys,
                             int64_t ts = 1700000000000) {
    DispatchRequest r;
    r.topic = "T";
    r.phy_offset = phy;
    r.size = 100;
    r.store_timestamp = ts;
    r.uniq_key = uniq;
    r.keys = keys;
    return r;
  }
  std::vector<int64_t> Query(const IndexService& s, std::string_view key) {
    return s.QueryOffsets("T", key, 100, 0, INT64_MAX);
  }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  ManualClock clock_;
  std::unique_ptr<StoreCheckpoint> checkpoint_;
};

TEST_F(IndexServiceTest, IndexesUniqKeyAndEveryKeysToken) {
  auto s = Make();
  ASSERT_TRUE(s->Load(true).ok());
  ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "a  b")).ok());
  ASSERT_TRUE(s->BuildIndex(Req(100, "U1", "b")).ok());
  EXPECT_EQ(Query(*s, "U0"), (std::vector<int64_t>{0}));
  EXPECT_EQ(Query(*s, "a"), (std::vector<int64_t>{0}));
  EXPECT_EQ(Query(*s, "b"), (std::vector<int64_t>{100, 0}));
  EXPECT_TRUE(Query(*s, "").empty());
  EXPECT_TRUE(s->QueryOffsets("Other", "b", 10, 0, INT64_MAX).empty());
  EXPECT_EQ(s->IndexedUpTo(), 100);
}

TEST_F(IndexServiceTest, RedispatchDoesNotDuplicate) {
  auto s = Make();
  ASSERT_TRUE(s->Load(true).ok());
  ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "")).ok());
  ASSERT_TRUE(s->BuildIndex(Req(100, "U1", "")).ok());
  ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "")).ok());
  ASSERT_TRUE(s->BuildIndex(Req(100, "U1", "")).ok());
  EXPECT_EQ(Query(*s, "U0").size(), 1u);
  EXPECT_EQ(Query(*s, "U1").size(), 1u);
}

TEST_F(IndexServiceTest, RollbackRecordsAreNotIndexed) {
  auto s = Make();
  ASSERT_TRUE(s->Load(true).ok());
  DispatchRequest r = Req(0, "U0", "k");
  r.sys_flag = message::kTransactionRollbackType;
  ASSERT_TRUE(s->BuildIndex(r).ok());
  EXPECT_TRUE(Query(*s, "k").empty());
}

TEST_F(IndexServiceTest, RollsToNewFileAndCheckpointsTheFullOne) {
  auto s = Make(/*index_num=*/4);  // 3 entries per file
  ASSERT_TRUE(s->Load(true).ok());
  for (int i = 0; i < 7; ++i) {
    clock_.Advance(1);
    ASSERT_TRUE(s->BuildIndex(Req(i * 100, "U" + std::to_string(i), "", 1700000000000 + i * 1000))
                    .ok());
  }
  EXPECT_EQ(s->file_count(), 3u);
  EXPECT_EQ(checkpoint_->index_msg_timestamp(), 1700000005000);
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(Query(*s, "U" + std::to_string(i)), (std::vector<int64_t>{i * 100})) << i;
  }
  auto deleted = s->DeleteExpiredFiles(300);
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(*deleted, 1);
  EXPECT_TRUE(Query(*s, "U0").empty());
}

TEST_F(IndexServiceTest, CrashDropsUncheckpointedFilesAndTruncate) {
  {
    auto s = Make();
    ASSERT_TRUE(s->Load(true).ok());
    ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "")).ok());
    ASSERT_TRUE(s->BuildIndex(Req(100, "U1", "")).ok());
  }
  {
    auto s = Make();
    ASSERT_TRUE(s->Load(/*last_exit_ok=*/true).ok());
    EXPECT_EQ(s->file_count(), 1u);
    ASSERT_TRUE(s->TruncateFrom(200).ok());
    EXPECT_EQ(s->file_count(), 1u);
    ASSERT_TRUE(s->TruncateFrom(100).ok());  // the file holds an entry at 100
    EXPECT_EQ(s->file_count(), 0u);
    EXPECT_EQ(s->IndexedUpTo(), -1);
  }
  {
    auto s = Make();
    ASSERT_TRUE(s->Load(true).ok());
    ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "")).ok());
  }
  auto s = Make();
  ASSERT_TRUE(s->Load(/*last_exit_ok=*/false).ok());  // checkpoint index ts is 0
  EXPECT_EQ(s->file_count(), 0u);
}


// ---- Restart after kill -9 (same boot): the index file is repaired and kept ----
//
// A killed writer leaves in the page cache a prefix of IndexFile::PutKey's stores (entry,
// slot, header). These tests build each such state directly in the file, load it as a
// restart on the same boot does, re-dispatch as recovery would, and require every key to be
// found exactly once.
class IndexAfterKillTest : public IndexServiceTest {
 protected:
  static constexpr int kRecords = 10;
  static constexpr int32_t kSlots = 64;
  static constexpr int32_t kEntries = 100;

  // Record i sits at phy i*100 with keys U<i>, a<i>, b<i>; record kRecords (the one being
  // indexed when the writer died) reuses a3, so its chain shares a slot with record 3's.
  static DispatchRequest Record(int i) {
    static const std::vector<std::string> kKeys = [] {
      std::vector<std::string> k;
      for (int r = 0; r <= kRecords; ++r) {
        k.push_back(r == kRecords ? "a3 b" + std::to_string(r)
                                  : "a" + std::to_string(r) + " b" + std::to_string(r));
      }
      return k;
    }();
    static const std::vector<std::string> kUniq = [] {
      std::vector<std::string> u;
      for (int r = 0; r <= kRecords; ++r) u.push_back("U" + std::to_string(r));
      return u;
    }();
    return Req(int64_t{i} * 100, kUniq[i], kKeys[i], 1700000000000 + i * 1000);
  }
  // What a complete index answers after records 0..kRecords.
  static std::map<std::string, std::vector<int64_t>> Expected() {
    std::map<std::string, std::vector<int64_t>> e;
    for (int i = 0; i < kRecords; ++i) {
      e["U" + std::to_string(i)] = {int64_t{i} * 100};
      e["a" + std::to_string(i)] = {int64_t{i} * 100};
      e["b" + std::to_string(i)] = {int64_t{i} * 100};
    }
    e["U10"] = {1000};
    e["a3"] = {1000, 300};
    e["b10"] = {1000};
    return e;
  }

  // Indexes records 0..kRecords-1 completely, as a running store does.
  void WriteRecords() {
    auto s = Make(kEntries);
    ASSERT_TRUE(s->Load(true).ok());
    for (int i = 0; i < kRecords; ++i) ASSERT_TRUE(s->BuildIndex(Record(i)).ok());
  }
  std::string OnlyFile() {
    auto names = env_->ListDir("/root/index");
    EXPECT_TRUE(names.ok());
    EXPECT_EQ(names->size(), 1u);
    return names->empty() ? "" : "/root/index/" + names->front();
  }
  std::shared_ptr<IndexFile> OpenRaw() {
    auto f = IndexFile::Open(env_.get(), OnlyFile(), kSlots, kEntries);
    EXPECT_TRUE(f.ok()) << f.status().ToString();
    return f.ok() ? *f : nullptr;
  }
  std::string ReadBytes(uint64_t offset, size_t n) {
    auto file = env_->OpenFile(OnlyFile(), env::OpenMode::kOpenExisting);
    EXPECT_TRUE(file.ok());
    std::string out(n, '\0');
    auto got = (*file)->Read(offset, n, reinterpret_cast<uint8_t*>(out.data()));
    EXPECT_TRUE(got.ok() && *got == n);
    return out;
  }
  void WriteBytes(uint64_t offset, std::string_view data) {
    auto file = env_->OpenFile(OnlyFile(), env::OpenMode::kOpenExisting);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Write(offset, data).ok());
  }
  // Loads as a restart after an abnormal exit does and re-dispatches every record from
  // `start` (the CommitLog recovery start) or the index's rebuild point, whichever is lower.
  std::unique_ptr<IndexService> Recover(bool same_boot, int64_t start) {
    auto s = Make(kEntries);
    EXPECT_TRUE(s->Load(/*last_exit_ok=*/false, same_boot).ok());
    const int64_t from = std::min(start, s->RebuildFrom());
    for (int i = 0; i <= kRecords; ++i) {
      if (Record(i).phy_offset >= from) {
        EXPECT_TRUE(s->BuildIndex(Record(i)).ok());
      }
    }
    return s;
  }
  void ExpectEveryKeyOnce(const IndexService& s) {
    for (const auto& [key, offsets] : Expected()) {
      EXPECT_EQ(Query(s, key), offsets) << "key " << key;
    }
    // And the file is what `mqstore verify` accepts: no slot past the count, the used-slot
    // count right.
    auto report = InspectIndexFile(env_.get(), OnlyFile(), kSlots, kEntries, InspectOptions{});
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    EXPECT_TRUE(report->ok()) << report->text;
  }
};

TEST_F(IndexAfterKillTest, EntryAndSlotStoredHeaderNot) {
  WriteRecords();
  {
    auto f = OpenRaw();
    const std::string header = ReadBytes(0, kIndexHeaderSize);
    ASSERT_TRUE(f->PutKey("T#a3", 1000, 1700000010000));
    WriteBytes(0, header);  // the header store never happened
  }
  {
    // The slot of a3 now points at index_count: the state a query must not follow.
    auto f = OpenRaw();
    EXPECT_TRUE(f->RepairAfterKill(/*drop_last_record=*/false));
    std::vector<int64_t> out;
    f->SelectPhyOffsets("T#a3", 10, 0, INT64_MAX, &out);
    EXPECT_EQ(out, (std::vector<int64_t>{300}));  // the chain before the killed put
  }
  auto s = Recover(/*same_boot=*/true, /*start=*/INT64_MAX);
  EXPECT_EQ(s->file_count(), 1u);  // kept, not rebuilt
  ExpectEveryKeyOnce(*s);
}

TEST_F(IndexAfterKillTest, EntryStoredSlotAndHeaderNot) {
  WriteRecords();
  {
    auto f = OpenRaw();
    const std::string before = ReadBytes(0, kIndexHeaderSize + kSlots * kIndexSlotSize);
    ASSERT_TRUE(f->PutKey("T#U10", 1000, 1700000010000));
    WriteBytes(0, before);  // header and slots as before: only the entry was stored
  }
  auto s = Recover(/*same_boot=*/true, /*start=*/INT64_MAX);
  EXPECT_EQ(s->file_count(), 1u);
  ExpectEveryKeyOnce(*s);
}

TEST_F(IndexAfterKillTest, HeaderEndStoredCountNot) {
  WriteRecords();
  {
    auto f = OpenRaw();
    const std::string count = ReadBytes(kIndexIndexCountPos, 4);
    ASSERT_TRUE(f->PutKey("T#U10", 1000, 1700000010000));
    // Killed inside the header store: its end says record 10, its count does not.
    WriteBytes(kIndexIndexCountPos, count);
  }
  EXPECT_EQ(OpenRaw()->header().end_phy_offset, 1000);
  auto s = Recover(/*same_boot=*/true, /*start=*/INT64_MAX);
  EXPECT_EQ(s->file_count(), 1u);
  ExpectEveryKeyOnce(*s);
}

TEST_F(IndexAfterKillTest, KilledBetweenTheKeysOfOneRecord) {
  WriteRecords();
  // Record 10's first key is complete (header included); a3 and b10 were never put, yet
  // the header names record 10 as indexed.
  ASSERT_TRUE(OpenRaw()->PutKey("T#U10", 1000, 1700000010000));
  auto s = Recover(/*same_boot=*/true, /*start=*/INT64_MAX);
  EXPECT_EQ(s->file_count(), 1u);
  EXPECT_EQ(s->RebuildFrom(), 900);  // record 10 was dropped; 9 is the kept end
  ExpectEveryKeyOnce(*s);
}

TEST_F(IndexAfterKillTest, RecoveryStartBeforeTheKeptEndPutsNothingTwice) {
  WriteRecords();
  ASSERT_TRUE(OpenRaw()->PutKey("T#U10", 1000, 1700000010000));
  auto s = Recover(/*same_boot=*/true, /*start=*/0);  // every record dispatched again
  ExpectEveryKeyOnce(*s);
  EXPECT_EQ(s->IndexedUpTo(), 1000);
}

TEST_F(IndexAfterKillTest, AnotherBootRebuildsAsBefore) {
  WriteRecords();
  {
    auto f = OpenRaw();
    const std::string header = ReadBytes(0, kIndexHeaderSize);
    ASSERT_TRUE(f->PutKey("T#a3", 1000, 1700000010000));
    WriteBytes(0, header);
  }
  auto s = Recover(/*same_boot=*/false, /*start=*/INT64_MAX);
  EXPECT_EQ(s->RebuildFrom(), 0);  // destroyed: any of its pages may have been lost
  ExpectEveryKeyOnce(*s);
}

TEST_F(IndexAfterKillTest, WhatAKillCannotLeaveIsRebuilt) {
  WriteRecords();
  std::string bad(4, '\xff');  // slot value -1
  WriteBytes(kIndexHeaderSize + 5 * kIndexSlotSize, bad);
  auto s = Recover(/*same_boot=*/true, /*start=*/INT64_MAX);
  EXPECT_EQ(s->RebuildFrom(), 0);  // destroyed and rebuilt, as after a power loss
  ExpectEveryKeyOnce(*s);
}

TEST_F(IndexAfterKillTest, AFileHoldingOnlyTheLastRecordIsRebuilt) {
  {
    auto s = Make(kEntries);
    ASSERT_TRUE(s->Load(true).ok());
    ASSERT_TRUE(s->BuildIndex(Record(0)).ok());
  }
  auto s = Make(kEntries);
  ASSERT_TRUE(s->Load(false, true).ok());
  // Dropping its one record empties it: rebuilt from where the (absent) previous file ended.
  EXPECT_EQ(s->file_count(), 0u);
  EXPECT_EQ(s->RebuildFrom(), 0);
}

}  // namespace
}  // namespace apogee::store
