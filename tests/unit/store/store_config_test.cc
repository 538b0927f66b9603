#include "store/store_config.h"

#include <gtest/gtest.h>

namespace apogee::store {
namespace {

TEST(StoreConfigTest, JavaDefaults) {
  StoreConfig c;
  EXPECT_EQ(c.mapped_file_size_commit_log, 1073741824);
  EXPECT_EQ(c.ConsumeQueueFileSize(), 6000000);
  EXPECT_EQ(c.flush_type(), FlushDiskType::kAsyncFlush);
  EXPECT_EQ(c.role(), BrokerRole::kAsyncMaster);
  EXPECT_EQ(c.flush_interval_commit_log, 500);
  EXPECT_EQ(c.flush_commit_log_least_pages, 4);
  EXPECT_EQ(c.sync_flush_timeout, 5000);
  EXPECT_EQ(c.file_reserved_time, 72);
  EXPECT_EQ(c.delete_when, "04");
  EXPECT_EQ(c.DiskMaxUsedSpaceRatio(), 75);
  EXPECT_EQ(c.max_message_size, 4194304);
  EXPECT_EQ(c.max_hash_slot_num, 5000000);
  EXPECT_EQ(c.max_index_num, 20000000);
  EXPECT_TRUE(c.message_index_enable);
  EXPECT_TRUE(c.Validate().ok());
}

TEST(StoreConfigTest, BrokerConfKeysApply) {
  StoreConfig c;
  ConfigTable table = StoreConfigTable(&c);
  auto props = ParsePropertiesText(
      "brokerClusterName = DefaultCluster\n"
      "storePathRootDir=/data/store\n"
      "flushDiskType=SYNC_FLUSH\n"
      "deleteWhen = 04;05\n"
      "fileReservedTime = 48\n"
      "mappedFileSizeConsumeQueue=1001\n"
      "diskMaxUsedSpaceRatio=99\n");
  ASSERT_TRUE(props.ok());
  std::vector<std::string> unknown;
  ASSERT_TRUE(table.Apply(*props, &unknown).ok());
  EXPECT_EQ(unknown, std::vector<std::string>{"brokerClusterName"});
  EXPECT_EQ(c.flush_type(), FlushDiskType::kSyncFlush);
  EXPECT_EQ(c.file_reserved_time, 48);
  EXPECT_EQ(c.DeleteHours(), (std::vector<int>{4, 5}));
  EXPECT_EQ(c.ConsumeQueueFileSize(), 1020);  // rounded up to 20-byte units
  EXPECT_EQ(c.DiskMaxUsedSpaceRatio(), 95);   // clamped
  EXPECT_EQ(c.CommitLogDir(), "/data/store/commitlog");
  EXPECT_EQ(c.ConsumeQueueDir(), "/data/store/consumequeue");
  EXPECT_EQ(c.IndexDir(), "/data/store/index");
  EXPECT_EQ(c.CheckpointPath(), "/data/store/checkpoint");
  EXPECT_EQ(c.AbortPath(), "/data/store/abort");
  EXPECT_EQ(c.LockPath(), "/data/store/lock");
}

// The CommitLog is pre-written under SYNC_FLUSH unless preWriteCommitLogOnSyncFlush=false,
// under ASYNC_FLUSH unless preWriteCommitLogOnAsyncFlush=false, and under either with
// warmMapedFileEnable=true.
TEST(StoreConfigTest, PreWritingFollowsFlushTypeAndTheTwoKeys) {
  auto pre_writes = [](const std::string& text) {
    StoreConfig c;
    ConfigTable table = StoreConfigTable(&c);
    auto props = ParsePropertiesText(text);
    EXPECT_TRUE(props.ok());
    std::vector<std::string> unknown;
    EXPECT_TRUE(table.Apply(*props, &unknown).ok());
    EXPECT_TRUE(unknown.empty());
    return c.PreWriteCommitLogFiles();
  };
  EXPECT_TRUE(pre_writes(""));  // ASYNC_FLUSH
  EXPECT_FALSE(pre_writes("preWriteCommitLogOnAsyncFlush=false\n"));
  EXPECT_TRUE(pre_writes("preWriteCommitLogOnAsyncFlush=false\nwarmMapedFileEnable=true\n"));
  EXPECT_TRUE(pre_writes("flushDiskType=SYNC_FLUSH\npreWriteCommitLogOnAsyncFlush=false\n"));
  EXPECT_TRUE(pre_writes("flushDiskType=SYNC_FLUSH\n"));
  EXPECT_FALSE(pre_writes("flushDiskType=SYNC_FLUSH\npreWriteCommitLogOnSyncFlush=false\n"));
  EXPECT_TRUE(pre_writes(
      "flushDiskType=SYNC_FLUSH\npreWriteCommitLogOnSyncFlush=false\nwarmMapedFileEnable=true\n"));
  EXPECT_TRUE(pre_writes("warmMapedFileEnable=true\n"));
  EXPECT_FALSE(pre_writes(
      "preWriteCommitLogOnSyncFlush=true\npreWriteCommitLogOnAsyncFlush=false\n"));  // ASYNC_FLUSH
}

TEST(StoreConfigTest, EnumIsCaseSensitiveLikeJava) {
  StoreConfig c;
  ConfigTable table = StoreConfigTable(&c);
  Status s = table.Set("flushDiskType", "sync_flush");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("flushDiskType"), std::string::npos);
}

TEST(StoreConfigTest, ExplicitCommitLogPathWins) {
  StoreConfig c;
  c.store_path_root_dir = "/r";
  c.store_path_commit_log = "/fast/cl";
  EXPECT_EQ(c.CommitLogDir(), "/fast/cl");
}

TEST(StoreConfigTest, ValidateNamesTheBadKey) {
  StoreConfig c;
  c.mapped_file_size_commit_log = 100;
  Status s = c.Validate();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("mappedFileSizeCommitLog"), std::string::npos);
  c = StoreConfig();
  c.sync_flush_timeout = 0;
  EXPECT_NE(c.Validate().message().find("syncFlushTimeout"), std::string::npos);
}

TEST(StoreConfigTest, DeleteHoursIgnoresJunk) {
  StoreConfig c;
  c.delete_when = "04;;x;25;23";
  EXPECT_EQ(c.DeleteHours(), (std::vector<int>{4, 23}));
}

}  // namespace
}  // namespace apogee::store
