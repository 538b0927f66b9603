// StoreCheckpoint: the 4 KiB `checkpoint` file recording how far the CommitLog was flushed
// and how far ConsumeQueues and IndexFiles were built, by store timestamp. Abnormal recovery
// starts from the CommitLog file whose first record is older than MinTimestamp(). Mirrors
// Java's StoreCheckpoint (docs/protocol/store_ha.md §5.5); layout in store_format.h.
//
// Thread-safety: setters and getters are atomic; Flush() serializes its writers.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "base/status.h"
#include "env/env.h"

namespace apogee::store {

class StoreCheckpoint {
 public:
  // Opens (creating a zeroed 4 KiB file if missing) and reads the values.
  static Result<std::unique_ptr<StoreCheckpoint>> Open(env::Env* env, const std::string& path);

  int64_t physic_msg_timestamp() const { return physic_.load(); }
  int64_t logics_msg_timestamp() const { return logics_.load(); }
  int64_t index_msg_timestamp() const { return index_.load(); }
  int64_t master_flushed_offset() const { return master_flushed_.load(); }
  int64_t confirm_phy_offset() const { return confirm_.load(); }
  void set_physic_msg_timestamp(int64_t v) { physic_.store(v); }
  void set_logics_msg_timestamp(int64_t v) { logics_.store(v); }
  void set_index_msg_timestamp(int64_t v) { index_.store(v); }
  void set_master_flushed_offset(int64_t v) { master_flushed_.store(v); }
  void set_confirm_phy_offset(int64_t v) { confirm_.store(v); }

  // min(physic, logics) - 3 s, not below 0.
  int64_t MinTimestamp() const;
  // min(MinTimestamp(), index) — used when messageIndexSafe.
  int64_t MinTimestampIndex() const;

  // Writes the current values and syncs the file.
  Status Flush();

 private:
  explicit StoreCheckpoint(std::unique_ptr<env::RandomRWFile> file) : file_(std::move(file)) {}

  std::unique_ptr<env::RandomRWFile> file_;
  std::mutex flush_mu_;
  std::atomic<int64_t> physic_{0};
  std::atomic<int64_t> logics_{0};
  std::atomic<int64_t> index_{0};
  std::atomic<int64_t> master_flushed_{0};
  std::atomic<int64_t> confirm_{0};
};

}  // namespace apogee::store
