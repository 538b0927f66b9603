#include "store/index_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <ctime>
#include <limits>
#include <mutex>

#include "base/coding.h"
#include "base/java_hash.h"
#include "store/store_format.h"

namespace apogee::store {

IndexFile::IndexFile(env::Env* env, std::string path, int32_t hash_slot_num, int32_t index_num,
                     std::unique_ptr<env::RandomRWFile> file,
                     std::unique_ptr<env::MappedRegion> region)
    : env_(env),
      path_(std::move(path)),
      hash_slot_num_(hash_slot_num),
      index_num_(index_num),
      file_(std::move(file)),
      region_(std::move(region)) {}

int64_t IndexFile::FileSizeFor(int32_t hash_slot_num, int32_t index_num) {
  return kIndexHeaderSize + int64_t{hash_slot_num} * kIndexSlotSize +
         int64_t{index_num} * kIndexEntrySize;
}

std::string IndexFile::FileNameFor(int64_t timestamp_ms) {
  time_t secs = static_cast<time_t>(timestamp_ms / 1000);
  struct tm tm_local {};
  localtime_r(&secs, &tm_local);
  return fmt::format("{:04d}{:02d}{:02d}{:02d}{:02d}{:02d}{:03d}", tm_local.tm_year + 1900,
                     tm_local.tm_mon + 1, tm_local.tm_mday, tm_local.tm_hour, tm_local.tm_min,
                     tm_local.tm_sec, static_cast<int>(timestamp_ms % 1000));
}

int32_t IndexFile::KeyHash(std::string_view key) {
  int32_t h = JavaStringHashCode(key);
  if (h == INT32_MIN) return 0;
  return h < 0 ? -h : h;
}

Result<std::shared_ptr<IndexFile>> IndexFile::Create(env::Env* env, const std::string& path,
                                                     int32_t hash_slot_num, int32_t index_num,
                                                     int64_t end_phy_offset,
                                                     int64_t end_timestamp) {
  int64_t size = FileSizeFor(hash_slot_num, index_num);
  APOGEE_ASSIGN_OR_RETURN(auto file, env->OpenFile(path, env::OpenMode::kCreateNew));
  Status s = file->Allocate(static_cast<uint64_t>(size));
  if (!s.ok()) {
    (void)file->Close();
    (void)env->DeleteFile(path);
    return s.Prefixed(fmt::format("creating index file {}", path));
  }
  APOGEE_ASSIGN_OR_RETURN(auto region, file->Map());
  std::shared_ptr<IndexFile> f(new IndexFile(env, path, hash_slot_num, index_num,
                                             std::move(file), std::move(region)));
  f->header_.begin_phy_offset = end_phy_offset;
  f->header_.end_phy_offset = end_phy_offset;
  f->header_.begin_timestamp = end_timestamp;
  f->header_.end_timestamp = end_timestamp;
  f->StoreHeader();
  return f;
}

Result<std::shared_ptr<IndexFile>> IndexFile::Open(env::Env* env, const std::string& path,
                                                   int32_t hash_slot_num, int32_t index_num) {
  int64_t size = FileSizeFor(hash_slot_num, index_num);
  APOGEE_ASSIGN_OR_RETURN(auto file, env->OpenFile(path, env::OpenMode::kOpenExisting));
  APOGEE_ASSIGN_OR_RETURN(uint64_t actual, file->Size());
  if (actual != static_cast<uint64_t>(size)) {
    return Status::Corruption(fmt::format(
        "index file {} is {} bytes; maxHashSlotNum={} and maxIndexNum={} need {}", path, actual,
        hash_slot_num, index_num, size));
  }
  APOGEE_ASSIGN_OR_RETURN(auto region, file->Map());
  std::shared_ptr<IndexFile> f(new IndexFile(env, path, hash_slot_num, index_num,
                                             std::move(file), std::move(region)));
  f->LoadHeader();
  if (f->header_.index_count < 1 || f->header_.index_count > index_num) {
    return Status::Corruption(fmt::format("index file {}: index count {} outside [1, {}]", path,
                                          f->header_.index_count, index_num));
  }
  return f;
}

void IndexFile::LoadHeader() {
  const uint8_t* p = region_->data();
  header_.begin_timestamp = static_cast<int64_t>(DecodeFixed64(p + kIndexBeginTimestampPos));
  header_.end_timestamp = static_cast<int64_t>(DecodeFixed64(p + kIndexEndTimestampPos));
  header_.begin_phy_offset = static_cast<int64_t>(DecodeFixed64(p + kIndexBeginPhyOffsetPos));
  header_.end_phy_offset = static_cast<int64_t>(DecodeFixed64(p + kIndexEndPhyOffsetPos));
  header_.hash_slot_count = static_cast<int32_t>(DecodeFixed32(p + kIndexHashSlotCountPos));
  header_.index_count = static_cast<int32_t>(DecodeFixed32(p + kIndexIndexCountPos));
  if (header_.index_count == 0) header_.index_count = 1;  // never-written header
}

void IndexFile::StoreHeader() {
  uint8_t* p = region_->data();
  EncodeFixed64(p + kIndexBeginTimestampPos, static_cast<uint64_t>(header_.begin_timestamp));
  EncodeFixed64(p + kIndexEndTimestampPos, static_cast<uint64_t>(header_.end_timestamp));
  EncodeFixed64(p + kIndexBeginPhyOffsetPos, static_cast<uint64_t>(header_.begin_phy_offset));
  EncodeFixed64(p + kIndexEndPhyOffsetPos, static_cast<uint64_t>(header_.end_phy_offset));
  EncodeFixed32(p + kIndexHashSlotCountPos, static_cast<uint32_t>(header_.hash_slot_count));
  EncodeFixed32(p + kIndexIndexCountPos, static_cast<uint32_t>(header_.index_count));
}

uint8_t* IndexFile::SlotAt(int64_t slot) {
  return region_->data() + kIndexHeaderSize + slot * kIndexSlotSize;
}
const uint8_t* IndexFile::SlotAt(int64_t slot) const {
  return region_->data() + kIndexHeaderSize + slot * kIndexSlotSize;
}
uint8_t* IndexFile::EntryAt(int64_t n) {
  return region_->data() + kIndexHeaderSize + int64_t{hash_slot_num_} * kIndexSlotSize +
         n * kIndexEntrySize;
}
const uint8_t* IndexFile::EntryAt(int64_t n) const {
  return region_->data() + kIndexHeaderSize + int64_t{hash_slot_num_} * kIndexSlotSize +
         n * kIndexEntrySize;
}

IndexHeader IndexFile::header() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return header_;
}

