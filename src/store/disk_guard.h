// DiskGuard: decides whether the store may accept a write, so that no file the store has
// to create for what it acknowledged can fail for lack of space (docs/operations/disk.md).
//
// Every store file is allocated whole when created (fallocate), so writing into a mapped
// file never faults; what can fail is creating the next file. The guard keeps free
// space for each file the store may have to create next:
//   * the next CommitLog file (unless the allocator already made it),
//   * the next IndexFile (when messageIndexEnable),
//   * every ConsumeQueue file an acknowledged message starts but dispatch has not created
//     yet, plus one more for the next such message,
//   * a fixed margin for the config files (topics, offsets, checkpoint), rewritten by rename;
// and refuses writes (SERVICE_NOT_AVAILABLE with the numbers) when it is not there, or
// when the disk is above diskSpaceWarningLevelRatio (Java's rule).
//
// Free space is read with statfs at most every kRefreshIntervalMs on the put path (and by
// the retention pass); between two reads the ConsumeQueue files admitted are taken from a
// budget, so a flood of first messages to new queues cannot outrun the check.
//
// Thread-safety: Admit is called under the CommitLog put lock; Refresh and the
// notifications from any thread. State is atomics plus a mutex for the reason text.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "base/status.h"
#include "env/env.h"

namespace apogee::store {

class DiskGuard {
 public:
  struct Options {
    std::string commit_log_dir;
    std::string root_dir;  // ConsumeQueues, IndexFiles, config, checkpoint
    int64_t commit_log_file_size = 0;
    int64_t consume_queue_file_size = 0;
    int64_t index_file_size = 0;  // 0 when messageIndexEnable is false
    int32_t warning_ratio = 90;   // diskSpaceWarningLevelRatio, percent
    // Config files, checkpoint, abort and lock files, temporary copies while they are
    // rewritten. MessageStore passes min(8 MiB, one CommitLog file).
    int64_t config_margin_bytes = 8 << 20;
  };
  static constexpr int64_t kRefreshIntervalMs = 100;

  // `prepared_commit_log_bytes` tells how many bytes of the next CommitLog file the
  // allocator already holds (so they need no free space any more).
  DiskGuard(env::Env* env, Options options, std::function<int64_t()> prepared_commit_log_bytes);

  // Reads free space now and decides. The Status is an error only when statfs fails.
  Status Refresh();
  // The put path: may a message that will start `new_cq_files` ConsumeQueue files be
  // stored? Refreshes when the last read is older than kRefreshIntervalMs. False when the
  // disk is full; the reason is in reason().
  bool Admit(int64_t new_cq_files, int64_t now_ms);
  // Dispatch created a ConsumeQueue file that Admit counted.
  void OnConsumeQueueFileCreated() { cq_files_created_.fetch_add(1, std::memory_order_relaxed); }

  bool full() const { return full_.load(std::memory_order_acquire); }
  std::string reason() const;
  // What the guard keeps free on the ConsumeQueue/IndexFile disk and on the CommitLog disk
  // (the same disk by default), at the last refresh.
  int64_t reserved_root_bytes() const { return reserved_root_.load(std::memory_order_relaxed); }
  int64_t reserved_commit_log_bytes() const { return reserved_cl_.load(std::memory_order_relaxed); }

 private:
  int64_t PendingCqFiles() const;
  void SetFull(bool full, std::string reason);

  env::Env* env_;
  const Options options_;
  const bool same_disk_;
  std::function<int64_t()> prepared_commit_log_bytes_;
  std::atomic<bool> full_{false};
  std::atomic<int64_t> last_refresh_ms_{-1};
  // Free bytes left above every reservation after the last refresh, less the ConsumeQueue
  // files admitted since.
  std::atomic<int64_t> budget_{0};
  std::atomic<int64_t> cq_files_admitted_{0};
  std::atomic<int64_t> cq_files_created_{0};
  std::atomic<int64_t> reserved_root_{0};
  std::atomic<int64_t> reserved_cl_{0};
  mutable std::mutex mu_;
  std::string reason_;  // guarded by mu_
};

}  // namespace apogee::store
