#include "broker/topic_config_manager.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "broker/broker_config.h"
#include "env/env.h"
#include "env/mem_env.h"

namespace apogee::broker {
namespace {

using protocol::kPermInherit;
using protocol::kPermRead;
using protocol::kPermWrite;
using protocol::TopicConfig;

constexpr char kPath[] = "/store/config/topics.json";

BrokerSettings Settings() {
  BrokerSettings s;
  s.broker_name = "broker-a";
  s.broker_cluster_name = "DefaultCluster";
  s.broker_ip1 = "127.0.0.1";
  return s;
}

class TopicConfigManagerTest : public ::testing::Test {
 protected:
  std::unique_ptr<TopicConfigManager> NewManager() {
    auto m = std::make_unique<TopicConfigManager>(config_.get(), env_.get(), kPath, &clock_);
    m->SetChangeListener([this] { ++changes_; });
    return m;
  }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  std::unique_ptr<BrokerConfig> config_ = std::make_unique<BrokerConfig>(Settings());
  ManualClock clock_{1700000000000};
  std::atomic<int> changes_{0};
};

TEST(TopicNameTest, Validation) {
  EXPECT_TRUE(ValidateTopicName("TopicTest").ok());
  EXPECT_TRUE(ValidateTopicName("%RETRY%group_a|x-1").ok());
  EXPECT_FALSE(ValidateTopicName("").ok());
  EXPECT_FALSE(ValidateTopicName(std::string(128, 'a')).ok());
  EXPECT_TRUE(ValidateTopicName(std::string(127, 'a')).ok());
  Status bad = ValidateTopicName("a b");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("'a b'"), std::string::npos);
  EXPECT_FALSE(ValidateTopicName("TBW102").ok());
}

TEST_F(TopicConfigManagerTest, SystemTopicsAsJava) {
  auto m = NewManager();
  auto tbw = m->SelectTopicConfig("TBW102");
  ASSERT_TRUE(tbw);
  EXPECT_EQ(tbw->perm, kPermInherit | kPermRead | kPermWrite);
  EXPECT_EQ(tbw->write_queue_nums, 8);
  EXPECT_EQ(m->SelectTopicConfig("BenchmarkTest")->read_queue_nums, 1024);
  EXPECT_EQ(m->SelectTopicConfig("SCHEDULE_TOPIC_XXXX")->read_queue_nums, 18);
  EXPECT_EQ(m->SelectTopicConfig("DefaultCluster")->perm, kPermInherit | kPermRead | kPermWrite);
  EXPECT_EQ(m->SelectTopicConfig("broker-a")->write_queue_nums, 1);
  EXPECT_TRUE(m->ContainsTopic("DefaultCluster_REPLY_TOPIC"));
  EXPECT_TRUE(m->ContainsTopic("SELF_TEST_TOPIC"));
  EXPECT_TRUE(m->ContainsTopic("OFFSET_MOVED_EVENT"));
  EXPECT_TRUE(m->ContainsTopic("RMQ_SYS_TRANS_HALF_TOPIC"));
  EXPECT_FALSE(m->ContainsTopic("RMQ_SYS_TRACE_TOPIC"));
  EXPECT_TRUE(m->IsSystemTopic("SCHEDULE_TOPIC_XXXX"));
  EXPECT_TRUE(m->IsSystemTopic("broker-a"));
  EXPECT_FALSE(m->IsSystemTopic("TopicTest"));
}

TEST_F(TopicConfigManagerTest, NoTbw102WhenAutoCreateDisabled) {
  ASSERT_TRUE(config_
                  ->ApplyProperties({{"autoCreateTopicEnable", "false"},
                                     {"clusterTopicEnable", "false"},
                                     {"traceTopicEnable", "true"}})
                  .ok());
  auto m = NewManager();
  EXPECT_FALSE(m->ContainsTopic("TBW102"));
  EXPECT_EQ(m->SelectTopicConfig("DefaultCluster")->perm, kPermInherit);
  EXPECT_TRUE(m->ContainsTopic("RMQ_SYS_TRACE_TOPIC"));
}

TEST_F(TopicConfigManagerTest, AutoCreateThroughTbw102) {
  auto m = NewManager();
  auto v0 = m->data_version();
  auto created = m->CreateTopicInSendMessageMethod("NewTopic", "TBW102", "1.2.3.4:5", 4, 0);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(created->read_queue_nums, 4);
  EXPECT_EQ(created->write_queue_nums, 4);
  EXPECT_EQ(created->perm, kPermRead | kPermWrite);  // INHERIT dropped
  EXPECT_EQ(changes_.load(), 1);
  EXPECT_EQ(m->data_version().counter, v0.counter + 1);
  EXPECT_EQ(m->data_version().timestamp, 1700000000000);
  EXPECT_TRUE(env_->FileExists(kPath));

  // Client asks for more queues than TBW102 has: capped at 8.
  auto big = m->CreateTopicInSendMessageMethod("BigTopic", "TBW102", "", 64, 0);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->write_queue_nums, 8);

