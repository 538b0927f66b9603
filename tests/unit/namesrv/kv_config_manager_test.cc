#include "namesrv/kv_config_manager.h"

#include <gtest/gtest.h>

#include <fstream>

#include "env/env.h"
#include "protocol/mix_all.h"
#include "testutil/test_util.h"

namespace apogee::namesrv {
namespace {

TEST(KvConfigManagerTest, PutGetDeleteInMemory) {
  KvConfigManager kv("");
  ASSERT_TRUE(kv.Load().ok());
  EXPECT_FALSE(kv.Get("ns", "k").has_value());
  ASSERT_TRUE(kv.Put("ns", "k", "v").ok());
  ASSERT_TRUE(kv.Put("ns", "k2", "v2").ok());
  EXPECT_EQ(kv.Get("ns", "k").value(), "v");
  ASSERT_TRUE(kv.Put("ns", "k", "v3").ok());
  EXPECT_EQ(kv.Get("ns", "k").value(), "v3");
  EXPECT_EQ(kv.GetNamespace("ns")->size(), 2u);
  ASSERT_TRUE(kv.Delete("ns", "k").ok());
  ASSERT_TRUE(kv.Delete("ns", "missing").ok());
  EXPECT_FALSE(kv.Get("ns", "k").has_value());
  ASSERT_TRUE(kv.Delete("ns", "k2").ok());
  EXPECT_FALSE(kv.GetNamespace("ns").has_value());
}

TEST(KvConfigManagerTest, BoundsNamesValuesAndTheWholeTable) {
  KvConfigManager kv("");
  ASSERT_TRUE(kv.Load().ok());
  EXPECT_TRUE(kv.Put("", "k", "v").Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(
      kv.Put("ns", std::string(kMaxKvNameBytes + 1, 'k'), "v").Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(
      kv.Put("ns", "k", std::string(kMaxKvValueBytes + 1, 'v')).Is(StatusCode::kInvalidArgument));
  EXPECT_FALSE(kv.Get("ns", "k").has_value());
  ASSERT_TRUE(kv.Put("ns", "k", std::string(kMaxKvValueBytes, 'v')).ok());
  // The table as a whole: 256 values of 64 KiB fill 16 MiB; the next one is refused.
  const size_t fits = kMaxKvTableBytes / (kMaxKvValueBytes + 8) - 1;
  for (size_t i = 0; i < fits; ++i) {
    ASSERT_TRUE(kv.Put("ns", "k" + std::to_string(i), std::string(kMaxKvValueBytes, 'v')).ok())
        << i;
  }
  Status full = kv.Put("ns", "one-more", std::string(kMaxKvValueBytes, 'v'));
  EXPECT_TRUE(full.Is(StatusCode::kInvalidArgument)) << full.ToString();
  // Replacing a value counts only the difference; deleting frees its bytes.
  ASSERT_TRUE(kv.Put("ns", "k0", "small").ok());
  ASSERT_TRUE(kv.Delete("ns", "k1").ok());
  EXPECT_TRUE(kv.Put("ns", "one-more", std::string(kMaxKvValueBytes, 'v')).ok());
}

TEST(KvConfigManagerTest, PersistsInJavaShapeAndReloads) {
  testing::TempDir dir;
  std::string path = dir.Join("namesrv/kvConfig.json");
  {
    KvConfigManager kv(path);
    ASSERT_TRUE(kv.Load().ok());
    ASSERT_TRUE(kv.Put(std::string(protocol::kOrderTopicConfigNamespace), "T", "broker-a:4").ok());
    ASSERT_TRUE(kv.Put("other", "x", "y \"quoted\"").ok());
  }
  auto parsed =
      KvConfigManager::ParseJson(env::ReadFileToString(env::Env::Default(), path).value());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->at("ORDER_TOPIC_CONFIG").at("T"), "broker-a:4");
  KvConfigManager again(path);
  ASSERT_TRUE(again.Load().ok());
  EXPECT_EQ(again.Get("other", "x").value(), "y \"quoted\"");
}

TEST(KvConfigManagerTest, ReadsAFileAJavaNameServerWrote) {
  auto parsed = KvConfigManager::ParseJson(
      R"({"configTable":{"ORDER_TOPIC_CONFIG":{"TopicOrder":"broker-a:8;broker-b:8"}}})");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->at("ORDER_TOPIC_CONFIG").at("TopicOrder"), "broker-a:8;broker-b:8");
  EXPECT_TRUE(KvConfigManager::ParseJson("{}").ok());
}

TEST(KvConfigManagerTest, RejectsWrongShapes) {
  EXPECT_TRUE(KvConfigManager::ParseJson("{").status().IsCorruption());
  EXPECT_TRUE(KvConfigManager::ParseJson("[]").status().IsCorruption());
  EXPECT_TRUE(KvConfigManager::ParseJson(R"({"configTable":[]})").status().IsCorruption());
  EXPECT_TRUE(KvConfigManager::ParseJson(R"({"configTable":{"ns":1}})").status().IsCorruption());
  auto bad = KvConfigManager::ParseJson(R"({"configTable":{"ns":{"k":2}}})");
  ASSERT_TRUE(bad.status().IsCorruption());
  EXPECT_NE(bad.status().message().find("'k'"), std::string::npos);
}

TEST(KvConfigManagerTest, FallsBackToBackupWhenMainFileIsCorrupt) {
  testing::TempDir dir;
  std::string path = dir.Join("kvConfig.json");
  {
    KvConfigManager kv(path);
    ASSERT_TRUE(kv.Put("ns", "k", "old").ok());
    ASSERT_TRUE(kv.Put("ns", "k", "new").ok());  // "old" is now in the .bak
  }
  std::ofstream(path, std::ios::trunc) << "{\"configTable\":{\"ns\":";  // torn write
  KvConfigManager kv(path);
  ASSERT_TRUE(kv.Load().ok());
  EXPECT_EQ(kv.Get("ns", "k").value(), "old");
}

TEST(KvConfigManagerTest, BothFilesCorruptIsAnError) {
  testing::TempDir dir;
  std::string path = dir.Join("kvConfig.json");
  std::ofstream(path) << "garbage";
  std::ofstream(path + ".bak") << "more garbage";
  KvConfigManager kv(path);
  Status s = kv.Load();
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find(path), std::string::npos) << s.ToString();
}

TEST(KvConfigManagerTest, MissingFileStartsEmpty) {
  testing::TempDir dir;
  KvConfigManager kv(dir.Join("absent.json"));
  ASSERT_TRUE(kv.Load().ok());
  EXPECT_TRUE(kv.Snapshot().empty());
}

TEST(KvConfigManagerTest, PersistFailureIsReportedButValueKept) {
  testing::TempDir dir;
  std::string blocker = dir.Join("file");
  std::ofstream(blocker) << "x";
  KvConfigManager kv(blocker + "/kvConfig.json");
  Status s = kv.Put("ns", "k", "v");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(kv.Get("ns", "k").value(), "v");
}

}  // namespace
}  // namespace apogee::namesrv