bool IndexFile::IsFull() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return header_.index_count >= index_num_;
}

bool IndexFile::PutKey(std::string_view key, int64_t phy_offset, int64_t store_timestamp) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  if (header_.index_count >= index_num_) return false;
  int32_t key_hash = KeyHash(key);
  int64_t slot = key_hash % hash_slot_num_;
  int32_t slot_value = static_cast<int32_t>(DecodeFixed32(SlotAt(slot)));
  if (slot_value <= 0 || slot_value > header_.index_count) slot_value = 0;

  int64_t time_diff = 0;
  if (header_.begin_timestamp > 0) {
    time_diff = (store_timestamp - header_.begin_timestamp) / 1000;
    time_diff = std::clamp<int64_t>(time_diff, 0, INT32_MAX);
  }
  // Entry, then slot, then header (Java's order). A process killed between two of these
  // stores leaves them in the page cache as a prefix of this order (a signal stops a thread at
  // an instruction boundary), which RepairAfterKill undoes. The compiler would be free to
  // reorder plain stores to memory no other code of this thread reads: the signal fences
  // forbid that without emitting any instruction.
  uint8_t* e = EntryAt(header_.index_count);
  EncodeFixed32(e + kIndexEntryKeyHashPos, static_cast<uint32_t>(key_hash));
  EncodeFixed64(e + kIndexEntryPhyOffsetPos, static_cast<uint64_t>(phy_offset));
  EncodeFixed32(e + kIndexEntryTimeDiffPos, static_cast<uint32_t>(time_diff));
  EncodeFixed32(e + kIndexEntryPrevIndexPos, static_cast<uint32_t>(slot_value));
  std::atomic_signal_fence(std::memory_order_seq_cst);
  EncodeFixed32(SlotAt(slot), static_cast<uint32_t>(header_.index_count));
  std::atomic_signal_fence(std::memory_order_seq_cst);

  if (header_.index_count <= 1) {
    header_.begin_phy_offset = phy_offset;
    header_.begin_timestamp = store_timestamp;
  }
  // A statistic read back from the header: a damaged file may hold any value there.
  if (slot_value == 0 && header_.hash_slot_count < INT32_MAX) ++header_.hash_slot_count;
  ++header_.index_count;
  header_.end_phy_offset = phy_offset;
  header_.end_timestamp = store_timestamp;
  StoreHeader();
  return true;
}

