#include "store/store_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "base/string_util.h"
#include "store/delay_level_table.h"
#include "store/store_format.h"

namespace apogee::store {

std::string StoreConfig::RootDir() const {
  if (!store_path_root_dir.empty()) return store_path_root_dir;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/store";
}
std::string StoreConfig::CommitLogDir() const {
  return store_path_commit_log.empty() ? RootDir() + "/" + kCommitLogDirName
                                       : store_path_commit_log;
}
std::string StoreConfig::ConsumeQueueDir() const {
  return RootDir() + "/" + kConsumeQueueDirName;
}
std::string StoreConfig::IndexDir() const { return RootDir() + "/" + kIndexDirName; }
std::string StoreConfig::CheckpointPath() const { return RootDir() + "/" + kCheckpointFileName; }
std::string StoreConfig::AbortPath() const { return RootDir() + "/" + kAbortFileName; }
std::string StoreConfig::LockPath() const { return RootDir() + "/" + kLockFileName; }
std::string StoreConfig::ConfigDir() const { return RootDir() + "/" + kConfigDirName; }

int64_t StoreConfig::ConsumeQueueFileSize() const {
  int64_t units = (mapped_file_size_consume_queue + kCqUnitSize - 1) / kCqUnitSize;
  return std::max<int64_t>(units, 1) * kCqUnitSize;
}

int32_t StoreConfig::DiskMaxUsedSpaceRatio() const {
  return std::clamp(disk_max_used_space_ratio, 10, 95);
}

FlushDiskType StoreConfig::flush_type() const {
  return flush_disk_type == "SYNC_FLUSH" ? FlushDiskType::kSyncFlush : FlushDiskType::kAsyncFlush;
}

BrokerRole StoreConfig::role() const {
  if (broker_role == "SYNC_MASTER") return BrokerRole::kSyncMaster;
  if (broker_role == "SLAVE") return BrokerRole::kSlave;
  return BrokerRole::kAsyncMaster;
}

std::vector<int> StoreConfig::DeleteHours() const {
  std::vector<int> hours;
  for (const std::string& piece : SplitString(delete_when, ';', /*skip_empty=*/true)) {
    std::optional<int32_t> h = ParseInt32(piece);
    if (h && *h >= 0 && *h < 24) hours.push_back(*h);
  }
  return hours;
}

bool StoreConfig::PreWriteCommitLogFiles() const {
  if (warm_mapped_file_enable) return true;
  return flush_type() == FlushDiskType::kSyncFlush ? pre_write_commit_log_on_sync_flush
                                                   : pre_write_commit_log_on_async_flush;
}

Status StoreConfig::Validate() const {
  // A CommitLog file must hold at least one maximal record plus the BLANK filler.
  int64_t min_commit_log = 4096;
  if (mapped_file_size_commit_log < min_commit_log) {
    return Status::InvalidArgument(fmt::format(
        "mappedFileSizeCommitLog={} is below the minimum of {} bytes",
        mapped_file_size_commit_log, min_commit_log));
  }
  if (mapped_file_size_consume_queue < kCqUnitSize) {
    return Status::InvalidArgument(fmt::format(
        "mappedFileSizeConsumeQueue={} cannot hold one {}-byte entry",
        mapped_file_size_consume_queue, kCqUnitSize));
  }
  if (Result<DelayLevelTable> levels = DelayLevelTable::Parse(message_delay_level); !levels.ok()) {
    return levels.status();
  }
  if (max_message_size <= 0) {
    return Status::InvalidArgument(
        fmt::format("maxMessageSize={} must be positive", max_message_size));
  }
  if (max_hash_slot_num <= 0 || max_index_num <= 1) {
    return Status::InvalidArgument(fmt::format(
        "maxHashSlotNum={} and maxIndexNum={} must be positive (maxIndexNum > 1)",
        max_hash_slot_num, max_index_num));
  }
  if (sync_flush_timeout <= 0) {
    return Status::InvalidArgument(
        fmt::format("syncFlushTimeout={} must be positive", sync_flush_timeout));
  }
  return Status::OK();
}

ConfigTable StoreConfigTable(StoreConfig* c) {
  ConfigTable t;
  t.Add("storePathRootDir", &c->store_path_root_dir, "store root directory (default ~/store)")
      .Add("storePathCommitLog", &c->store_path_commit_log,
           "CommitLog directory (default <storePathRootDir>/commitlog)")
      .Add("mappedFileSizeCommitLog", &c->mapped_file_size_commit_log, "bytes per CommitLog file",
           false, 1, INT64_MAX)
      .Add("mappedFileSizeConsumeQueue", &c->mapped_file_size_consume_queue,
           "bytes per ConsumeQueue file, rounded up to a multiple of 20", false, 1, INT64_MAX)
      .AddEnum("flushDiskType", &c->flush_disk_type, {"ASYNC_FLUSH", "SYNC_FLUSH"},
               "when a put is acknowledged: after fdatasync (SYNC_FLUSH) or at once")
      .AddEnum("brokerRole", &c->broker_role, {"ASYNC_MASTER", "SYNC_MASTER", "SLAVE"},
               "role of this store in its broker set")
      .Add("flushIntervalCommitLog", &c->flush_interval_commit_log,
           "ASYNC_FLUSH: ms between CommitLog flushes", true, 1, INT32_MAX)
      .Add("flushCommitLogLeastPages", &c->flush_commit_log_least_pages,
           "ASYNC_FLUSH: flush only when at least this many 4 KiB pages are dirty", true, 0,
           INT32_MAX)
      .Add("flushCommitLogThoroughInterval", &c->flush_commit_log_thorough_interval,
           "ASYNC_FLUSH: ms after which any dirty byte is flushed", true, 0, INT32_MAX)
      .Add("flushCommitLogTimed", &c->flush_commit_log_timed,
           "ASYNC_FLUSH: plain sleep between flushes (not woken by puts)", true)
      .Add("syncFlushTimeout", &c->sync_flush_timeout,
           "SYNC_FLUSH: ms before a put is answered FLUSH_DISK_TIMEOUT", true, 1, INT64_MAX)
      .Add("flushIntervalConsumeQueue", &c->flush_interval_consume_queue,
           "ms between ConsumeQueue flushes", true, 1, INT32_MAX)
      .Add("flushConsumeQueueLeastPages", &c->flush_consume_queue_least_pages,
           "ConsumeQueue flush threshold in pages", true, 0, INT32_MAX)
      .Add("flushConsumeQueueThoroughInterval", &c->flush_consume_queue_thorough_interval,
           "ms after which ConsumeQueues and the checkpoint are flushed regardless", true, 0,
           INT32_MAX)
      .Add("cleanResourceInterval", &c->clean_resource_interval, "ms between retention passes",
           true, 1, INT32_MAX)
      .Add("deleteCommitLogFilesInterval", &c->delete_commit_log_files_interval,
           "ms between two CommitLog file deletions in one pass", true, 0, INT32_MAX)
      .Add("deleteConsumeQueueFilesInterval", &c->delete_consume_queue_files_interval,
           "ms between two ConsumeQueue file deletions", true, 0, INT32_MAX)
      .Add("destroyMapedFileIntervalForcibly", &c->destroy_mapped_file_interval_forcibly,
           "ms after which a still-referenced file is destroyed anyway", true, 0, INT32_MAX)
      .Add("deleteWhen", &c->delete_when, "hours of day (e.g. 04;05) when old files are deleted",
           true)
      .Add("fileReservedTime", &c->file_reserved_time, "hours a CommitLog file is kept", true, 0,
           INT32_MAX)
      .Add("diskMaxUsedSpaceRatio", &c->disk_max_used_space_ratio,
           "percent disk use above which old files are deleted at any hour (clamped 10..95)", true)
      .Add("diskSpaceWarningLevelRatio", &c->disk_space_warning_level_ratio,
           "percent disk use above which writes are refused", true, 0, 100)
      .Add("diskSpaceCleanForciblyRatio", &c->disk_space_clean_forcibly_ratio,
           "percent disk use above which files are deleted regardless of age", true, 0, 100)
      .Add("cleanFileForciblyEnable", &c->clean_file_forcibly_enable,
           "clean at once (expired files at any hour) when the disk passes "
           "diskSpaceCleanForciblyRatio",
           true)
      .Add("cleanUnexpiredFileForciblyEnable", &c->clean_unexpired_file_forcibly_enable,
           "Apogee: let that forced clean delete files younger than fileReservedTime, "
           "unconsumed messages included (Java's behaviour; default false)",
           true)
      .Add("maxMessageSize", &c->max_message_size, "largest accepted message body in bytes", true,
           1, INT32_MAX)
      .Add("checkCRCOnRecover", &c->check_crc_on_recover,
           "verify body CRCs while recovering the CommitLog")
      .Add("messageIndexEnable", &c->message_index_enable, "build the key index (IndexFile)")
      .Add("messageIndexSafe", &c->message_index_safe,
           "after a crash, recover from the index checkpoint too")
      .Add("maxHashSlotNum", &c->max_hash_slot_num, "hash slots per IndexFile", false, 1, INT32_MAX)
      .Add("maxIndexNum", &c->max_index_num, "entries per IndexFile", false, 2, INT32_MAX)
      .Add("defaultQueryMaxNum", &c->default_query_max_num, "messages returned by a key query",
           true, 1, INT32_MAX)
      .Add("maxTransferBytesOnMessageInMemory", &c->max_transfer_bytes_on_message_in_memory,
           "pull byte cap when the data is in page cache", true, 1, INT32_MAX)
      .Add("maxTransferCountOnMessageInMemory", &c->max_transfer_count_on_message_in_memory,
           "pull message cap when the data is in page cache", true, 1, INT32_MAX)
      .Add("maxTransferBytesOnMessageInDisk", &c->max_transfer_bytes_on_message_in_disk,
           "pull byte cap when the data is on disk", true, 1, INT32_MAX)
      .Add("maxTransferCountOnMessageInDisk", &c->max_transfer_count_on_message_in_disk,
           "pull message cap when the data is on disk", true, 1, INT32_MAX)
      .Add("accessMessageInMemoryMaxRatio", &c->access_message_in_memory_max_ratio,
           "percent of RAM behind the max offset still counted as in memory", true, 0, 100)
      .Add("warmMapedFileEnable", &c->warm_mapped_file_enable,
           "pre-write the CommitLog in the background, a short distance ahead of the writer")
      .Add("preWriteCommitLogOnSyncFlush", &c->pre_write_commit_log_on_sync_flush,
           "Apogee: under SYNC_FLUSH pre-write the CommitLog whatever warmMapedFileEnable says "
           "(default true; false: more throughput, higher one-at-a-time p99 where fresh blocks "
           "sync as fast as written ones, docs/operations/disk.md)")
      .Add("preWriteCommitLogOnAsyncFlush", &c->pre_write_commit_log_on_async_flush,
           "Apogee: under ASYNC_FLUSH fill the page cache with zeros a short distance ahead of "
           "the CommitLog writer, nothing synced (default true; false: the writer's own writes "
           "bring the pages in, docs/benchmarks.md)")
      .Add("writeCommitLogThroughFileOnAsyncFlush",
           &c->write_commit_log_through_file_on_async_flush,
           "Apogee: under ASYNC_FLUSH write records with pwrite, a read's worth at once, instead "
           "of storing them into the mapped CommitLog (default true; false: stores, and a TLB "
           "shoot-down per page the flush cleans, docs/benchmarks.md)")
      .Add("messageDelayLevel", &c->message_delay_level,
           "delay levels of scheduled messages (s, m, h, d)");
  return t;
}

}  // namespace apogee::store