  // Existing topic: returned unchanged, no new version.
  auto again = m->CreateTopicInSendMessageMethod("NewTopic", "TBW102", "", 16, 0);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->write_queue_nums, 4);
  EXPECT_EQ(changes_.load(), 2);
}

TEST_F(TopicConfigManagerTest, AutoCreateRefusedWithReasons) {
  auto m = NewManager();
  auto missing = m->CreateTopicInSendMessageMethod("X", "NoSuchDefault", "", 4, 0);
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsNotFound());
  EXPECT_NE(missing.status().message().find("NoSuchDefault"), std::string::npos);

  // A default topic without INHERIT cannot lend its config.
  auto not_inherit = m->CreateTopicInSendMessageMethod("X", "SELF_TEST_TOPIC", "", 4, 0);
  ASSERT_FALSE(not_inherit.ok());
  EXPECT_TRUE(not_inherit.status().Is(StatusCode::kPermissionDenied));

  // TBW102 persisted earlier but autoCreateTopicEnable switched off at run time.
  ASSERT_TRUE(config_->UpdateAtRuntime({{"autoCreateTopicEnable", "false"}}).ok());
  auto off = m->CreateTopicInSendMessageMethod("X", "TBW102", "", 4, 0);
  ASSERT_FALSE(off.ok());
  EXPECT_NE(off.status().message().find("autoCreateTopicEnable"), std::string::npos);
  EXPECT_FALSE(m->ContainsTopic("X"));
  EXPECT_EQ(changes_.load(), 0);

  // An illegal name is not created even when allowed.
  ASSERT_TRUE(config_->UpdateAtRuntime({{"autoCreateTopicEnable", "true"}}).ok());
  EXPECT_FALSE(m->CreateTopicInSendMessageMethod("bad topic", "TBW102", "", 4, 0).ok());
}

TEST_F(TopicConfigManagerTest, SendBackCreatesRetryTopic) {
  auto m = NewManager();
  auto retry =
      m->CreateTopicInSendMessageBackMethod("%RETRY%group_a", 1, kPermRead | kPermWrite, false, 0);
  ASSERT_TRUE(retry.ok());
  EXPECT_EQ(retry->read_queue_nums, 1);
  EXPECT_EQ(retry->perm, 6);
  EXPECT_EQ(changes_.load(), 1);
  // Again: no change.
  ASSERT_TRUE(m->CreateTopicInSendMessageBackMethod("%RETRY%group_a", 3, 6, false, 0).ok());
  EXPECT_EQ(changes_.load(), 1);
  EXPECT_EQ(m->SelectTopicConfig("%RETRY%group_a")->read_queue_nums, 1);
  // Order flag flips are stored.
  auto ordered = m->CreateTopicInSendMessageBackMethod("%RETRY%group_a", 1, 6, true, 0);
  ASSERT_TRUE(ordered.ok());
  EXPECT_TRUE(ordered->order);
  EXPECT_TRUE(m->IsOrderTopic("%RETRY%group_a"));
}

TEST_F(TopicConfigManagerTest, UpdateValidatesAndSkipsIdenticalConfig) {
  auto m = NewManager();
  TopicConfig c;
  c.topic_name = "Orders";
  c.read_queue_nums = 4;
  c.write_queue_nums = 4;
  bool changed = false;
  ASSERT_TRUE(m->UpdateTopicConfig(c, &changed).ok());
  EXPECT_TRUE(changed);
  auto v1 = m->data_version();
  ASSERT_TRUE(m->UpdateTopicConfig(c, &changed).ok());
  EXPECT_FALSE(changed);
  EXPECT_EQ(m->data_version(), v1);
  c.perm = kPermRead;
  ASSERT_TRUE(m->UpdateTopicConfig(c, &changed).ok());
  EXPECT_TRUE(changed);
  EXPECT_EQ(m->SelectTopicConfig("Orders")->perm, kPermRead);
  EXPECT_EQ(changes_.load(), 2);

  TopicConfig bad = c;
  bad.topic_name = "bad/name";
  EXPECT_FALSE(m->UpdateTopicConfig(bad).ok());
  bad = c;
  bad.perm = 99;
  EXPECT_FALSE(m->UpdateTopicConfig(bad).ok());
  bad = c;
  bad.write_queue_nums = -1;
  EXPECT_FALSE(m->UpdateTopicConfig(bad).ok());
  bad = c;
  bad.topic_filter_type = "WHATEVER";
  EXPECT_FALSE(m->UpdateTopicConfig(bad).ok());
}

TEST_F(TopicConfigManagerTest, DeleteTopic) {
  auto m = NewManager();
  TopicConfig c;
  c.topic_name = "Gone";
  ASSERT_TRUE(m->UpdateTopicConfig(c).ok());
  ASSERT_TRUE(m->DeleteTopicConfig("Gone").ok());
  EXPECT_FALSE(m->ContainsTopic("Gone"));
  Status again = m->DeleteTopicConfig("Gone");
  EXPECT_TRUE(again.IsNotFound());
  EXPECT_NE(again.message().find("Gone"), std::string::npos);
}

