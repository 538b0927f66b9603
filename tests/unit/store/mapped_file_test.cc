#include "store/mapped_file.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

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

TEST_F(MappedFileTest, PreWriteKeepsSizeAndZeros) {
  auto f = MappedFile::Create(env_.get(), "/s/00000000000000000000", 0, 3 << 20);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->PreWrite(3 << 20).ok());
  EXPECT_EQ((*f)->warmed_position(), 3 << 20);
  EXPECT_EQ(*env_->GetFileSize("/s/00000000000000000000"), uint64_t{3} << 20);
  EXPECT_EQ((*f)->data()[(3 << 20) - 1], 0);
}

// Pre-writing starts on the first whole page past the writer: the page holding the last
// written byte is never written over, whatever `to` asks.
TEST_F(MappedFileTest, PreWriteStartsPastTheWriterAndLeavesItsBytesAlone) {
  auto f = MappedFile::Create(env_.get(), "/s/00000000000000000000", 0, 1 << 20);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Append(std::string(10000, 'w')));
  // Bytes past the write position in the writer's last page (as a record being encoded
  // in place would leave them): no pre-write may zero them.
  std::memset((*f)->data() + 10000, 'p', 2288);
  ASSERT_TRUE((*f)->PreWrite(1 << 20, /*step=*/4096, /*gap=*/0).ok());
  EXPECT_EQ((*f)->warmed_position(), 1 << 20);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>((*f)->data()), 10000), std::string(10000, 'w'));
  EXPECT_EQ((*f)->data()[12287], 'p');
  // Nothing written again below what was pre-written already.
  std::memset((*f)->data() + 20000, 'q', 10);
  ASSERT_TRUE((*f)->PreWrite(1 << 20).ok());
  EXPECT_EQ((*f)->data()[20005], 'q');
}

// A writer overtaken by a pre-writer that is behind is not waited for: pre-writing jumps
// `gap` past it.
TEST_F(MappedFileTest, APreWriterBehindTheWriterSkipsAhead) {
  auto f = MappedFile::Create(env_.get(), "/s/00000000000000000000", 0, 1 << 20);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Append(std::string(300000, 'w')));
  ASSERT_TRUE((*f)->PreWrite(1 << 20, 65536, /*gap=*/100000).ok());
  EXPECT_EQ((*f)->warmed_position(), 1 << 20);
  EXPECT_EQ((*f)->writer_position(), 300000);
  // A trigger is taken once.
  (*f)->ArmPreWriteTrigger(400000);
  EXPECT_FALSE((*f)->TakePreWriteTrigger(399999));
  EXPECT_TRUE((*f)->TakePreWriteTrigger(400000));
  EXPECT_FALSE((*f)->TakePreWriteTrigger(500000));
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
  ASSERT_TRUE((*f)->PreWrite(8 << 20).ok());
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

// An Env whose files write slowly (a pause before each Write), over a MemEnv: the pre-writer
// (one Write per page) becomes far slower than a writer storing into the mapping.
class SlowWriteEnv final : public env::Env {
 public:
  explicit SlowWriteEnv(env::Env* target) : target_(target) {}
  Status CreateDirs(const std::string& p) override { return target_->CreateDirs(p); }
  Result<std::vector<std::string>> ListDir(const std::string& p) override {
    return target_->ListDir(p);
  }
  bool FileExists(const std::string& p) override { return target_->FileExists(p); }
  bool IsDirectory(const std::string& p) override { return target_->IsDirectory(p); }
  Result<uint64_t> GetFileSize(const std::string& p) override { return target_->GetFileSize(p); }
  Status DeleteFile(const std::string& p) override { return target_->DeleteFile(p); }
  Status DeleteDir(const std::string& p) override { return target_->DeleteDir(p); }
  Status RenameFile(const std::string& a, const std::string& b) override {
    return target_->RenameFile(a, b);
  }
  Status SyncDir(const std::string& p) override { return target_->SyncDir(p); }
  Result<std::unique_ptr<env::RandomRWFile>> OpenFile(const std::string& p,
                                                      env::OpenMode mode) override {
    APOGEE_ASSIGN_OR_RETURN(auto file, target_->OpenFile(p, mode));
    return std::unique_ptr<env::RandomRWFile>(std::make_unique<SlowFile>(std::move(file)));
  }
  Result<std::unique_ptr<env::FileLock>> LockFile(const std::string& p) override {
    return target_->LockFile(p);
  }
  Result<env::DiskSpace> GetDiskSpace(const std::string& p) override {
    return target_->GetDiskSpace(p);
  }

