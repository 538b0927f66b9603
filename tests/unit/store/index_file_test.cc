#include "store/index_file.h"

#include <gtest/gtest.h>

#include <climits>

#include "base/coding.h"
#include "base/java_hash.h"
#include "env/mem_env.h"

namespace apogee::store {
namespace {

constexpr int64_t kT0 = 1700000000000;

class IndexFileTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(env_->CreateDirs("/index").ok()); }
  std::shared_ptr<IndexFile> Create(int32_t slots, int32_t entries) {
    auto f = IndexFile::Create(env_.get(), "/index/f", slots, entries, 0, 0);
    EXPECT_TRUE(f.ok()) << f.status().ToString();
    return f.ok() ? *f : nullptr;
  }
  std::vector<int64_t> Select(const IndexFile& f, std::string_view key, int64_t begin = 0,
                              int64_t end = INT64_MAX, size_t max = 100) {
    std::vector<int64_t> out;
    f.SelectPhyOffsets(key, max, begin, end, &out);
    return out;
  }
  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
};

TEST_F(IndexFileTest, SizeAndNameMatchJava) {
  EXPECT_EQ(IndexFile::FileSizeFor(5000000, 20000000), 420000040);
  EXPECT_EQ(IndexFile::FileNameFor(kT0).size(), 17u);
}

TEST_F(IndexFileTest, KeyHashIsAbsJavaHash) {
  EXPECT_EQ(IndexFile::KeyHash("TagA"), 2598919);
  int32_t h = JavaStringHashCode("TopicTest#key-negative?");
  EXPECT_EQ(IndexFile::KeyHash("TopicTest#key-negative?"), h < 0 ? -h : h);
  EXPECT_GE(IndexFile::KeyHash("polygenelubricants"), 0);  // hashCode is Integer.MIN_VALUE
  EXPECT_EQ(IndexFile::KeyHash("polygenelubricants"), 0);
}

TEST_F(IndexFileTest, PutAndSelectWalksChains) {
  auto f = Create(4, 100);  // 4 slots force collisions
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(f->PutKey("T#k" + std::to_string(i % 5), 1000 + i, kT0 + i * 1000));
  }
  auto hits = Select(*f, "T#k3");
  EXPECT_EQ(hits, (std::vector<int64_t>{1018, 1013, 1008, 1003}));  // newest first
  IndexHeader h = f->header();
  EXPECT_EQ(h.index_count, 21);
  EXPECT_EQ(h.begin_phy_offset, 1000);
  EXPECT_EQ(h.end_phy_offset, 1019);
  EXPECT_EQ(h.begin_timestamp, kT0);
  EXPECT_EQ(h.end_timestamp, kT0 + 19000);
  EXPECT_LE(h.hash_slot_count, 4);
  EXPECT_TRUE(Select(*f, "T#absent").empty());
}

TEST_F(IndexFileTest, TimeRangeAndMaxNum) {
  auto f = Create(16, 100);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(f->PutKey("T#k", i, kT0 + i * 1000));
  EXPECT_EQ(Select(*f, "T#k", kT0 + 3000, kT0 + 5000), (std::vector<int64_t>{5, 4, 3}));
  EXPECT_EQ(Select(*f, "T#k", 0, INT64_MAX, 2), (std::vector<int64_t>{9, 8}));
  EXPECT_TRUE(f->IsTimeMatched(kT0 + 500, kT0 + 700));
  EXPECT_FALSE(f->IsTimeMatched(kT0 + 20000, kT0 + 30000));
}

TEST_F(IndexFileTest, FullFileRefusesAndReopens) {
  auto f = Create(8, 4);  // entries 1..3 usable
  EXPECT_TRUE(f->PutKey("T#a", 1, kT0));
  EXPECT_TRUE(f->PutKey("T#b", 2, kT0));
  EXPECT_TRUE(f->PutKey("T#c", 3, kT0));
  EXPECT_TRUE(f->IsFull());
  EXPECT_FALSE(f->PutKey("T#d", 4, kT0));
  ASSERT_TRUE(f->Flush().ok());
  f.reset();
  auto again = IndexFile::Open(env_.get(), "/index/f", 8, 4);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(Select(**again, "T#b"), (std::vector<int64_t>{2}));
  EXPECT_EQ((*again)->header().index_count, 4);
  EXPECT_FALSE(IndexFile::Open(env_.get(), "/index/f", 9, 4).ok());
}

TEST_F(IndexFileTest, OnDiskLayoutIsJavas) {
  auto f = Create(4, 8);
  ASSERT_TRUE(f->PutKey("T#x", 77, kT0));
  ASSERT_TRUE(f->PutKey("T#x", 88, kT0 + 2500));
  f.reset();
  auto bytes = env::ReadFileToString(env_.get(), "/index/f");
  ASSERT_TRUE(bytes.ok());
  const auto* p = reinterpret_cast<const uint8_t*>(bytes->data());
  EXPECT_EQ(DecodeFixed64(p), static_cast<uint64_t>(kT0));                // begin ts
  EXPECT_EQ(DecodeFixed64(p + 8), static_cast<uint64_t>(kT0 + 2500));     // end ts
  EXPECT_EQ(DecodeFixed64(p + 16), 77u);                                  // begin phy
  EXPECT_EQ(DecodeFixed64(p + 24), 88u);                                  // end phy
  EXPECT_EQ(DecodeFixed32(p + 32), 1u);                                   // slots used
  EXPECT_EQ(DecodeFixed32(p + 36), 3u);                                   // index count
  int32_t hash = IndexFile::KeyHash("T#x");
  EXPECT_EQ(DecodeFixed32(p + 40 + (hash % 4) * 4), 2u);  // slot -> newest entry
  const uint8_t* e2 = p + 40 + 4 * 4 + 2 * 20;
  EXPECT_EQ(DecodeFixed32(e2), static_cast<uint32_t>(hash));
  EXPECT_EQ(DecodeFixed64(e2 + 4), 88u);
  EXPECT_EQ(DecodeFixed32(e2 + 12), 2u);  // seconds after begin
  EXPECT_EQ(DecodeFixed32(e2 + 16), 1u);  // previous entry
}

// The used-slot counter is only a statistic, read back from the file's header: a damaged
// header (INT32_MAX there, found by store_file_fuzz) must not make the next put overflow it
// (UBSan in the ASan unit build). The put still lands and the counter stays at its ceiling.
TEST_F(IndexFileTest, DamagedUsedSlotCounterDoesNotOverflow) {
  auto f = Create(8, 16);
  ASSERT_TRUE(f->PutKey("T#a", 1, kT0));
  ASSERT_TRUE(f->Flush().ok());
  f.reset();
  auto bytes = env::ReadFileToString(env_.get(), "/index/f");
  ASSERT_TRUE(bytes.ok());
  std::string damaged = *bytes;
  EncodeFixed32(reinterpret_cast<uint8_t*>(damaged.data()) + 32, 0x7fffffffu);
  ASSERT_TRUE(env::WriteFileAtomically(env_.get(), "/index/f", damaged).ok());
  auto again = IndexFile::Open(env_.get(), "/index/f", 8, 16);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  for (int i = 0; i < 8; ++i) {  // eight keys over eight slots: some land in empty slots
    ASSERT_TRUE((*again)->PutKey("T#k" + std::to_string(i), 10 + i, kT0 + i));
  }
  EXPECT_EQ((*again)->header().hash_slot_count, INT32_MAX);
  EXPECT_EQ(Select(**again, "T#k5"), (std::vector<int64_t>{15}));
}

}  // namespace
}  // namespace apogee::store