bool IndexFile::RepairAfterKill(bool drop_last_record) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  const int32_t count = header_.index_count;  // Open checked it is in [1, index_num_]
  // 1. A slot at or past index_count was stored by a PutKey killed before its header store.
  // Its entry was stored first, so the entry's prev-index holds the slot's old value.
  // The used-slot count is recounted on the way: a kill inside the header store may have
  // advanced it without the index count.
  int32_t used_slots = 0;
  uint8_t* const slots = SlotAt(0);  // one call: the scan covers maxHashSlotNum slots
  for (int64_t s = 0; s < hash_slot_num_; ++s) {
    const int32_t v = static_cast<int32_t>(DecodeFixed32(slots + s * kIndexSlotSize));
    if (v >= 0 && v < count) {
      used_slots += v > 0 ? 1 : 0;
      continue;
    }
    if (v < 0 || v >= index_num_) return false;
    const uint8_t* e = EntryAt(v);
    const int32_t hash = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryKeyHashPos));
    const int32_t prev = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryPrevIndexPos));
    // Anything else is not what a killed writer leaves: distrust the whole file rather than
    // cut a chain (keys lost) or keep one that leads past the entries.
    if (hash < 0 || hash % hash_slot_num_ != s || prev < 0 || prev >= count) return false;
    EncodeFixed32(slots + s * kIndexSlotSize, static_cast<uint32_t>(prev));
    used_slots += prev > 0 ? 1 : 0;
  }
  header_.hash_slot_count = used_slots;
  StoreHeader();
  if (!drop_last_record || count <= 1) return true;
  // 2. The last record may lack keys (killed between the PutKeys of one record, or inside the
  // header store) although the header may already name it as the end: drop all its entries,
  // newest first, so that re-dispatching it puts every key once. Each step lowers the count
  // before restoring the slot, so a kill here leaves the state step 1 repairs.
  const int64_t last_phy =
      static_cast<int64_t>(DecodeFixed64(EntryAt(count - 1) + kIndexEntryPhyOffsetPos));
  int32_t n = count - 1;
  while (n >= 1) {
    const uint8_t* e = EntryAt(n);
    if (static_cast<int64_t>(DecodeFixed64(e + kIndexEntryPhyOffsetPos)) != last_phy) break;
    const int32_t hash = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryKeyHashPos));
    const int32_t prev = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryPrevIndexPos));
    if (hash < 0 || prev < 0 || prev >= n) return false;
    const int64_t slot = hash % hash_slot_num_;
    if (static_cast<int32_t>(DecodeFixed32(SlotAt(slot))) != n) return false;
    header_.index_count = n;
    if (prev == 0 && header_.hash_slot_count > 0) --header_.hash_slot_count;
    StoreHeader();
    std::atomic_signal_fence(std::memory_order_seq_cst);
    EncodeFixed32(SlotAt(slot), static_cast<uint32_t>(prev));
    std::atomic_signal_fence(std::memory_order_seq_cst);
    --n;
  }
  // The entries, not the header, say which record ended the file: the header's end fields may
  // be newer than its count. The end timestamp is left as it is: at or after the kept last
  // record's time, it only widens the span queries look at.
  if (header_.index_count > 1) {
    header_.end_phy_offset = static_cast<int64_t>(
        DecodeFixed64(EntryAt(header_.index_count - 1) + kIndexEntryPhyOffsetPos));
    StoreHeader();
  }
  return true;
}

void IndexFile::SelectPhyOffsets(std::string_view key, size_t max_num, int64_t begin,
                                 int64_t end, std::vector<int64_t>* out) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  int32_t key_hash = KeyHash(key);
  int64_t slot = key_hash % hash_slot_num_;
  int32_t next = static_cast<int32_t>(DecodeFixed32(SlotAt(slot)));
  if (next <= 0 || next >= header_.index_count || header_.index_count <= 1) return;
  // A chain can never be longer than the entries in the file; the bound guards against
  // a corrupt file that loops.
  for (int32_t steps = 0; steps < header_.index_count && out->size() < max_num; ++steps) {
    const uint8_t* e = EntryAt(next);
    int32_t hash_read = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryKeyHashPos));
    int64_t phy_read = static_cast<int64_t>(DecodeFixed64(e + kIndexEntryPhyOffsetPos));
    int32_t diff = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryTimeDiffPos));
    int32_t prev = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryPrevIndexPos));
    // A corrupt file may hold any begin timestamp: stop where the sum would overflow
    // (store_file_fuzz).
    if (diff < 0 ||
        header_.begin_timestamp > std::numeric_limits<int64_t>::max() - int64_t{diff} * 1000) {
      break;
    }
    int64_t time_read = header_.begin_timestamp + int64_t{diff} * 1000;
    if (hash_read == key_hash && time_read >= begin && time_read <= end) {
      out->push_back(phy_read);
    }
    if (prev <= 0 || prev >= header_.index_count || prev == next || time_read < begin) break;
    next = prev;
  }
}

bool IndexFile::IsTimeMatched(int64_t begin, int64_t end) const {
  IndexHeader h = header();
  return (begin < h.begin_timestamp && end > h.end_timestamp) ||
         (begin >= h.begin_timestamp && begin <= h.end_timestamp) ||
         (end >= h.begin_timestamp && end <= h.end_timestamp);
}

Status IndexFile::Flush() {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return region_->Sync(0, region_->size()).Prefixed(fmt::format("flushing {}", path_));
}

Status IndexFile::Destroy() {
  std::unique_lock<std::shared_mutex> lock(mu_);
  if (destroyed_) return Status::OK();
  destroyed_ = true;
  Status close = file_->Close();
  Status del = env_->DeleteFile(path_);
  if (!del.ok() && !del.IsNotFound()) return del;
  return close;
}

}  // namespace apogee::store
