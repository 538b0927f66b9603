#include "store/file_allocator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "env/mem_env.h"
#include "store/mapped_file_queue.h"

namespace apogee::store {
namespace {

TEST(FileAllocatorTest, AFileFilledAtOnceIsCreatedInlineAndNothingIsLeftOver) {
  auto env = env::NewMemEnv();
  ASSERT_TRUE(env->CreateDirs("/a").ok());
  FileAllocator alloc(/*warm=*/true);
  alloc.Start();
  MappedFileQueue q(env.get(), "/a", 1 << 16, &alloc);
  ASSERT_TRUE(q.Load().ok());
  auto f0 = q.LastFileOrCreate(0);
  ASSERT_TRUE(f0.ok());
  // Filled in one append: the second file was never asked for, so it is made now.
  ASSERT_TRUE((*f0)->Append(std::string(1 << 16, 'a')));
  auto f1 = q.LastFileOrCreate(0);
  ASSERT_TRUE(f1.ok());
  EXPECT_EQ((*f1)->start_offset(), 1 << 16);
  EXPECT_EQ((*f1)->wrote_position(), 0);
  alloc.Shutdown();
  alloc.DiscardPrepared();
  // Only the two files in use exist.
  auto names = env->ListDir("/a");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 2u);
}

// The next file is asked for only once the current one is half written: an idle store
// holds one file, not two.
TEST(FileAllocatorTest, NextFileIsPreparedOnlyPastHalfOfTheCurrentOne) {
  auto env = env::NewMemEnv();
  ASSERT_TRUE(env->CreateDirs("/a").ok());
  FileAllocator alloc(/*warm=*/false);
  alloc.Start();
  MappedFileQueue q(env.get(), "/a", 1 << 16, &alloc);
  ASSERT_TRUE(q.Load().ok());
  auto f0 = q.LastFileOrCreate(0);
  ASSERT_TRUE(f0.ok());
  ASSERT_TRUE((*f0)->Append(std::string((1 << 15) - 1, 'a')));
  ASSERT_TRUE(q.LastFileOrCreate(0).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(env->ListDir("/a")->size(), 1u);
  EXPECT_EQ(alloc.PreparedBytes(), 0);
  ASSERT_TRUE((*f0)->Append("b"));
  ASSERT_TRUE(q.LastFileOrCreate(0).ok());  // half written: the next one is asked for
  for (int i = 0; i < 200 && alloc.PreparedBytes() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(alloc.PreparedBytes(), 1 << 16);
  EXPECT_EQ(env->ListDir("/a")->size(), 2u);
  ASSERT_TRUE((*f0)->Append(std::string(1 << 15, 'c')));
  auto f1 = q.LastFileOrCreate(0);
  ASSERT_TRUE(f1.ok());
  EXPECT_EQ((*f1)->start_offset(), 1 << 16);
  EXPECT_EQ(alloc.PreparedBytes(), 0);  // taken
  alloc.Shutdown();
}

TEST(FileAllocatorTest, TakeWithoutPrepareCreatesInline) {
  auto env = env::NewMemEnv();
  ASSERT_TRUE(env->CreateDirs("/a").ok());
  FileAllocator alloc(/*warm=*/false);  // never started
  auto f = alloc.Take(env.get(), "/a/00000000000000000000", 0, 128);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->file_size(), 128);
  // A prepared request that never ran is created inline too.
  alloc.Prepare(env.get(), "/a/00000000000000000128", 128, 128);
  auto g = alloc.Take(env.get(), "/a/00000000000000000128", 128, 128);
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(env->FileExists("/a/00000000000000000128"));
}

// Waits up to 2 s for `pred`.
template <typename Pred>
bool Eventually(Pred pred) {
  for (int i = 0; i < 200; ++i) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

// Warming pre-writes the file being written a short distance ahead of the writer, woken by
// the writer's puts, and a prepared next file only its first stretch: never a whole file at
// once.
TEST(FileAllocatorTest, TheWrittenFileIsPreWrittenAShortDistanceAheadOfTheWriter) {
  constexpr int64_t kFile = 4 << 20;
  constexpr int64_t kAhead = 256 << 10;
  auto env = env::NewMemEnv();
  ASSERT_TRUE(env->CreateDirs("/a").ok());
  FileAllocator alloc(/*warm=*/true, kAhead);
  alloc.Start();
  MappedFileQueue q(env.get(), "/a", kFile, &alloc);
  ASSERT_TRUE(q.Load().ok());
  auto f0 = q.LastFileOrCreate(0);  // created inline: nothing pre-written yet
  ASSERT_TRUE(f0.ok());
  EXPECT_EQ((*f0)->warmed_position(), 0);
  ASSERT_TRUE(q.LastFileOrCreate(0).ok());  // the writer's next put: the allocator follows it
  ASSERT_TRUE(Eventually([&] { return (*f0)->warmed_position() >= kAhead; }));
  EXPECT_LT((*f0)->warmed_position(), kFile / 2);
  // The writer advances in 64 KiB puts; the pre-written end keeps ahead of it.
  while ((*f0)->wrote_position() < kFile / 2) {
    ASSERT_TRUE((*f0)->Append(std::string(64 << 10, 'r')));
    ASSERT_TRUE(q.LastFileOrCreate(0).ok());
    const int64_t wrote = (*f0)->wrote_position();
    ASSERT_TRUE(Eventually([&] { return (*f0)->warmed_position() > wrote + kAhead / 2; }))
        << "wrote " << wrote << ", pre-written " << (*f0)->warmed_position();
    EXPECT_LE((*f0)->warmed_position(), wrote + kAhead + MappedFile::kPreWriteGap);
  }
  // Past half: the next file is prepared with only its first stretch pre-written.
  ASSERT_TRUE(Eventually([&] { return alloc.PreparedBytes() == kFile; }));
  ASSERT_TRUE((*f0)->Append(std::string(kFile - (*f0)->wrote_position(), 'r')));
  auto f1 = q.LastFileOrCreate(0);
  ASSERT_TRUE(f1.ok());
  EXPECT_EQ((*f1)->start_offset(), kFile);
  EXPECT_EQ((*f1)->warmed_position(), kAhead);
  // Every record byte of the first file survived the pre-writing.
  const std::string_view all(reinterpret_cast<const char*>((*f0)->data()), kFile);
  EXPECT_EQ(all.find_first_not_of('r'), std::string_view::npos);
  alloc.Shutdown();
  alloc.DiscardPrepared();
}

// The broker's first put creates the file and writes into it before the allocator follows
// it: the pre-writer starts past the writer and keeps ahead from then on. Under ASYNC_FLUSH
// (kPageCacheOnly) as under SYNC_FLUSH.
void ExpectPreWritingCatchesUpWithAWriterAhead(MappedFile::PreWriteMode mode) {
  constexpr int64_t kFile = 8 << 20;
  constexpr int64_t kAhead = 2 << 20;
  auto env = env::NewMemEnv();
  ASSERT_TRUE(env->CreateDirs("/a").ok());
  FileAllocator alloc(/*warm=*/true, kAhead, mode);
  alloc.Start();
  MappedFileQueue q(env.get(), "/a", kFile, &alloc);
  ASSERT_TRUE(q.Load().ok());
  auto f0 = q.LastFileOrCreate(0);
  ASSERT_TRUE(f0.ok());
  ASSERT_TRUE((*f0)->Append(std::string(100 << 10, 'r')));  // the first put
  for (int put = 0; put < 64; ++put) {
    ASSERT_TRUE(q.LastFileOrCreate(0).ok());  // the next puts: the allocator follows
    ASSERT_TRUE((*f0)->Append(std::string(16 << 10, 'r')));
  }
  ASSERT_TRUE(q.LastFileOrCreate(0).ok());
  const int64_t wrote = (*f0)->wrote_position();
  ASSERT_TRUE(Eventually([&] { return (*f0)->warmed_position() >= wrote + kAhead / 2; }))
      << "wrote " << wrote << ", pre-written " << (*f0)->warmed_position();
  const std::string_view all(reinterpret_cast<const char*>((*f0)->data()),
                             static_cast<size_t>(wrote));
  EXPECT_EQ(all.find_first_not_of('r'), std::string_view::npos);
  alloc.Shutdown();
  alloc.DiscardPrepared();
}

TEST(FileAllocatorTest, PreWritingCatchesUpWithAWriterAheadOfIt) {
  ExpectPreWritingCatchesUpWithAWriterAhead(MappedFile::PreWriteMode::kSyncedPageByPage);
}

TEST(FileAllocatorTest, PageCacheOnlyPreWritingCatchesUpWithAWriterAheadOfIt) {
  ExpectPreWritingCatchesUpWithAWriterAhead(MappedFile::PreWriteMode::kPageCacheOnly);
}

// Without warming nothing is pre-written (preWriteCommitLogOnAsyncFlush=false).
TEST(FileAllocatorTest, WithoutWarmingNothingIsPreWritten) {
  auto env = env::NewMemEnv();
  ASSERT_TRUE(env->CreateDirs("/a").ok());
  FileAllocator alloc(/*warm=*/false, 64 << 10);
  alloc.Start();
  MappedFileQueue q(env.get(), "/a", 1 << 20, &alloc);
  ASSERT_TRUE(q.Load().ok());
  auto f0 = q.LastFileOrCreate(0);
  ASSERT_TRUE(f0.ok());
  ASSERT_TRUE((*f0)->Append(std::string(100, 'r')));
  ASSERT_TRUE(q.LastFileOrCreate(0).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ((*f0)->warmed_position(), 0);
  alloc.Shutdown();
}

}  // namespace
}  // namespace apogee::store
