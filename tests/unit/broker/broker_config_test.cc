#include "broker/broker_config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "testutil/test_util.h"
#include "testutil/test_paths.h"

namespace apogee::broker {
namespace {

BrokerSettings Base() {
  BrokerSettings s;
  s.broker_name = "broker-a";
  s.broker_ip1 = "127.0.0.1";
  s.broker_ip2 = "127.0.0.1";
  return s;
}

TEST(BrokerConfigTest, DefaultsAreJavas) {
  BrokerConfig config;
  auto s = config.Get();
  EXPECT_EQ(s->broker_cluster_name, "DefaultCluster");
  EXPECT_EQ(s->broker_id, 0);
  EXPECT_EQ(s->broker_permission, 6);
  EXPECT_EQ(s->listen_port, 10911);
  EXPECT_EQ(s->EffectiveHaListenPort(), 10912);
  EXPECT_EQ(s->default_topic_queue_nums, 8);
  EXPECT_TRUE(s->auto_create_topic_enable);
  EXPECT_TRUE(s->auto_create_subscription_group);
  EXPECT_EQ(s->register_name_server_period, 30000);
  EXPECT_EQ(s->register_broker_timeout_mills, 6000);
  EXPECT_FALSE(s->compressed_register);
  EXPECT_EQ(s->store.delete_when, "04");
  EXPECT_EQ(s->store.file_reserved_time, 72);
  EXPECT_EQ(s->store.broker_role, "ASYNC_MASTER");
  EXPECT_EQ(s->store.flush_disk_type, "ASYNC_FLUSH");
  EXPECT_FALSE(s->broker_name.empty());
  EXPECT_FALSE(s->broker_ip1.empty());
  EXPECT_EQ(s->broker_ip2, s->broker_ip1);
}

TEST(BrokerConfigTest, AppliesJavaKeysIncludingStoreKeys) {
  BrokerConfig config(Base());
  std::vector<std::string> unknown;
  ASSERT_TRUE(config
                  .ApplyProperties({{"brokerClusterName", "ClusterX"},
                                    {"brokerName", "broker-b"},
                                    {"brokerId", "0"},
                                    {"brokerRole", "SYNC_MASTER"},
                                    {"flushDiskType", "SYNC_FLUSH"},
                                    {"namesrvAddr", "10.0.0.1:9876;10.0.0.2:9876"},
                                    {"listenPort", "20911"},
                                    {"storePathRootDir", "/data/store"},
                                    {"deleteWhen", "03"},
                                    {"fileReservedTime", "48"},
                                    {"autoCreateTopicEnable", "false"},
                                    {"brokerIP1", "10.1.1.1"}},
                                   &unknown)
                  .ok());
  EXPECT_TRUE(unknown.empty());
  auto s = config.Get();
  EXPECT_EQ(s->broker_cluster_name, "ClusterX");
  EXPECT_EQ(s->broker_name, "broker-b");
  EXPECT_EQ(s->store.broker_role, "SYNC_MASTER");
  EXPECT_EQ(s->store.flush_disk_type, "SYNC_FLUSH");
  EXPECT_EQ(s->store.store_path_root_dir, "/data/store");
  EXPECT_EQ(s->store.delete_when, "03");
  EXPECT_EQ(s->store.file_reserved_time, 48);
  EXPECT_FALSE(s->auto_create_topic_enable);
  EXPECT_EQ(s->NamesrvAddrList(), (std::vector<std::string>{"10.0.0.1:9876", "10.0.0.2:9876"}));
  EXPECT_EQ(s->BrokerAddr(), "10.1.1.1:20911");
  // brokerIP2 follows brokerIP1 when not given; HA port is listenPort + 1.
  EXPECT_EQ(s->HaServerAddr(), "10.1.1.1:20912");
  EXPECT_EQ(s->ConfigDir(), "/data/store/config");
}

TEST(BrokerConfigTest, PoolSizesComeFromTheCoreCountUnlessAJavaKeyGivesThem) {
  // Issue 13: no Java thread counts by default (more threads than cores only add context
  // switches), but a broker.conf that names a pool size still gets it.
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  BrokerConfig defaults;
  auto d = defaults.Get();
  EXPECT_EQ(d->send_message_thread_pool_nums, cores);
  EXPECT_EQ(d->pull_message_thread_pool_nums, 2 * cores);
  EXPECT_EQ(d->query_message_thread_pool_nums, cores);
  EXPECT_EQ(d->admin_broker_thread_pool_nums, cores);
  EXPECT_EQ(d->client_manage_thread_pool_nums, cores);
  EXPECT_EQ(d->consumer_manage_thread_pool_nums, cores);
  EXPECT_EQ(d->heartbeat_thread_pool_nums, cores);
  EXPECT_EQ(d->server_selector_threads, cores);

  BrokerConfig config;
  std::vector<std::string> unknown;
  ASSERT_TRUE(config
                  .ApplyProperties({{"sendMessageThreadPoolNums", "16"},
                                    {"pullMessageThreadPoolNums", "64"},
                                    {"queryMessageThreadPoolNums", "9"},
                                    {"adminBrokerThreadPoolNums", "11"},
                                    {"clientManageThreadPoolNums", "33"},
                                    {"consumerManageThreadPoolNums", "31"},
                                    {"heartbeatThreadPoolNums", "7"},
                                    {"serverSelectorThreads", "5"}},
                                   &unknown)
                  .ok());
  EXPECT_TRUE(unknown.empty());
  auto s = config.Get();
  EXPECT_EQ(s->send_message_thread_pool_nums, 16);
  EXPECT_EQ(s->pull_message_thread_pool_nums, 64);
  EXPECT_EQ(s->query_message_thread_pool_nums, 9);
  EXPECT_EQ(s->admin_broker_thread_pool_nums, 11);
  EXPECT_EQ(s->client_manage_thread_pool_nums, 33);
  EXPECT_EQ(s->consumer_manage_thread_pool_nums, 31);
  EXPECT_EQ(s->heartbeat_thread_pool_nums, 7);
  EXPECT_EQ(s->server_selector_threads, 5);
}

TEST(BrokerConfigTest, UnknownKeysAreReportedByName) {
  BrokerConfig config(Base());
  std::vector<std::string> unknown;
  ASSERT_TRUE(config.ApplyProperties({{"brokerName", "b"}, {"noSuchKey", "1"}}, &unknown).ok());
  EXPECT_EQ(unknown, std::vector<std::string>{"noSuchKey"});
  EXPECT_EQ(config.Get()->broker_name, "b");
}

TEST(BrokerConfigTest, BadValueNamesKeyAndValueAndChangesNothing) {
  BrokerConfig config(Base());
  Status s = config.ApplyProperties({{"brokerName", "changed"}, {"listenPort", "abc"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("listenPort"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("abc"), std::string::npos) << s.ToString();
  EXPECT_EQ(config.Get()->broker_name, "broker-a");

  Status role = config.ApplyProperties({{"brokerRole", "MASTER"}});
  ASSERT_FALSE(role.ok());
  EXPECT_NE(role.message().find("brokerRole"), std::string::npos) << role.ToString();
  EXPECT_NE(role.message().find("MASTER"), std::string::npos) << role.ToString();

  Status flag = config.ApplyProperties({{"autoCreateTopicEnable", "yes-please"}});
  EXPECT_FALSE(flag.ok());
}

TEST(BrokerConfigTest, SlaveNeedsPositiveBrokerIdAndMasterIdIsForcedToZero) {
  BrokerConfig config(Base());
  Status s = config.ApplyProperties({{"brokerRole", "SLAVE"}, {"brokerId", "0"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("brokerId"), std::string::npos) << s.ToString();
  ASSERT_TRUE(config.ApplyProperties({{"brokerRole", "SLAVE"}, {"brokerId", "2"}}).ok());
  EXPECT_TRUE(config.Get()->IsSlave());
  EXPECT_EQ(config.Get()->broker_id, 2);

  BrokerConfig master(Base());
  ASSERT_TRUE(master.ApplyProperties({{"brokerRole", "ASYNC_MASTER"}, {"brokerId", "3"}}).ok());
  EXPECT_EQ(master.Get()->broker_id, 0);
}

TEST(BrokerConfigTest, BadNamesrvAddrIsRefused) {
  BrokerConfig config(Base());
  Status s = config.ApplyProperties({{"namesrvAddr", "10.0.0.1:9876;nonsense"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("namesrvAddr"), std::string::npos);
  EXPECT_NE(s.message().find("nonsense"), std::string::npos);
}

TEST(BrokerConfigTest, HaPortAndRegisterPeriodRules) {
  BrokerSettings s = Base();
  s.listen_port = 30911;
  EXPECT_EQ(s.EffectiveHaListenPort(), 30912);
  s.ha_listen_port = 40000;
  EXPECT_EQ(s.EffectiveHaListenPort(), 40000);
  s.register_name_server_period = 1000;
  EXPECT_EQ(s.EffectiveRegisterPeriodMs(), 10000);
  s.register_name_server_period = 600000;
  EXPECT_EQ(s.EffectiveRegisterPeriodMs(), 60000);
  s.register_name_server_period = 30000;
  EXPECT_EQ(s.EffectiveRegisterPeriodMs(), 30000);
}

TEST(BrokerConfigTest, LoadFileWithCommentsAndJavaSpacing) {
  apogee::testing::TempDir dir;
  std::string path = dir.Join("broker.conf");
  {
    std::ofstream out(path);
    out << "# sample\n"
           "brokerClusterName = DefaultCluster\n"
           "brokerName = broker-a\n"
           "brokerId = 0\n"
           "deleteWhen = 04\n"
           "fileReservedTime = 48\n"
           "brokerRole = ASYNC_MASTER\n"
           "flushDiskType = ASYNC_FLUSH\n"
           "unknownThing = 5\n";
  }
  BrokerConfig config(Base());
  std::vector<std::string> unknown;
  ASSERT_TRUE(config.LoadFile(path, &unknown).ok());
  EXPECT_EQ(unknown, std::vector<std::string>{"unknownThing"});
  EXPECT_EQ(config.Get()->store.file_reserved_time, 48);

  Status missing = config.LoadFile(dir.Join("nope.conf"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("nope.conf"), std::string::npos);
}

TEST(BrokerConfigTest, PropertiesTextHasEveryKeySorted) {
  BrokerConfig config(Base());
  std::string text = config.ToPropertiesText();
  for (const char* key : {"brokerClusterName=", "brokerName=broker-a", "listenPort=10911",
                          "storePathRootDir=", "flushDiskType=ASYNC_FLUSH", "haListenPort=",
                          "autoCreateTopicEnable=true", "mappedFileSizeCommitLog="}) {
    EXPECT_NE(text.find(key), std::string::npos) << key;
  }
  EXPECT_LT(text.find("autoCreateTopicEnable="), text.find("brokerName="));
  std::string important = config.ImportantPropertiesText();
  EXPECT_NE(important.find("brokerName=broker-a"), std::string::npos);
  EXPECT_EQ(important.find("sendThreadPoolQueueCapacity"), std::string::npos);
  EXPECT_LT(important.size(), text.size());
}

TEST(BrokerConfigTest, RuntimeUpdateOnlyReloadableKeys) {
  BrokerConfig config(Base());
  std::vector<std::string> seen;
  config.SetUpdateListener([&](const std::vector<std::string>& keys) { seen = keys; });
  auto v0 = config.data_version();

  ASSERT_TRUE(
      config.UpdateAtRuntime({{"brokerPermission", "4"}, {"autoCreateTopicEnable", "true"}}).ok());
  EXPECT_EQ(config.Get()->broker_permission, 4);
  // Only the key whose value changed is reported.
  EXPECT_EQ(seen, std::vector<std::string>{"brokerPermission"});
  EXPECT_GT(config.data_version().counter, v0.counter);

  Status path = config.UpdateAtRuntime({{"storePathRootDir", "/tmp/evil"}});
  ASSERT_TRUE(path.Is(StatusCode::kPermissionDenied));
  EXPECT_NE(path.message().find("storePathRootDir"), std::string::npos);
  Status port = config.UpdateAtRuntime({{"listenPort", "1234"}, {"brokerPermission", "6"}});
  ASSERT_FALSE(port.ok());
  EXPECT_EQ(config.Get()->broker_permission, 4);  // all or nothing
  Status unknown = config.UpdateAtRuntime({{"whatever", "1"}});
  EXPECT_TRUE(unknown.Is(StatusCode::kInvalidArgument));
  Status bad = config.UpdateAtRuntime({{"brokerPermission", "99"}});
  EXPECT_FALSE(bad.ok());

  std::vector<std::string> keys = config.RuntimeUpdatableKeys();
  EXPECT_NE(std::find(keys.begin(), keys.end(), "brokerPermission"), keys.end());
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "storePathRootDir"), keys.end());
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "brokerName"), keys.end());
}

TEST(BrokerConfigTest, SnapshotsAreStableAcrossUpdates) {
  BrokerConfig config(Base());
  auto before = config.Get();
  ASSERT_TRUE(config.UpdateAtRuntime({{"brokerPermission", "2"}}).ok());
  EXPECT_EQ(before->broker_permission, 6);
  EXPECT_EQ(config.Get()->broker_permission, 2);
}

TEST(BrokerConfigTest, SampleConfDocumentsEveryKeyAndLoadsCleanly) {
  const std::string path = ::apogee::testing::SourceDir() + "/conf/broker.conf";
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BrokerConfig config(Base());
  std::string props = config.ToPropertiesText();
  size_t pos = 0;
  while (pos < props.size()) {
    size_t eq = props.find('=', pos);
    size_t nl = props.find('\n', pos);
    std::string key = props.substr(pos, eq - pos);
    EXPECT_TRUE(text.find("#" + key + "=") != std::string::npos ||
                text.find("\n" + key + " =") != std::string::npos)
        << key << " is not documented in conf/broker.conf";
    pos = nl + 1;
  }
  std::vector<std::string> unknown;
  ASSERT_TRUE(config.LoadFile(path, &unknown).ok());
  EXPECT_TRUE(unknown.empty());
  EXPECT_EQ(config.Get()->broker_name, "broker-a");
  EXPECT_EQ(config.Get()->store.file_reserved_time, 48);
}

}  // namespace
}  // namespace apogee::broker
