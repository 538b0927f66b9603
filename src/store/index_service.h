// IndexService: the list of IndexFiles under <root>/index, building "topic#key" entries for
// each dispatched record (UNIQ_KEY and every KEYS token) and answering key queries across
// files. Mirrors Java's IndexService.
//
// Thread-safety: BuildIndex runs on the reput thread (or recovery); QueryOffsets and the
// maintenance calls may run on any thread.
#pragma once

#include <cstdint>
#include <climits>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "env/env.h"
#include "store/dispatch_request.h"
#include "store/index_file.h"

namespace apogee::store {

class StoreCheckpoint;

class IndexService {
 public:
  IndexService(env::Env* env, std::string dir, int32_t hash_slot_num, int32_t index_num,
               StoreCheckpoint* checkpoint, const Clock* clock);

  // Opens every index file. After an abnormal exit, files whose end timestamp is past the
  // checkpoint's indexMsgTimestamp may be incomplete and are deleted (rebuilt by dispatch),
  // unless `page_cache_survived` (the process was killed, the machine did not restart): then
  // they are repaired (IndexFile::RepairAfterKill) and kept, and only the last record of the
  // last file is indexed again.
  Status Load(bool last_exit_ok, bool page_cache_survived = false);
  // Deletes files holding entries at or past `phy_offset` (the recovered CommitLog end).
  Status TruncateFrom(int64_t phy_offset);
  // The physical offset of the last indexed record (-1 with no files): dispatch must
  // start at or before the record after it for the index to be complete.
  int64_t IndexedUpTo() const;
  // The lowest physical offset whose entries were dropped by Load/TruncateFrom and must be
  // rebuilt by dispatching from there (INT64_MAX when nothing was dropped).
  int64_t RebuildFrom() const;

  Status BuildIndex(const DispatchRequest& request);
  // Physical offsets of messages whose key is `key` in `topic`, stored within [begin, end],
  // newest file first, at most `max_num`. Hash collisions are possible: callers compare
  // the real key.
  std::vector<int64_t> QueryOffsets(std::string_view topic, std::string_view key,
                                    size_t max_num, int64_t begin, int64_t end) const;
  // Deletes files whose entries all point below the CommitLog's min offset.
  Result<int> DeleteExpiredFiles(int64_t commit_log_min_offset);
  Status Flush();
  size_t file_count() const;

 private:
  Result<std::shared_ptr<IndexFile>> WritableFile();
  Status PutKey(IndexFile** file, std::string_view topic, std::string_view key,
                const DispatchRequest& request);

  env::Env* env_;
  std::string dir_;
  int32_t hash_slot_num_;
  int32_t index_num_;
  StoreCheckpoint* checkpoint_;
  const Clock* clock_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<IndexFile>> files_;  // guarded by mu_, oldest first
  int64_t rebuild_from_ = INT64_MAX;                // guarded by mu_
  // "topic#key" of the key being indexed, reused so that indexing allocates nothing per key;
  // only BuildIndex's thread (the reput or recovery) touches it.
  std::string key_buf_;
};

}  // namespace apogee::store
