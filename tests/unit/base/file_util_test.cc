#include "base/file_util.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace apogee {
namespace {

class ReadWholeFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/apogee-file-util-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Write(const std::string& path, const std::string& content) {
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(content.data(), 1, content.size(), f), content.size());
    ASSERT_EQ(std::fclose(f), 0);
  }

  std::string dir_;
};

TEST_F(ReadWholeFileTest, ReadsEveryByteOfALargeFile) {
  // Larger than one read buffer, with NUL bytes inside.
  std::string content;
  for (int i = 0; i < 20000; ++i) content.push_back(static_cast<char>(i % 251));
  Write(dir_ + "/f", content);
  Result<std::string> read = ReadWholeFile(dir_ + "/f");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, content);
}

TEST_F(ReadWholeFileTest, EmptyFileIsEmpty) {
  Write(dir_ + "/empty", "");
  Result<std::string> read = ReadWholeFile(dir_ + "/empty");
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->empty());
}

TEST_F(ReadWholeFileTest, MissingFileIsNotFoundNamingThePath) {
  Result<std::string> read = ReadWholeFile(dir_ + "/nope");
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(read.status().IsNotFound());
  EXPECT_NE(read.status().message().find(dir_ + "/nope"), std::string::npos);
}

TEST_F(ReadWholeFileTest, DirectoryIsAnErrorNotContent) {
  Result<std::string> read = ReadWholeFile(dir_);
  ASSERT_FALSE(read.ok());
  EXPECT_FALSE(read.status().IsNotFound());
  EXPECT_NE(read.status().message().find(dir_), std::string::npos);
}

}  // namespace
}  // namespace apogee
