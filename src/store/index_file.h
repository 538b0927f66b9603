// IndexFile: a fixed-size hash index from "topic#key" to CommitLog physical offsets, in
// RocketMQ's layout (docs/protocol/store_ha.md §5.4): a 40-byte header, maxHashSlotNum int32 slots
// holding the newest entry number of their chain, then maxIndexNum 20-byte entries
// {keyHash, phyOffset, timeDiff seconds, prevIndex}. Entry 0 is never used.
//
// Thread-safety: one writer (the reput thread) and concurrent readers; a shared mutex keeps a
// reader from seeing a half-linked entry.
#pragma once

#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "env/env.h"

namespace apogee::store {

struct IndexHeader {
  int64_t begin_timestamp = 0;
  int64_t end_timestamp = 0;
  int64_t begin_phy_offset = 0;
  int64_t end_phy_offset = 0;
  int32_t hash_slot_count = 0;
  int32_t index_count = 1;  // starts at 1: entry 0 is never used
};

class IndexFile {
 public:
  // Creates a file sized for `hash_slot_num` slots and `index_num` entries. `end_phy_offset`
  // and `end_timestamp` carry over from the previous (full) file, as Java does.
  static Result<std::shared_ptr<IndexFile>> Create(env::Env* env, const std::string& path,
                                                   int32_t hash_slot_num, int32_t index_num,
                                                   int64_t end_phy_offset,
                                                   int64_t end_timestamp);
  // Opens an existing file; its size must match the slot and entry counts.
  static Result<std::shared_ptr<IndexFile>> Open(env::Env* env, const std::string& path,
                                                 int32_t hash_slot_num, int32_t index_num);
  static int64_t FileSizeFor(int32_t hash_slot_num, int32_t index_num);
  // yyyyMMddHHmmssSSS in local time, the name Java gives a new index file.
  static std::string FileNameFor(int64_t timestamp_ms);
  // Java's index key hash: abs(String.hashCode()), with Integer.MIN_VALUE mapped to 0.
  static int32_t KeyHash(std::string_view key);

  const std::string& path() const { return path_; }
  IndexHeader header() const;
  bool IsFull() const;

  // Adds `key` -> `phy_offset`. False (nothing written) when the file is full.
  bool PutKey(std::string_view key, int64_t phy_offset, int64_t store_timestamp);
  // Appends to `out` (newest first) the offsets of entries whose key hash matches and whose
  // time is within [begin, end], until `out` holds `max_num`. The caller checks the real key.
  void SelectPhyOffsets(std::string_view key, size_t max_num, int64_t begin, int64_t end,
                        std::vector<int64_t>* out) const;
  // True when [begin, end] overlaps this file's time span (Java's isTimeMatched).
  bool IsTimeMatched(int64_t begin, int64_t end) const;

  // Makes a file written by a process that was killed (the page cache survived, so every
  // store PutKey made is there, in order) consistent again: a slot pointing at or past
  // index_count (the entry and slot stored, the header not) is restored to that entry's
  // prev-index, and with `drop_last_record` (the file being written) the entries of the last
  // record are removed, since it may lack keys, and the header's end set from the entries.
  // False when the file holds something a killed writer cannot leave: rebuild it instead.
  bool RepairAfterKill(bool drop_last_record);

  Status Flush();
  Status Destroy();

 private:
  IndexFile(env::Env* env, std::string path, int32_t hash_slot_num, int32_t index_num,
            std::unique_ptr<env::RandomRWFile> file, std::unique_ptr<env::MappedRegion> region);
  void LoadHeader();
  void StoreHeader();
  uint8_t* SlotAt(int64_t slot);
  const uint8_t* SlotAt(int64_t slot) const;
  uint8_t* EntryAt(int64_t n);
  const uint8_t* EntryAt(int64_t n) const;

  env::Env* env_;
  std::string path_;
  int32_t hash_slot_num_;
  int32_t index_num_;
  std::unique_ptr<env::RandomRWFile> file_;
  std::unique_ptr<env::MappedRegion> region_;
  mutable std::shared_mutex mu_;
  IndexHeader header_;  // guarded by mu_; mirrored into the mapped header on every put
  bool destroyed_ = false;
};

}  // namespace apogee::store
