#include "namesrv/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "testutil/test_util.h"

namespace apogee::namesrv {
namespace {

TEST(AtomicFileTest, WritesCreatesDirectoriesAndKeepsBackup) {
  testing::TempDir dir;
  std::string path = dir.Join("a/b/kvConfig.json");
  ASSERT_TRUE(WriteFileAtomically(path, "one").ok());
  EXPECT_EQ(ReadWholeFile(path).value(), "one");
  EXPECT_FALSE(std::filesystem::exists(path + ".bak"));
  ASSERT_TRUE(WriteFileAtomically(path, "two").ok());
  EXPECT_EQ(ReadWholeFile(path).value(), "two");
  EXPECT_EQ(ReadWholeFile(path + ".bak").value(), "one");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(AtomicFileTest, MissingFileIsNotFound) {
  testing::TempDir dir;
  auto r = ReadWholeFile(dir.Join("nope"));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotFound());
}

TEST(AtomicFileTest, UnwritableDirectoryIsAnError) {
  testing::TempDir dir;
  std::string blocker = dir.Join("file");
  ASSERT_TRUE(WriteFileAtomically(blocker, "x").ok());
  Status s = WriteFileAtomically(blocker + "/child.json", "y");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(blocker), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace apogee::namesrv