 private:
  class SlowFile final : public env::RandomRWFile {
   public:
    explicit SlowFile(std::unique_ptr<env::RandomRWFile> f)
        : RandomRWFile(f->path()), f_(std::move(f)) {}
    Status Write(uint64_t offset, std::string_view data) override {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
      return f_->Write(offset, data);
    }
    Result<size_t> Read(uint64_t o, size_t n, uint8_t* s) const override { return f_->Read(o, n, s); }
    Result<uint64_t> Size() const override { return f_->Size(); }
    Status Allocate(uint64_t n) override { return f_->Allocate(n); }
    Status Truncate(uint64_t n) override { return f_->Truncate(n); }
    Status Sync() override { return f_->Sync(); }
    Status SyncRange(uint64_t o, uint64_t n) override { return f_->SyncRange(o, n); }
    Result<std::unique_ptr<env::MappedRegion>> Map() override { return f_->Map(); }
    Status Close() override { return f_->Close(); }

   private:
    std::unique_ptr<env::RandomRWFile> f_;
  };
  env::Env* target_;
};

// The writer appends records while another thread pre-writes just ahead of it with no gap,
// and the writer (a store into the mapping) is faster than the pre-writer (a slow write per
// page), so it runs into steps being pre-written all the time: it must wait for each, and no
// record byte may be lost to a zero page.
void ExpectPreWritingRacingTheWriterLosesNoByte(MappedFile::PreWriteMode mode) {
  constexpr int64_t kSize = 4 << 20;
  auto mem = env::NewMemEnv();
  SlowWriteEnv env(mem.get());
  ASSERT_TRUE(env.CreateDirs("/s").ok());
  auto f = MappedFile::Create(&env, "/s/00000000000000000000", 0, kSize);
  ASSERT_TRUE(f.ok());
  MappedFile* file = f->get();
  std::atomic<bool> done{false};
  std::thread prewriter([&] {
    while (!done.load()) {
      ASSERT_TRUE(
          file->PreWrite(file->writer_position() + 16 * kOsPageSize, 8 * kOsPageSize, 0, mode)
              .ok());
    }
  });
  std::string record(1000, 0);
  int64_t n = 0;
  while (file->remaining() >= static_cast<int64_t>(record.size())) {
    std::memset(record.data(), 'a' + static_cast<int>(n % 26), record.size());
    ASSERT_TRUE(file->Append(record));
    // Paced to about a page per sleep: slow enough that the pre-writer starts steps ahead
    // of the writer, fast enough that the writer then runs into them.
    if (++n % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(1));
  }
  done.store(true);
  prewriter.join();
  EXPECT_GT(file->warmed_position(), 0);
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* p = file->data() + i * 1000;
    const uint8_t want = static_cast<uint8_t>('a' + i % 26);
    for (int k = 0; k < 1000; ++k) {
      ASSERT_EQ(p[k], want) << "record " << i << " byte " << k;
    }
  }
}

TEST(MappedFileRaceTest, PreWritingRacingTheWriterLosesNoByte) {
  ExpectPreWritingRacingTheWriterLosesNoByte(MappedFile::PreWriteMode::kSyncedPageByPage);
}

// ASYNC_FLUSH's pre-writer: one write per step, nothing synced, the same hand-shake.
TEST(MappedFileRaceTest, PageCacheOnlyPreWritingRacingTheWriterLosesNoByte) {
  ExpectPreWritingRacingTheWriterLosesNoByte(MappedFile::PreWriteMode::kPageCacheOnly);
}

}  // namespace
}  // namespace apogee::store
