#include "broker/config_file.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "env/env.h"
#include "env/fault_injection_env.h"
#include "env/mem_env.h"

namespace apogee::broker {
namespace {

class ConfigFileTest : public ::testing::Test {
 protected:
  void Write(const std::string& path, const std::string& content) {
    auto file = env_->OpenFile(path, env::OpenMode::kCreateIfMissing);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Truncate(0).ok());
    ASSERT_TRUE((*file)->Write(0, content).ok());
    ASSERT_TRUE((*file)->Close().ok());
  }

  // Accepts content that starts with '{' and records what it accepted.
  ConfigFile::Decoder Accepting(std::string* seen) {
    return [seen](std::string_view content) -> Status {
      if (content.empty() || content[0] != '{')
        return Status::Corruption("not JSON: " + std::string(content));
      *seen = std::string(content);
      return Status::OK();
    };
  }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  std::string dir_ = "/store/config";
  std::string path_ = "/store/config/topics.json";
};

TEST_F(ConfigFileTest, PersistCreatesDirectoryAndFile) {
  ConfigFile file(env_.get(), path_);
  ASSERT_TRUE(file.Persist("{\"a\":1}").ok());
  auto content = file.ReadFile(path_);
  ASSERT_TRUE(content.ok());
  EXPECT_EQ(*content, "{\"a\":1}");
  EXPECT_FALSE(env_->FileExists(file.bak_path()));
  EXPECT_FALSE(env_->FileExists(file.tmp_path()));
}

TEST_F(ConfigFileTest, SecondPersistKeepsPreviousContentAsBak) {
  ConfigFile file(env_.get(), path_);
  ASSERT_TRUE(file.Persist("{\"v\":1}").ok());
  ASSERT_TRUE(file.Persist("{\"v\":2,\"longer\":true}").ok());
  EXPECT_EQ(*file.ReadFile(path_), "{\"v\":2,\"longer\":true}");
  EXPECT_EQ(*file.ReadFile(file.bak_path()), "{\"v\":1}");
  // A shorter version replaces a longer one completely (no stale tail).
  ASSERT_TRUE(file.Persist("{}").ok());
  EXPECT_EQ(*file.ReadFile(path_), "{}");
}

TEST_F(ConfigFileTest, LoadWithNeitherFileIsFreshStart) {
  ConfigFile file(env_.get(), path_);
  std::string seen;
  auto loaded = file.Load(Accepting(&seen));
  ASSERT_TRUE(loaded.ok());
  EXPECT_FALSE(*loaded);
  EXPECT_TRUE(seen.empty());
}

TEST_F(ConfigFileTest, LoadReadsMainFile) {
  ConfigFile file(env_.get(), path_);
  ASSERT_TRUE(file.Persist("{\"v\":1}").ok());
  ASSERT_TRUE(file.Persist("{\"v\":2}").ok());
  std::string seen;
  auto loaded = file.Load(Accepting(&seen));
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(*loaded);
  EXPECT_EQ(seen, "{\"v\":2}");
}

TEST_F(ConfigFileTest, LoadFallsBackToBakWhenMainIsCorrupt) {
  ConfigFile file(env_.get(), path_);
  ASSERT_TRUE(file.Persist("{\"v\":1}").ok());
  ASSERT_TRUE(file.Persist("{\"v\":2}").ok());
  Write(path_, "garbage");
  std::string seen;
  auto loaded = file.Load(Accepting(&seen));
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(seen, "{\"v\":1}");
}

TEST_F(ConfigFileTest, LoadFallsBackToBakWhenMainIsMissingOrEmpty) {
  ConfigFile file(env_.get(), path_);
  ASSERT_TRUE(env_->CreateDirs(dir_).ok());
  Write(file.bak_path(), "{\"from\":\"bak\"}");
  std::string seen;
  ASSERT_TRUE(file.Load(Accepting(&seen)).ok());
  EXPECT_EQ(seen, "{\"from\":\"bak\"}");

  Write(path_, "");
  seen.clear();
  ASSERT_TRUE(file.Load(Accepting(&seen)).ok());
  EXPECT_EQ(seen, "{\"from\":\"bak\"}");
}

TEST_F(ConfigFileTest, EmptyMainWithoutBakIsFreshStart) {
  ConfigFile file(env_.get(), path_);
  ASSERT_TRUE(env_->CreateDirs(dir_).ok());
  Write(path_, "");
  std::string seen;
  auto loaded = file.Load(Accepting(&seen));
  ASSERT_TRUE(loaded.ok());
  EXPECT_FALSE(*loaded);
}

TEST_F(ConfigFileTest, CorruptMainWithoutBakIsCorruptionNamingTheFile) {
  ConfigFile file(env_.get(), path_);
  ASSERT_TRUE(env_->CreateDirs(dir_).ok());
  Write(path_, "garbage");
  std::string seen;
  auto loaded = file.Load(Accepting(&seen));
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(loaded.status().IsCorruption());
  EXPECT_NE(loaded.status().message().find("topics.json.bak"), std::string::npos)
      << loaded.status().ToString();
}

TEST_F(ConfigFileTest, BothCorruptNamesBothFiles) {
  ConfigFile file(env_.get(), path_);
  ASSERT_TRUE(env_->CreateDirs(dir_).ok());
  Write(path_, "garbage1");
  Write(file.bak_path(), "garbage2");
  std::string seen;
  auto loaded = file.Load(Accepting(&seen));
  ASSERT_FALSE(loaded.ok());
  const std::string& msg = loaded.status().message();
  EXPECT_NE(msg.find(path_), std::string::npos) << msg;
  EXPECT_NE(msg.find(file.bak_path()), std::string::npos) << msg;
}

TEST_F(ConfigFileTest, CrashBetweenRenamesLeavesBakToLoad) {
  // The state a crash between Persist's two renames leaves: v2 moved to .bak, v3 still
  // in .tmp, no main file. Load must find the newest complete version.
  ConfigFile file(env_.get(), path_);
  ASSERT_TRUE(file.Persist("{\"v\":1}").ok());
  ASSERT_TRUE(file.Persist("{\"v\":2}").ok());
  ASSERT_TRUE(env_->RenameFile(path_, file.bak_path()).ok());
  Write(file.tmp_path(), "{\"v\":3");
  std::string seen;
  auto loaded = file.Load(Accepting(&seen));
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(seen, "{\"v\":2}");
  // The next Persist cleans up: the stale .tmp is overwritten.
  ASSERT_TRUE(file.Persist("{\"v\":4}").ok());
  EXPECT_EQ(*file.ReadFile(path_), "{\"v\":4}");
}

TEST_F(ConfigFileTest, PersistReportsWriteFailureAndKeepsOldFile) {
  env::FaultInjectionEnv faulty(env_.get());
  ConfigFile file(&faulty, path_);
  ASSERT_TRUE(file.Persist("{\"v\":1}").ok());
  faulty.FailNext(env::FaultPoint::kSync, 1);
  Status s = file.Persist("{\"v\":2}");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("topics.json"), std::string::npos) << s.ToString();
  EXPECT_EQ(*file.ReadFile(path_), "{\"v\":1}");
  EXPECT_FALSE(faulty.FileExists(file.tmp_path()));
}

}  // namespace
}  // namespace apogee::broker
