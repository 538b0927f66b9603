#include "store/consume_queue.h"

#include <gtest/gtest.h>

#include <limits>

#include "env/mem_env.h"

namespace apogee::store {
namespace {

constexpr int64_t kFileSize = 5 * 20;  // five entries per file

class ConsumeQueueTest : public ::testing::Test {
 protected:
  std::unique_ptr<ConsumeQueue> Open() {
    auto cq = std::make_unique<ConsumeQueue>(env_.get(), "T", 3, "/cq/T/3", kFileSize);
    EXPECT_TRUE(cq->Load().ok());
    return cq;
  }
  // Record i is 100 bytes at physical offset 1000 + 100 * i.
  static CqEntry Entry(int64_t i) { return CqEntry{1000 + 100 * i, 100, i % 2 ? 7 : -5}; }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
};

TEST_F(ConsumeQueueTest, PutAndReadAcrossFiles) {
  auto cq = Open();
  for (int64_t i = 0; i < 12; ++i) ASSERT_TRUE(cq->PutEntry(Entry(i), i).ok());
  EXPECT_EQ(cq->MinOffset(), 0);
  EXPECT_EQ(cq->MaxOffset(), 12);
  EXPECT_EQ(cq->max_phy_offset(), 1000 + 1200);
  EXPECT_EQ(cq->files().file_count(), 3u);
  auto e = cq->GetEntry(7);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->phy_offset, 1700);
  EXPECT_EQ(e->size, 100);
  EXPECT_EQ(e->tag_code, 7);
  EXPECT_EQ(cq->GetEntry(2)->tag_code, -5);  // sign survives the int64 slot
  EXPECT_FALSE(cq->GetEntry(12));
  // A batch read stops at the file end.
  EXPECT_EQ(cq->GetEntries(3, 10).size(), 2u);
  EXPECT_EQ(cq->GetEntries(5, 3).size(), 3u);
}

TEST_F(ConsumeQueueTest, RedispatchIsIdempotent) {
  auto cq = Open();
  for (int64_t i = 0; i < 4; ++i) ASSERT_TRUE(cq->PutEntry(Entry(i), i).ok());
  for (int64_t i = 0; i < 4; ++i) ASSERT_TRUE(cq->PutEntry(Entry(i), i).ok());
  EXPECT_EQ(cq->MaxOffset(), 4);
}

TEST_F(ConsumeQueueTest, GapIsCorruption) {
  auto cq = Open();
  ASSERT_TRUE(cq->PutEntry(Entry(0), 0).ok());
  Status s = cq->PutEntry(Entry(2), 2);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("gap"), std::string::npos);
}

// A damaged record's offsets are refused before they are multiplied or added, and leave the
// queue as it was.
TEST_F(ConsumeQueueTest, OffsetsOutsideTheFormatAreCorruption) {
  auto cq = Open();
  ASSERT_TRUE(cq->PutEntry(Entry(0), 0).ok());
  // The first offset whose byte position (20 bytes an entry) no longer fits int64.
  constexpr int64_t kFirstTooLarge = std::numeric_limits<int64_t>::max() / 20 + 1;
  for (int64_t queue_offset :
       {int64_t{-1}, kFirstTooLarge, std::numeric_limits<int64_t>::max()}) {
    Status s = cq->PutEntry(Entry(1), queue_offset);
    EXPECT_TRUE(s.Is(StatusCode::kCorruption)) << queue_offset << ": " << s.ToString();
    EXPECT_NE(s.message().find("is outside"), std::string::npos) << s.message();
  }
  for (CqEntry bad : {CqEntry{-1, 100, 0}, CqEntry{1100, -1, 0},
                      CqEntry{std::numeric_limits<int64_t>::max() - 10, 100, 0}}) {
    Status s = cq->PutEntry(bad, 1);
    EXPECT_TRUE(s.Is(StatusCode::kCorruption)) << s.ToString();
    EXPECT_NE(s.message().find("not a valid position"), std::string::npos) << s.message();
  }
  EXPECT_EQ(cq->MaxOffset(), 1);
  EXPECT_EQ(cq->max_phy_offset(), 1100);
  ASSERT_TRUE(cq->PutEntry(Entry(1), 1).ok());
  EXPECT_EQ(cq->MaxOffset(), 2);
}

