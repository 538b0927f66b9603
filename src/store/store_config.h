// StoreConfig: the MessageStoreConfig settings the store reads, under their exact
// broker.conf key names (docs/protocol/store_ha.md §6.3, §6.5), with Java's defaults.
//
// StoreConfig is a plain struct so it can be copied freely; StoreConfigTable() binds a
// ConfigTable to one instance for parsing broker.conf and printing -p. Getters that Java
// adjusts (rounding, clamping, derived paths) are methods here, so callers never read
// the raw field where Java would not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/config_table.h"
#include "base/status.h"

namespace apogee::store {

enum class FlushDiskType { kAsyncFlush, kSyncFlush };
enum class BrokerRole { kAsyncMaster, kSyncMaster, kSlave };

struct StoreConfig {
  std::string store_path_root_dir;  // storePathRootDir; "" means ${HOME}/store
  std::string store_path_commit_log;  // storePathCommitLog; "" means <root>/commitlog

  int64_t mapped_file_size_commit_log = 1073741824;
  int64_t mapped_file_size_consume_queue = 300000 * 20;

  std::string flush_disk_type = "ASYNC_FLUSH";
  std::string broker_role = "ASYNC_MASTER";
  int32_t flush_interval_commit_log = 500;
  int32_t flush_commit_log_least_pages = 4;
  int32_t flush_commit_log_thorough_interval = 10000;
  bool flush_commit_log_timed = true;
  int64_t sync_flush_timeout = 5000;

  int32_t flush_interval_consume_queue = 1000;
  int32_t flush_consume_queue_least_pages = 2;
  int32_t flush_consume_queue_thorough_interval = 60000;

  int32_t clean_resource_interval = 10000;
  int32_t delete_commit_log_files_interval = 100;
  int32_t delete_consume_queue_files_interval = 100;
  int32_t destroy_mapped_file_interval_forcibly = 120000;
  std::string delete_when = "04";
  int32_t file_reserved_time = 72;  // hours
  int32_t disk_max_used_space_ratio = 75;
  int32_t disk_space_warning_level_ratio = 90;
  int32_t disk_space_clean_forcibly_ratio = 85;
  bool clean_file_forcibly_enable = true;
  // Apogee: when the disk passes diskSpaceCleanForciblyRatio, Java deletes CommitLog files
  // whatever their age, acknowledged messages no consumer has read included. Apogee's forced
  // clean deletes only files older than fileReservedTime and refuses writes instead
  // (docs/operations/disk.md); true restores Java's behaviour (warned about at start).
  bool clean_unexpired_file_forcibly_enable = false;

  int32_t max_message_size = 4194304;
  bool check_crc_on_recover = true;

  bool message_index_enable = true;
  bool message_index_safe = false;
  int32_t max_hash_slot_num = 5000000;
  int32_t max_index_num = 20000000;
  int32_t default_query_max_num = 32;

  int32_t max_transfer_bytes_on_message_in_memory = 262144;
  int32_t max_transfer_count_on_message_in_memory = 32;
  int32_t max_transfer_bytes_on_message_in_disk = 65536;
  int32_t max_transfer_count_on_message_in_disk = 8;
  int32_t access_message_in_memory_max_ratio = 40;

  // Java's default (false). Under ASYNC_FLUSH pre-writing only doubles the page-cache writes.
  bool warm_mapped_file_enable = false;
  // Apogee (preWriteCommitLogOnSyncFlush, default true): under SYNC_FLUSH the CommitLog is
  // pre-written ahead of the writer whatever warmMapedFileEnable says, since group commit
  // pays for every fdatasync per batch and one into never-written blocks can cost many times
  // one into written blocks. Where it does not (measured in docs/operations/disk.md), false
  // trades a higher one-at-a-time p99 for more SYNC_FLUSH throughput.
  bool pre_write_commit_log_on_sync_flush = true;
  // Apogee (preWriteCommitLogOnAsyncFlush, default true): under ASYNC_FLUSH the page cache is
  // filled with zeros a short distance ahead of the writer, nothing synced, because a store
  // that faults a never-written page in costs the writer far more than the write() that fills
  // it (docs/benchmarks.md, "ASYNC_FLUSH: the page cache filled ahead of the writer"); with
  // records written by pwrite (below) the gain is smaller, measured in "ASYNC_FLUSH: records
  // written with pwrite".
  bool pre_write_commit_log_on_async_flush = true;
  // Apogee (writeCommitLogThroughFileOnAsyncFlush, default true): under ASYNC_FLUSH records
  // are written into the CommitLog with pwrite (the requests of one read with one pwrite, before
  // their answers leave) instead of stored into the mapping. Pages the broker's threads never
  // write through their mapping need no TLB shoot-down when the flush cleans them; stored
  // into, every page cost an inter-processor interrupt per flush (docs/benchmarks.md,
  // "ASYNC_FLUSH: records written with pwrite").
  bool write_commit_log_through_file_on_async_flush = true;
  // Whether the CommitLog is pre-written: warmMapedFileEnable, or the key of the flush type.
  // Under SYNC_FLUSH pre-writes are synced page by page, under ASYNC_FLUSH they only fill the
  // page cache (as Java's warmMappedFile forces only under SYNC_FLUSH).
  bool PreWriteCommitLogFiles() const;

  // Delay levels of scheduled messages (Java's MessageStoreConfig.messageDelayLevel): the
  // store computes a SCHEDULE_TOPIC_XXXX record's tag code (its delivery time) from it.
  std::string message_delay_level = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h";

  // ---- Adjusted getters, as MessageStoreConfig's ----
  std::string RootDir() const;
  std::string CommitLogDir() const;
  std::string ConsumeQueueDir() const;
  std::string IndexDir() const;
  std::string CheckpointPath() const;
  std::string AbortPath() const;
  std::string LockPath() const;
  std::string ConfigDir() const;
  // Rounded up to a multiple of the 20-byte unit (getMappedFileSizeConsumeQueue).
  int64_t ConsumeQueueFileSize() const;
  // Clamped to [10, 95] (getDiskMaxUsedSpaceRatio).
  int32_t DiskMaxUsedSpaceRatio() const;
  FlushDiskType flush_type() const;
  BrokerRole role() const;
  // The hours of deleteWhen ("04;05" -> {4, 5}); empty entries and non-numbers ignored.
  std::vector<int> DeleteHours() const;

  // Rejects values that would make the store misbehave (file sizes too small for one
  // record, negative intervals), naming the key.
  Status Validate() const;
};

// A table over `config` (which must outlive it) with every key above.
ConfigTable StoreConfigTable(StoreConfig* config);

}  // namespace apogee::store
