#include "client/offset_store_local.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "testutil/test_util.h"

namespace apogee::client {
namespace {

const protocol::MessageQueue kA{"T", "broker-a", 0};
const protocol::MessageQueue kB{"T", "broker-a", 1};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void Spit(const std::string& path, const std::string& content) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << content;
}

TEST(LocalFileOffsetStoreTest, PathIsJavas) {
  LocalFileOffsetStore store("/x", "10.0.0.1@123", "G");
  EXPECT_EQ(store.path(), "/x/10.0.0.1@123/G/offsets.json");
  EXPECT_NE(DefaultLocalOffsetStoreDir().find("/.rocketmq_offsets"), std::string::npos);
}

TEST(LocalFileOffsetStoreTest, PersistThenLoadInANewStore) {
  testing::TempDir dir;
  {
    LocalFileOffsetStore store(dir.path(), "cid", "G");
    ASSERT_TRUE(store.Load().ok());  // no file yet
    store.UpdateOffset(kA, 11, false);
    store.UpdateOffset(kB, 22, false);
    store.PersistAll({kA, kB});
  }
  const std::string json = Slurp(dir.path() + "/cid/G/offsets.json");
  // fastjson's object-key form, as Java's OffsetSerializeWrapper is written.
  EXPECT_NE(json.find(R"({"brokerName":"broker-a","queueId":0,"topic":"T"}:11)"), std::string::npos)
      << json;
  LocalFileOffsetStore again(dir.path(), "cid", "G");
  ASSERT_TRUE(again.Load().ok());
  EXPECT_EQ(again.ReadOffset(kA, ReadOffsetType::kReadFromMemory), 11);
  EXPECT_EQ(again.ReadOffset(kB, ReadOffsetType::kReadFromMemory), 22);
}

TEST(LocalFileOffsetStoreTest, SecondWriteKeepsThePreviousAsBak) {
  testing::TempDir dir;
  LocalFileOffsetStore store(dir.path(), "cid", "G");
  store.UpdateOffset(kA, 1, false);
  store.PersistAll({kA});
  store.UpdateOffset(kA, 2, false);
  store.PersistAll({kA});
  const std::string path = store.path();
  EXPECT_NE(Slurp(path).find(":2}"), std::string::npos);
  EXPECT_NE(Slurp(path + ".bak").find(":1}"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(LocalFileOffsetStoreTest, CorruptFileFallsBackToBak) {
  testing::TempDir dir;
  LocalFileOffsetStore store(dir.path(), "cid", "G");
  Spit(store.path(), "{not json");
  Spit(store.path() + ".bak",
       R"({"offsetTable":{{"brokerName":"broker-a","queueId":1,"topic":"T"}:5}})");
  ASSERT_TRUE(store.Load().ok());
  EXPECT_EQ(store.ReadOffset(kB, ReadOffsetType::kReadFromMemory), 5);
}

TEST(LocalFileOffsetStoreTest, CorruptFileWithoutBakIsAnErrorNamingTheFile) {
  testing::TempDir dir;
  LocalFileOffsetStore store(dir.path(), "cid", "G");
  Spit(store.path(), "{not json");
  Status s = store.Load();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("offsets.json"), std::string::npos) << s.ToString();
}

TEST(LocalFileOffsetStoreTest, ReadsJavaWrittenPrettyFile) {
  testing::TempDir dir;
  LocalFileOffsetStore store(dir.path(), "cid", "G");
  // What Java's toJson(true) produces (pretty, object keys).
  Spit(store.path(),
       "{\n\t\"offsetTable\":{{\n\t\t\t\"brokerName\":\"broker-a\",\n\t\t\t\"queueId\":0,\n"
       "\t\t\t\"topic\":\"T\"\n\t\t}:17\n\t}\n}");
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kReadFromStore), 17);
  EXPECT_EQ(store.ReadOffset(kB, ReadOffsetType::kReadFromStore), kOffsetNotFound);
}

TEST(LocalFileOffsetStoreTest, PersistAllWritesOnlyTheGivenQueues) {
  testing::TempDir dir;
  LocalFileOffsetStore store(dir.path(), "cid", "G");
  store.UpdateOffset(kA, 1, false);
  store.UpdateOffset(kB, 2, false);
  store.PersistAll({kB});
  auto file = store.ReadFile();
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->size(), 1u);
  EXPECT_EQ(file->at(kB), 2);
  store.Persist(kA);  // the whole table
  EXPECT_EQ(store.ReadFile()->size(), 2u);
  ASSERT_TRUE(store.UpdateConsumeOffsetToBroker(kA, 9, true).ok());
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kReadFromMemory), 9);
  store.RemoveOffset(kA);
  EXPECT_EQ(store.CloneOffsetTable("T").size(), 1u);
}

}  // namespace
}  // namespace apogee::client