TEST_F(TopicConfigManagerTest, PersistAndReloadKeepsTopicsAndVersion) {
  {
    auto m = NewManager();
    TopicConfig c;
    c.topic_name = "Persisted";
    c.read_queue_nums = 3;
    c.write_queue_nums = 5;
    c.order = true;
    c.topic_sys_flag = 1;
    ASSERT_TRUE(m->UpdateTopicConfig(c).ok());
    ASSERT_TRUE(m->CreateTopicInSendMessageBackMethod("%DLQ%g", 1, kPermWrite, false, 0).ok());
  }
  auto reloaded = NewManager();
  ASSERT_TRUE(reloaded->Load().ok());
  auto c = reloaded->SelectTopicConfig("Persisted");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->read_queue_nums, 3);
  EXPECT_EQ(c->write_queue_nums, 5);
  EXPECT_TRUE(c->order);
  EXPECT_EQ(c->topic_sys_flag, 1);
  EXPECT_EQ(reloaded->SelectTopicConfig("%DLQ%g")->perm, kPermWrite);
  EXPECT_EQ(reloaded->data_version().counter, 2);
  EXPECT_TRUE(reloaded->ContainsTopic("TBW102"));
}

TEST_F(TopicConfigManagerTest, LoadReadsJavaWrittenTopicsJson) {
  // topics.json as a Java 4.9 broker writes it (fastjson, no attributes).
  const std::string java =
      R"({"dataVersion":{"counter":7,"timestamp":1690000000000},"topicConfigTable":{)"
      R"("TopicTest":{"order":false,"perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG",)"
      R"("topicName":"TopicTest","topicSysFlag":0,"writeQueueNums":4}}})";
  ASSERT_TRUE(env_->CreateDirs("/store/config").ok());
  auto file = env_->OpenFile(kPath, env::OpenMode::kCreateIfMissing);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Write(0, java).ok());
  ASSERT_TRUE((*file)->Close().ok());
  auto m = NewManager();
  ASSERT_TRUE(m->Load().ok());
  EXPECT_EQ(m->SelectTopicConfig("TopicTest")->write_queue_nums, 4);
  EXPECT_EQ(m->data_version().counter, 7);
  EXPECT_EQ(m->data_version().timestamp, 1690000000000);
  std::string encoded = m->Encode();
  EXPECT_NE(encoded.find("\"topicConfigTable\""), std::string::npos);
  EXPECT_NE(encoded.find("\"TopicTest\""), std::string::npos);
}

TEST_F(TopicConfigManagerTest, CorruptFileWithoutBackupFailsLoad) {
  ASSERT_TRUE(env_->CreateDirs("/store/config").ok());
  auto file = env_->OpenFile(kPath, env::OpenMode::kCreateIfMissing);
  ASSERT_TRUE((*file)->Write(0, "{not json").ok());
  ASSERT_TRUE((*file)->Close().ok());
  auto m = NewManager();
  Status s = m->Load();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("topics.json"), std::string::npos) << s.ToString();
}

TEST_F(TopicConfigManagerTest, OrderTopicsFromNameServer) {
  auto m = NewManager();
  TopicConfig a;
  a.topic_name = "A";
  TopicConfig b;
  b.topic_name = "B";
  b.order = true;
  ASSERT_TRUE(m->UpdateTopicConfig(a).ok());
  ASSERT_TRUE(m->UpdateTopicConfig(b).ok());
  int before = changes_.load();
  protocol::KVTable kv;
  kv.table["A"] = "broker-a:4";
  m->UpdateOrderTopicConfig(kv);
  EXPECT_TRUE(m->IsOrderTopic("A"));
  EXPECT_FALSE(m->IsOrderTopic("B"));
  EXPECT_EQ(changes_.load(), before);  // persisted, not re-registered
  // An empty answer changes nothing.
  m->UpdateOrderTopicConfig(protocol::KVTable{});
  EXPECT_TRUE(m->IsOrderTopic("A"));
}

TEST_F(TopicConfigManagerTest, SerializeWrapperCarriesVersion) {
  auto m = NewManager();
  TopicConfig c;
  c.topic_name = "W";
  ASSERT_TRUE(m->UpdateTopicConfig(c).ok());
  auto wrapper = m->BuildSerializeWrapper();
  EXPECT_EQ(wrapper.data_version, m->data_version());
  EXPECT_EQ(wrapper.topic_config_table.count("W"), 1u);
  EXPECT_EQ(wrapper.topic_config_table.size(), m->TopicNames().size());
}

TEST_F(TopicConfigManagerTest, ConcurrentAutoCreateMakesOneTopic) {
  auto m = NewManager();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      if (m->CreateTopicInSendMessageMethod("Race", "TBW102", "", 4, 0).ok()) ++ok;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(changes_.load(), 1);
}

}  // namespace
}  // namespace apogee::broker
