#include "store/mapped_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "env/mem_env.h"
#include "env/posix_env.h"
#include "store/store_format.h"
#include "testutil/test_util.h"

namespace apogee::store {
namespace {

class MappedFileTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(env_->CreateDirs("/s").ok()); }
  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
};

TEST_F(MappedFileTest, FileNamesAreTwentyDigits) {
  EXPECT_EQ(MappedFile::FileNameOf(0), "00000000000000000000");
  EXPECT_EQ(MappedFile::FileNameOf(1073741824), "00000000001073741824");
  EXPECT_EQ(*MappedFile::ParseFileName("00000000001073741824"), 1073741824);
  EXPECT_FALSE(MappedFile::ParseFileName("1073741824").ok());
  EXPECT_FALSE(MappedFile::ParseFileName("0000000000107374182x").ok());
  EXPECT_FALSE(MappedFile::ParseFileName("99999999999999999999").ok());
}

TEST_F(MappedFileTest, CreateAppendFlushReopen) {
  auto f = MappedFile::Create(env_.get(), "/s/00000000000000004096", 4096, 4096);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ((*f)->start_offset(), 4096);
  EXPECT_EQ((*f)->wrote_position(), 0);
  EXPECT_TRUE((*f)->Append("hello"));
  EXPECT_EQ((*f)->wrote_position(), 5);
  EXPECT_EQ((*f)->flushed_position(), 0);
  // Fewer dirty pages than asked: nothing flushed.
  EXPECT_EQ(*(*f)->Flush(1), 0);
  EXPECT_EQ(*(*f)->Flush(0), 5);
  EXPECT_EQ(*env_->GetFileSize("/s/00000000000000004096"), 4096u);

  auto again = MappedFile::Open(env_.get(), "/s/00000000000000004096", 4096, 4096);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE((*again)->IsFull());  // loaded files are full until recovery
  EXPECT_EQ(std::string(reinterpret_cast<const char*>((*again)->data()), 5), "hello");
}

TEST_F(MappedFileTest, AppendRefusesOverflow) {
  auto f = MappedFile::Create(env_.get(), "/s/00000000000000000000", 0, 8);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE((*f)->Append("12345"));
  EXPECT_FALSE((*f)->Append("6789"));
  EXPECT_EQ((*f)->wrote_position(), 5);
  EXPECT_TRUE((*f)->Append("678"));
  EXPECT_TRUE((*f)->IsFull());
}

TEST_F(MappedFileTest, OpenRefusesWrongSize) {
  auto f = MappedFile::Create(env_.get(), "/s/00000000000000000000", 0, 100);
  ASSERT_TRUE(f.ok());
  auto bad = MappedFile::Open(env_.get(), "/s/00000000000000000000", 0, 200);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("100 bytes"), std::string::npos);
}

TEST_F(MappedFileTest, FullFileFlushesAnyDirtyByte) {
  auto f = MappedFile::Create(env_.get(), "/s/00000000000000000000", 0, 10);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Append("0123456789"));
  EXPECT_EQ(*(*f)->Flush(100), 10);
}

TEST_F(MappedFileTest, WarmKeepsSizeAndZeros) {
  auto f = MappedFile::Create(env_.get(), "/s/00000000000000000000", 0, 3 << 20);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Warm().ok());
  EXPECT_EQ(*env_->GetFileSize("/s/00000000000000000000"), uint64_t{3} << 20);
  EXPECT_EQ((*f)->data()[(3 << 20) - 1], 0);
}

TEST_F(MappedFileTest, DestroyDeletesButMappingStaysReadable) {
  auto f = MappedFile::Create(env_.get(), "/s/00000000000000000000", 0, 16);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Append("abc"));
  ASSERT_TRUE((*f)->Destroy().ok());
  EXPECT_FALSE(env_->FileExists("/s/00000000000000000000"));
  EXPECT_EQ((*f)->data()[1], 'b');
  EXPECT_TRUE((*f)->destroyed());
}

// Bytes this process has dirtied in the page cache so far (/proc/self/io write_bytes: a
// store through a mapping counts the whole page-cache folio it dirties); -1 where unknown.
int64_t DirtiedBytes() {
  std::ifstream io("/proc/self/io");
  std::string key;
  int64_t value = 0;
  while (io >> key >> value) {
    if (key == "write_bytes:") return value;
  }
  return -1;
}

// Stores one small record through the mapping at `pos` and syncs it, as a SYNC_FLUSH put
// does; returns the bytes that dirtied (and so the sync wrote).
int64_t DirtiedBySyncedRecord(MappedFile* f, int64_t pos) {
  const int64_t before = DirtiedBytes();
  f->set_wrote_position(pos);
  EXPECT_TRUE(f->Append(std::string(1024, 'r')));
  EXPECT_TRUE(f->Flush(0).ok());
  return before < 0 ? -1 : DirtiedBytes() - before;
}

// On a real disk (ext4 on Linux >= 6.16 caches files in folios of up to 2 MiB), a 1 KiB record
// synced into a pre-written file dirtied and wrote its whole folio (1 MiB with the old 1 MiB
// pre-writes): the SYNC_FLUSH regression of docs/benchmarks.md. Pre-written page by page, it
// dirties one page. On a file system without write accounting (tmpfs) this shows nothing.
TEST(MappedFilePosixTest, ASmallRecordSyncedIntoAWarmedFileDirtiesOnePage) {
  apogee::testing::TempDir dir;
  auto env = env::NewPosixEnv();
  auto f = MappedFile::Create(env.get(), dir.Join("00000000000000000000"), 0, 8 << 20);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  ASSERT_TRUE((*f)->Warm().ok());
  (*f)->ResetPositions(0);
  for (int64_t pos : {int64_t{1} << 20, int64_t{5} << 20}) {
    int64_t dirtied = DirtiedBySyncedRecord(f->get(), pos + 100);
    if (dirtied < 0) GTEST_SKIP() << "no /proc/self/io";
    EXPECT_LE(dirtied, 2 * kOsPageSize) << "at " << pos;
  }
}

// The same for a file never pre-written (the first CommitLog file, or one reopened after a
// restart) whose unwritten part was advised page by page, after a long sequential write has
// had every chance to grow readahead's folios.
TEST(MappedFilePosixTest, ASmallRecordSyncedIntoAPageByPageTailDirtiesOnePage) {
  apogee::testing::TempDir dir;
  auto env = env::NewPosixEnv();
  auto f = MappedFile::Create(env.get(), dir.Join("00000000000000000000"), 0, 32 << 20);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  ASSERT_TRUE((*f)->SetWriteTailPageByPage(true).ok());
  EXPECT_EQ((*f)->page_by_page_from(), 0);
  const std::string chunk(1 << 20, 'w');
  for (int i = 0; i < 16; ++i) ASSERT_TRUE((*f)->Append(chunk));
  ASSERT_TRUE((*f)->Flush(0).ok());
  for (int64_t pos : {int64_t{16} << 20, int64_t{24} << 20}) {
    int64_t dirtied = DirtiedBySyncedRecord(f->get(), pos + 100);
    if (dirtied < 0) GTEST_SKIP() << "no /proc/self/io";
    EXPECT_LE(dirtied, 2 * kOsPageSize) << "at " << pos;
  }
  ASSERT_TRUE((*f)->SetWriteTailPageByPage(false).ok());
  EXPECT_EQ((*f)->page_by_page_from(), -1);
}

}  // namespace
}  // namespace apogee::store
