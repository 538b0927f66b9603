#include "store/mapped_file.h"

#include <gtest/gtest.h>

#include "env/mem_env.h"

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

}  // namespace
}  // namespace apogee::store
