#include "store/mapped_file_queue.h"

#include <gtest/gtest.h>

#include "env/mem_env.h"

namespace apogee::store {
namespace {

class MappedFileQueueTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(env_->CreateDirs("/q").ok()); }
  // Appends `n` bytes, rolling files as they fill.
  void Fill(MappedFileQueue* q, int64_t n) {
    while (n > 0) {
      auto f = q->LastFileOrCreate(0);
      ASSERT_TRUE(f.ok()) << f.status().ToString();
      int64_t chunk = std::min(n, (*f)->remaining());
      ASSERT_TRUE((*f)->Append(std::string(static_cast<size_t>(chunk), 'x')));
      n -= chunk;
    }
  }
  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
};

TEST_F(MappedFileQueueTest, RollsAndLocates) {
  MappedFileQueue q(env_.get(), "/q", 100);
  ASSERT_TRUE(q.Load().ok());
  EXPECT_TRUE(q.empty());
  Fill(&q, 250);
  EXPECT_EQ(q.file_count(), 3u);
  EXPECT_EQ(q.MinOffset(), 0);
  EXPECT_EQ(q.MaxOffset(), 250);
  EXPECT_EQ(q.FindFileByOffset(0)->start_offset(), 0);
  EXPECT_EQ(q.FindFileByOffset(199)->start_offset(), 100);
  EXPECT_EQ(q.FindFileByOffset(249)->start_offset(), 200);
  EXPECT_EQ(q.FindFileByOffset(300), nullptr);
  EXPECT_EQ(q.FindFileByOffset(-1), nullptr);
  auto names = env_->ListDir("/q");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->front(), "00000000000000000000");
  EXPECT_EQ(names->back(), "00000000000000000200");
}

// A kill -9 between creating the next file and sizing it leaves it empty: the next start
// removes it (it holds nothing) instead of refusing to load the log.
TEST_F(MappedFileQueueTest, EmptyFilesAtTheEndAreRemovedAtLoad) {
  {
    MappedFileQueue q(env_.get(), "/q", 100);
    ASSERT_TRUE(q.Load().ok());
    Fill(&q, 150);
  }
  for (const char* name : {"00000000000000000200", "00000000000000000300"}) {
    auto f = env_->OpenFile(std::string("/q/") + name, env::OpenMode::kCreateNew);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    ASSERT_TRUE((*f)->Close().ok());
  }
  MappedFileQueue q(env_.get(), "/q", 100);
  Status s = q.Load();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(q.file_count(), 2u);
  EXPECT_FALSE(env_->FileExists("/q/00000000000000000200"));
  EXPECT_FALSE(env_->FileExists("/q/00000000000000000300"));
  EXPECT_TRUE(env_->FileExists("/q/00000000000000000100"));
}

// An empty file followed by one with data is not an interrupted creation: refused.
TEST_F(MappedFileQueueTest, AnEmptyFileBeforeDataIsRefused) {
  {
    MappedFileQueue q(env_.get(), "/q", 100);
    ASSERT_TRUE(q.Load().ok());
    Fill(&q, 250);
  }
  ASSERT_TRUE(env_->DeleteFile("/q/00000000000000000100").ok());
  auto f = env_->OpenFile("/q/00000000000000000100", env::OpenMode::kCreateNew);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Close().ok());
  MappedFileQueue q(env_.get(), "/q", 100);
  Status s = q.Load();
  EXPECT_TRUE(s.Is(StatusCode::kCorruption)) << s.ToString();
  EXPECT_TRUE(env_->FileExists("/q/00000000000000000100"));
}

TEST_F(MappedFileQueueTest, FirstFileAlignsToRequestedOffset) {
  MappedFileQueue q(env_.get(), "/q", 100);
  ASSERT_TRUE(q.Load().ok());
  auto f = q.LastFileOrCreate(1234);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->start_offset(), 1200);
  EXPECT_EQ(q.FlushedWhere(), 1200);
}

TEST_F(MappedFileQueueTest, FlushCrossesFiles) {
  MappedFileQueue q(env_.get(), "/q", 100);
  ASSERT_TRUE(q.Load().ok());
  Fill(&q, 150);
  ASSERT_TRUE(*q.Flush(0));
  EXPECT_EQ(q.FlushedWhere(), 100);
  ASSERT_TRUE(*q.Flush(0));
  EXPECT_EQ(q.FlushedWhere(), 150);
  EXPECT_FALSE(*q.Flush(0));
}