TEST_F(ConsumeQueueTest, QueueStartingLateIsPrefilled) {
  auto cq = Open();
  ASSERT_TRUE(cq->PutEntry(Entry(7), 7).ok());
  EXPECT_EQ(cq->MinOffset(), 7);
  EXPECT_EQ(cq->MaxOffset(), 8);
  EXPECT_EQ(cq->files().FirstFile()->start_offset(), 100);  // the file holding offset 7
  auto reopened = Open();
  ASSERT_TRUE(reopened->Recover().ok());
  EXPECT_EQ(reopened->MaxOffset(), 8);
  reopened->CorrectMinOffset(0);
  EXPECT_EQ(reopened->MinOffset(), 7);  // blanks are skipped
  EXPECT_EQ(reopened->GetEntry(7)->phy_offset, 1700);
}

TEST_F(ConsumeQueueTest, RecoverFindsTheEndAndMaxPhyOffset) {
  {
    auto cq = Open();
    for (int64_t i = 0; i < 13; ++i) ASSERT_TRUE(cq->PutEntry(Entry(i), i).ok());
  }
  auto cq = Open();
  EXPECT_EQ(cq->MaxOffset(), 15);  // loaded files count as full
  ASSERT_TRUE(cq->Recover().ok());
  EXPECT_EQ(cq->MaxOffset(), 13);
  EXPECT_EQ(cq->max_phy_offset(), 1000 + 1300);
  ASSERT_TRUE(cq->PutEntry(Entry(13), 13).ok());
  EXPECT_EQ(cq->MaxOffset(), 14);
}

// store_file_fuzz: a slot at CommitLog offset INT64_MAX made Recover compute offset + size
// (signed overflow). Such a slot ends the queue like an unwritten one.
TEST_F(ConsumeQueueTest, RecoverStopsAtASlotWhoseRecordWouldEndPastInt64Max) {
  {
    auto cq = Open();
    for (int64_t i = 0; i < 3; ++i) ASSERT_TRUE(cq->PutEntry(Entry(i), i).ok());
  }
  auto names = env_->ListDir("/cq/T/3");
  ASSERT_TRUE(names.ok() && !names->empty());
  auto file = env_->OpenFile("/cq/T/3/" + names->front(), env::OpenMode::kOpenExisting);
  ASSERT_TRUE(file.ok());
  const std::string slot("\x7f\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x64", 12);
  ASSERT_TRUE((*file)->Write(3 * 20, slot).ok());
  ASSERT_TRUE((*file)->Close().ok());
  auto cq = Open();
  ASSERT_TRUE(cq->Recover().ok());
  EXPECT_EQ(cq->MaxOffset(), 3);
  EXPECT_EQ(cq->max_phy_offset(), 1000 + 300);
}

TEST_F(ConsumeQueueTest, TruncateDirtyCutsEntriesPastTheCommitLogEnd) {
  auto cq = Open();
  for (int64_t i = 0; i < 12; ++i) ASSERT_TRUE(cq->PutEntry(Entry(i), i).ok());
  ASSERT_TRUE(cq->TruncateDirty(1650).ok());  // record 6 starts at 1600 and survives
  EXPECT_EQ(cq->MaxOffset(), 7);
  EXPECT_EQ(cq->max_phy_offset(), 1700);
  EXPECT_EQ(cq->files().file_count(), 2u);
  ASSERT_TRUE(cq->PutEntry(Entry(7), 7).ok());
  EXPECT_EQ(cq->MaxOffset(), 8);
  ASSERT_TRUE(cq->TruncateDirty(0).ok());
  EXPECT_EQ(cq->MaxOffset(), 0);
}

TEST_F(ConsumeQueueTest, DeleteExpiredFilesAndMinOffset) {
  auto cq = Open();
  for (int64_t i = 0; i < 12; ++i) ASSERT_TRUE(cq->PutEntry(Entry(i), i).ok());
  // CommitLog now starts at record 6: the first file (0..4) is entirely older.
  auto deleted = cq->DeleteExpiredFiles(1600);
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(*deleted, 1);
  EXPECT_EQ(cq->MinOffset(), 6);
  EXPECT_FALSE(cq->GetEntry(5));
  EXPECT_TRUE(cq->GetEntry(6));
}

TEST_F(ConsumeQueueTest, OffsetByTime) {
  auto cq = Open();
  for (int64_t i = 0; i < 10; ++i) ASSERT_TRUE(cq->PutEntry(Entry(i), i).ok());
  // Store time of record i is 5000 + 10 * i.
  auto time_of = [](int64_t phy, int32_t) -> std::optional<int64_t> {
    return 5000 + (phy - 1000) / 100 * 10;
  };
  EXPECT_EQ(cq->OffsetByTime(0, time_of), 0);
  EXPECT_EQ(cq->OffsetByTime(5035, time_of), 4);
  EXPECT_EQ(cq->OffsetByTime(5040, time_of), 4);
  EXPECT_EQ(cq->OffsetByTime(9999, time_of), 10);
}

}  // namespace
}  // namespace apogee::store
