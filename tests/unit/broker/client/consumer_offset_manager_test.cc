#include "broker/client/consumer_offset_manager.h"

#include <gtest/gtest.h>

#include <chrono>

#include "broker/config_file.h"
#include "env/env.h"
#include "env/mem_env.h"
#include "testutil/test_util.h"

namespace apogee::broker {
namespace {

constexpr char kPath[] = "/store/config/consumerOffset.json";

class ConsumerOffsetManagerTest : public ::testing::Test {
 protected:
  std::string ReadFile(const std::string& path) {
    ConfigFile file(env_.get(), path);
    auto content = file.ReadFile(path);
    return content.ok() ? *content : std::string();
  }
  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
};

TEST_F(ConsumerOffsetManagerTest, CommitAndQuery) {
  ConsumerOffsetManager m(env_.get(), kPath);
  EXPECT_EQ(m.QueryOffset("g", "T", 0), -1);
  m.CommitOffset("g", "T", 0, 250);
  m.CommitOffset("g", "T", 1, 248);
  m.CommitOffset("g", "T", 0, 251);
  EXPECT_EQ(m.QueryOffset("g", "T", 0), 251);
  EXPECT_EQ(m.QueryOffset("g", "T", 1), 248);
  EXPECT_EQ(m.QueryOffset("g", "T", 2), -1);
  EXPECT_EQ(m.QueryOffset("other", "T", 0), -1);
  EXPECT_EQ(m.QueryOffsets("g", "T"), (std::map<int32_t, int64_t>{{0, 251}, {1, 248}}));
}

TEST_F(ConsumerOffsetManagerTest, PullOffsetsAreKeptApartAndNeverPersisted) {
  ConsumerOffsetManager m(env_.get(), kPath);
  EXPECT_EQ(m.QueryPullOffset("g", "T", 0), -1);
  m.CommitOffset("g", "T", 0, 10);
  m.CommitPullOffset("g", "T", 0, 32);
  m.CommitPullOffset("g", "U", 1, 5);
  m.CommitPullOffset("h", "T", 0, 7);
  EXPECT_EQ(m.QueryPullOffset("g", "T", 0), 32);
  EXPECT_EQ(m.QueryOffset("g", "T", 0), 10);  // the committed offset is untouched
  EXPECT_EQ(m.QueryOffset("g", "U", 1), -1);
  EXPECT_EQ(m.Encode().find("32"), std::string::npos) << m.Encode();
  m.RemoveTopic("U");
  EXPECT_EQ(m.QueryPullOffset("g", "U", 1), -1);
  m.RemoveGroup("g");
  EXPECT_EQ(m.QueryPullOffset("g", "T", 0), -1);
  EXPECT_EQ(m.QueryPullOffset("h", "T", 0), 7);
}

TEST_F(ConsumerOffsetManagerTest, EncodesFastjsonBareIntegerKeys) {
  ConsumerOffsetManager m(env_.get(), kPath);
  m.CommitOffset("group_a", "TopicTest", 1, 248);
  m.CommitOffset("group_a", "TopicTest", 0, 250);
  EXPECT_EQ(m.Encode(), R"({"offsetTable":{"TopicTest@group_a":{0:250,1:248}}})");
}

TEST_F(ConsumerOffsetManagerTest, DecodesBothKeyForms) {
  ConsumerOffsetManager m(env_.get(), kPath);
  ASSERT_TRUE(m.Decode(R"({"offsetTable":{"A@g1":{0:5,1:"6"},"B@g2":{"3":7}}})").ok());
  EXPECT_EQ(m.QueryOffset("g1", "A", 0), 5);
  EXPECT_EQ(m.QueryOffset("g1", "A", 1), 6);
  EXPECT_EQ(m.QueryOffset("g2", "B", 3), 7);
  // 5.x writes a dataVersion next to the table; it is ignored.
  ASSERT_TRUE(
      m.Decode(R"({"dataVersion":{"counter":1,"timestamp":2},"offsetTable":{"C@g":{0:1}}})").ok());
  EXPECT_EQ(m.QueryOffset("g", "C", 0), 1);
  EXPECT_EQ(m.QueryOffset("g1", "A", 0), -1);  // replaced, not merged
}

TEST_F(ConsumerOffsetManagerTest, DecodeErrorsNameTheEntry) {
  ConsumerOffsetManager m(env_.get(), kPath);
  Status s = m.Decode(R"({"offsetTable":{"no-separator":{0:1}}})");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no-separator"), std::string::npos);
  s = m.Decode(R"({"offsetTable":{"T@g":{"x":1}}})");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("T@g"), std::string::npos);
  s = m.Decode(R"({"offsetTable":{"T@g":{0:"many"}}})");
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(m.Decode("not json").ok());
}

TEST_F(ConsumerOffsetManagerTest, PersistAndLoadRoundTrip) {
  {
    ConsumerOffsetManager m(env_.get(), kPath);
    ASSERT_TRUE(m.Load().ok());  // fresh start
    m.CommitOffset("g", "T", 0, 10);
    m.CommitOffset("g", "%RETRY%g", 0, 3);
    ASSERT_TRUE(m.Persist().ok());
  }
  EXPECT_EQ(ReadFile(kPath), R"({"offsetTable":{"%RETRY%g@g":{0:3},"T@g":{0:10}}})");
  ConsumerOffsetManager again(env_.get(), kPath);
  ASSERT_TRUE(again.Load().ok());
  EXPECT_EQ(again.QueryOffset("g", "T", 0), 10);
  EXPECT_EQ(again.QueryOffset("g", "%RETRY%g", 0), 3);
}

TEST_F(ConsumerOffsetManagerTest, LoadFallsBackToBak) {
  {
    ConsumerOffsetManager m(env_.get(), kPath);
    m.CommitOffset("g", "T", 0, 1);
    ASSERT_TRUE(m.Persist().ok());
    m.CommitOffset("g", "T", 0, 2);
    ASSERT_TRUE(m.Persist().ok());  // .bak now holds offset 1
  }
  ASSERT_TRUE(env_->DeleteFile(kPath).ok());
  ConsumerOffsetManager again(env_.get(), kPath);
  ASSERT_TRUE(again.Load().ok());
  EXPECT_EQ(again.QueryOffset("g", "T", 0), 1);
}

TEST_F(ConsumerOffsetManagerTest, PeriodicPersistWritesChangesAndShutdownPersists) {
  Scheduler scheduler;
  ConsumerOffsetManager m(env_.get(), kPath);
  m.StartPeriodicPersist(20, &scheduler);
  m.CommitOffset("g", "T", 0, 42);
  ASSERT_TRUE(apogee::testing::WaitUntil(
      [&] { return ReadFile(kPath).find("42") != std::string::npos; }, std::chrono::seconds(5)));
  m.CommitOffset("g", "T", 0, 43);
  ASSERT_TRUE(m.Shutdown().ok());
  EXPECT_NE(ReadFile(kPath).find("43"), std::string::npos);
}

TEST_F(ConsumerOffsetManagerTest, LookupsByTopicAndGroupAndRemoval) {
  ConsumerOffsetManager m(env_.get(), kPath);
  m.CommitOffset("g1", "A", 0, 1);
  m.CommitOffset("g2", "A", 0, 1);
  m.CommitOffset("g1", "B", 0, 1);
  EXPECT_EQ(m.WhichGroupByTopic("A"), (std::set<std::string>{"g1", "g2"}));
  EXPECT_EQ(m.WhichTopicByConsumer("g1"), (std::set<std::string>{"A", "B"}));
  m.RemoveGroup("g1");
  EXPECT_EQ(m.WhichTopicByConsumer("g1"), std::set<std::string>{});
  EXPECT_EQ(m.AllOffsets().size(), 1u);
  EXPECT_EQ(m.QueryOffset("g2", "A", 0), 1);
}

TEST_F(ConsumerOffsetManagerTest, RemoveTopicDropsEveryGroupOfThatTopicOnly) {
  ConsumerOffsetManager m(env_.get(), kPath);
  m.CommitOffset("g1", "A", 0, 1);
  m.CommitOffset("g2", "A", 3, 7);
  m.CommitOffset("g1", "AB", 0, 2);
  m.CommitOffset("g1", "B", 0, 5);
  m.RemoveTopic("A");
  EXPECT_EQ(m.WhichGroupByTopic("A"), std::set<std::string>{});
  EXPECT_EQ(m.QueryOffset("g1", "A", 0), -1);
  EXPECT_EQ(m.QueryOffset("g1", "AB", 0), 2);
  EXPECT_EQ(m.QueryOffset("g1", "B", 0), 5);
  ASSERT_TRUE(m.Persist().ok());
  ConsumerOffsetManager reloaded(env_.get(), kPath);
  ASSERT_TRUE(reloaded.Load().ok());
  EXPECT_EQ(reloaded.AllOffsets().size(), 2u);
}

}  // namespace
}  // namespace apogee::broker