TEST_F(MappedFileQueueTest, LoadRefusesGapsAndBadSizes) {
  {
    MappedFileQueue q(env_.get(), "/q", 100);
    ASSERT_TRUE(q.Load().ok());
    Fill(&q, 300);
  }
  ASSERT_TRUE(env_->DeleteFile("/q/00000000000000000100").ok());
  MappedFileQueue gap(env_.get(), "/q", 100);
  Status s = gap.Load();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("not contiguous"), std::string::npos);

  MappedFileQueue sized(env_.get(), "/q", 50);
  EXPECT_FALSE(sized.Load().ok());
}

TEST_F(MappedFileQueueTest, LoadMarksFullThenTruncate) {
  {
    MappedFileQueue q(env_.get(), "/q", 100);
    ASSERT_TRUE(q.Load().ok());
    Fill(&q, 250);
  }
  MappedFileQueue q(env_.get(), "/q", 100);
  ASSERT_TRUE(q.Load().ok());
  EXPECT_EQ(q.MaxOffset(), 300);
  ASSERT_TRUE(q.TruncateDirtyFiles(130).ok());
  EXPECT_EQ(q.file_count(), 2u);
  EXPECT_EQ(q.MaxOffset(), 130);
  EXPECT_EQ(q.FlushedWhere(), 130);
  EXPECT_FALSE(env_->FileExists("/q/00000000000000000200"));
  // Appending continues right at the cut.
  auto f = q.LastFileOrCreate(0);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->start_offset(), 100);
  EXPECT_EQ((*f)->wrote_position(), 30);
}

TEST_F(MappedFileQueueTest, DeleteFirstFiles) {
  MappedFileQueue q(env_.get(), "/q", 100);
  ASSERT_TRUE(q.Load().ok());
  Fill(&q, 250);
  auto first = q.FirstFile();
  ASSERT_TRUE(q.DeleteFirstFiles(2).ok());
  EXPECT_EQ(q.MinOffset(), 200);
  EXPECT_EQ(q.FindFileByOffset(50), nullptr);
  EXPECT_EQ(first->data()[0], 'x');  // a holder keeps the mapping
  ASSERT_TRUE(q.DestroyAll().ok());
  EXPECT_TRUE(q.empty());
  EXPECT_TRUE(env_->ListDir("/q")->empty());
}

// SYNC_FLUSH: the file being written faults in page by page from its write position (so a
// sync writes the 4 KiB pages it covers, not a 2 MiB folio); a file that is full goes back
// to normal readahead; a truncation makes the cut file the one written again.
TEST_F(MappedFileQueueTest, SyncFlushWriteTailIsFaultedInPageByPage) {
  MappedFileQueue q(env_.get(), "/q", 3 * 4096);
  ASSERT_TRUE(q.Load().ok());
  Fill(&q, 5000);
  auto first = q.FirstFile();
  EXPECT_EQ(first->page_by_page_from(), -1);  // not asked for yet (ASYNC_FLUSH)
  q.SetPageByPageWriteTail();
  EXPECT_EQ(first->page_by_page_from(), 4096);  // the page holding the write position on
  Fill(&q, 3 * 4096);                             // rolls into the second file
  ASSERT_EQ(q.file_count(), 2u);
  EXPECT_EQ(first->page_by_page_from(), -1);
  EXPECT_EQ(q.LastFile()->page_by_page_from(), 0);
  ASSERT_TRUE(q.TruncateDirtyFiles(9000).ok());
  ASSERT_EQ(q.file_count(), 1u);
  EXPECT_EQ(first->page_by_page_from(), 8192);

  // A queue that never asked for it (ConsumeQueues, ASYNC_FLUSH) leaves files alone.
  MappedFileQueue other(env_.get(), "/q2", 4096);
  ASSERT_TRUE(other.Load().ok());
  Fill(&other, 3 * 4096);
  for (const auto& f : other.Files()) EXPECT_EQ(f->page_by_page_from(), -1);
}

}  // namespace
}  // namespace apogee::store
