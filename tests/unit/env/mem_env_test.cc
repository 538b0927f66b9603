// MemEnv behaviour beyond the shared contract in env_test.cc.
#include "env/mem_env.h"

#include <gtest/gtest.h>

#include <cstring>

namespace apogee::env {
namespace {

TEST(MemEnvTest, PathsAreNormalised) {
  std::unique_ptr<Env> env = NewMemEnv();
  ASSERT_TRUE(env->CreateDirs("/a//b/").ok());
  EXPECT_TRUE(env->IsDirectory("/a/b"));
  auto file = env->OpenFile("/a//b/f", OpenMode::kCreateNew);
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(env->FileExists("/a/b/f"));
  EXPECT_EQ(*env->ListDir("/a/b/"), std::vector<std::string>{"f"});
}

TEST(MemEnvTest, MappedFileCannotGrowPastItsBlock) {
  std::unique_ptr<Env> env = NewMemEnv();
  ASSERT_TRUE(env->CreateDirs("/d").ok());
  auto file = env->OpenFile("/d/f", OpenMode::kCreateNew);
  ASSERT_TRUE((*file)->Allocate(1024).ok());
  {
    auto region = (*file)->Map();
    ASSERT_TRUE(region.ok());
    Status grow = (*file)->Allocate(1 << 20);
    EXPECT_TRUE(grow.Is(StatusCode::kNotSupported)) << grow.ToString();
    EXPECT_NE(grow.message().find("/d/f"), std::string::npos);
    // Writing inside the block is fine while mapped.
    EXPECT_TRUE((*file)->Write(1000, "abc").ok());
    EXPECT_EQ(std::memcmp((*region)->data() + 1000, "abc", 3), 0);
  }
  EXPECT_TRUE((*file)->Allocate(1 << 20).ok());  // unmapped again
}

TEST(MemEnvTest, DeletedFileLivesOnForItsMapping) {
  std::unique_ptr<Env> env = NewMemEnv();
  auto file = env->OpenFile("f", OpenMode::kCreateNew);  // relative: parent "." exists
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE((*file)->Write(0, "still here").ok());
  auto region = (*file)->Map();
  ASSERT_TRUE(region.ok());
  ASSERT_TRUE(env->DeleteFile("f").ok());
  EXPECT_FALSE(env->FileExists("f"));
  EXPECT_EQ(std::string(reinterpret_cast<char*>((*region)->data()), (*region)->size()),
            "still here");
}

TEST(MemEnvTest, DiskSpaceCountsFileBytes) {
  std::unique_ptr<Env> env = NewMemEnv(10000);
  ASSERT_TRUE(env->CreateDirs("/d").ok());
  auto file = env->OpenFile("/d/f", OpenMode::kCreateNew);
  ASSERT_TRUE((*file)->Allocate(2500).ok());
  auto space = env->GetDiskSpace("/d");
  ASSERT_TRUE(space.ok());
  EXPECT_EQ(space->total_bytes, 10000u);
  EXPECT_EQ(space->free_bytes, 7500u);
}

}  // namespace
}  // namespace apogee::env
