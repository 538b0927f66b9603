#include "store/consume_queue.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "base/coding.h"
#include "base/logging.h"
#include "store/store_format.h"

namespace apogee::store {
namespace {

CqEntry DecodeEntry(const uint8_t* p) {
  CqEntry e;
  e.phy_offset = static_cast<int64_t>(DecodeFixed64(p + kCqPhyOffsetPos));
  e.size = static_cast<int32_t>(DecodeFixed32(p + kCqSizePos));
  e.tag_code = static_cast<int64_t>(DecodeFixed64(p + kCqTagCodePos));
  return e;
}

void EncodeEntry(const CqEntry& e, uint8_t* p) {
  EncodeFixed64(p + kCqPhyOffsetPos, static_cast<uint64_t>(e.phy_offset));
  EncodeFixed32(p + kCqSizePos, static_cast<uint32_t>(e.size));
  EncodeFixed64(p + kCqTagCodePos, static_cast<uint64_t>(e.tag_code));
}

// Java's recovery test for a written slot: a fresh (zeroed) slot has size 0. A slot whose
// record would end past INT64_MAX was never written by a broker (a corrupt or hostile file;
// found by store_file_fuzz): it ends the queue too, and its end is never computed.
bool IsWritten(const CqEntry& e) {
  return e.phy_offset >= 0 && e.size > 0 &&
         e.phy_offset <= std::numeric_limits<int64_t>::max() - e.size;
}

}  // namespace

ConsumeQueue::ConsumeQueue(env::Env* env, std::string topic, int32_t queue_id, std::string dir,
                           int64_t file_size)
    : topic_(std::move(topic)), queue_id_(queue_id), files_(env, std::move(dir), file_size) {}

Status ConsumeQueue::Recover() {
  std::vector<std::shared_ptr<MappedFile>> files = files_.Files();
  if (files.empty()) return Status::OK();
  size_t index = files.size() > static_cast<size_t>(kRecoverFilesFromEnd)
                     ? files.size() - kRecoverFilesFromEnd
                     : 0;
  int64_t file_size = files_.file_size();
  // A file whose first slot is empty may follow a file with an unwritten tail (lost in a
  // crash): start from the newest file that begins with a written entry.
  while (index > 0 && !IsWritten(DecodeEntry(files[index]->data()))) --index;
  int64_t process_offset = files[index]->start_offset();
  int64_t max_phy = -1;
  for (; index < files.size(); ++index) {
    const MappedFile& f = *files[index];
    int64_t pos = 0;
    for (; pos + kUnit <= file_size; pos += kUnit) {
      CqEntry e = DecodeEntry(f.data() + pos);
      if (!IsWritten(e)) break;
      if (e.size != kCqBlankEntrySize) max_phy = e.phy_offset + e.size;
    }
    process_offset = f.start_offset() + pos;
    if (pos + kUnit <= file_size) break;  // stopped inside this file
  }
  APOGEE_RETURN_IF_ERROR(files_.TruncateDirtyFiles(process_offset));
  if (max_phy >= 0) max_phy_offset_.store(max_phy);
  std::shared_ptr<MappedFile> first = files_.FirstFile();
  if (first && min_logic_offset_.load() < first->start_offset()) {
    min_logic_offset_.store(first->start_offset());
  }
  return Status::OK();
}

Status ConsumeQueue::FillPreBlank(int64_t upto_byte) {
  // The first file is the one holding upto_byte; its earlier slots get blank entries.
  APOGEE_ASSIGN_OR_RETURN(auto file, files_.LastFileOrCreate(upto_byte));
  uint8_t blank[kCqUnitSize];
  EncodeEntry(CqEntry{0, kCqBlankEntrySize, 0}, blank);
  while (file->start_offset() + file->wrote_position() < upto_byte) {
    if (!file->Append(std::string_view(reinterpret_cast<const char*>(blank), kCqUnitSize))) {
      return Status::Internal(fmt::format("ConsumeQueue {}-{}: pre-fill overflowed {}", topic_,
                                          queue_id_, file->path()));
    }
  }
  return Status::OK();
}

Status ConsumeQueue::PutEntry(const CqEntry& entry, int64_t queue_offset) {
  // Both come from a record's own fields, which a damaged record can make anything: refused
  // before the sums and products below could overflow.
  if (queue_offset < 0 || queue_offset > kMaxQueueOffset) {
    return Status::Corruption(fmt::format("ConsumeQueue {}-{}: queue offset {} is outside [0, {}]",
                                          topic_, queue_id_, queue_offset, kMaxQueueOffset));
  }
  if (entry.phy_offset < 0 || entry.size < 0 ||
      entry.phy_offset > std::numeric_limits<int64_t>::max() - entry.size) {
    return Status::Corruption(fmt::format(
        "ConsumeQueue {}-{}: record at CommitLog offset {} of {} bytes is not a valid position",
        topic_, queue_id_, entry.phy_offset, entry.size));
  }
  if (entry.phy_offset + entry.size <= max_phy_offset_.load()) {
    return Status::OK();  // already built (re-dispatch after recovery)
  }
  int64_t expected = queue_offset * kUnit;
  int64_t current = files_.MaxOffset();
  if (files_.empty() && expected > 0) {
    // A queue whose first message is not offset 0 (its earlier files were deleted):
    // blank entries up to it keep offsets and byte positions aligned.
    APOGEE_RETURN_IF_ERROR(FillPreBlank(expected));
    min_logic_offset_.store(expected);
    current = files_.MaxOffset();
  }
  if (expected < current) {
    return Status::OK();  // slot already written
  }
  if (expected > current) {
    return Status::Corruption(fmt::format(
        "ConsumeQueue {}-{}: entry for queue offset {} would leave a gap (next slot is {})",
        topic_, queue_id_, queue_offset, current / kUnit));
  }
  APOGEE_ASSIGN_OR_RETURN(auto file, files_.LastFileOrCreate(expected));
  uint8_t buf[kCqUnitSize];
  EncodeEntry(entry, buf);
  if (!file->Append(std::string_view(reinterpret_cast<const char*>(buf), kCqUnitSize))) {
    return Status::Internal(fmt::format("ConsumeQueue {}-{}: no room in {}", topic_, queue_id_,
                                        file->path()));
  }
  max_phy_offset_.store(entry.phy_offset + entry.size);
  return Status::OK();
}

std::optional<CqEntry> ConsumeQueue::GetEntry(int64_t queue_offset) const {
  std::vector<CqEntry> one = GetEntries(queue_offset, 1);
  if (one.empty()) return std::nullopt;
  return one.front();
}

std::vector<CqEntry> ConsumeQueue::GetEntries(int64_t queue_offset, int max) const {
  std::vector<CqEntry> out;
  // The offset may come straight from a client (a pull's queueOffset): no overflow below.
  if (queue_offset < MinOffset() || queue_offset > kMaxQueueOffset || max <= 0) return out;
  int64_t byte = queue_offset * kUnit;
  std::shared_ptr<MappedFile> file = files_.FindFileByOffset(byte);
  if (!file) return out;
  int64_t pos = byte - file->start_offset();
  int64_t end = file->wrote_position();
  for (; pos + kUnit <= end && static_cast<int>(out.size()) < max; pos += kUnit) {
    out.push_back(DecodeEntry(file->data() + pos));
  }
  return out;
}

Status ConsumeQueue::TruncateDirty(int64_t phy_offset) {
  // Walk back from the last entry to the first one that points below the cut.
  int64_t end = files_.MaxOffset();
  int64_t keep = end;
  int64_t max_phy = -1;
  while (keep >= kUnit) {
    std::shared_ptr<MappedFile> file = files_.FindFileByOffset(keep - kUnit);
    if (!file) break;
    CqEntry e = DecodeEntry(file->data() + (keep - kUnit - file->start_offset()));
    if (e.size == kCqBlankEntrySize || e.phy_offset < phy_offset) {
      if (e.size != kCqBlankEntrySize) max_phy = e.phy_offset + e.size;
      break;
    }
    keep -= kUnit;
  }
  if (keep < end) {
    GetLogger("store")->info("ConsumeQueue {}-{}: truncated from queue offset {} to {}", topic_,
                             queue_id_, end / kUnit, keep / kUnit);
    APOGEE_RETURN_IF_ERROR(files_.TruncateDirtyFiles(keep, /*zero_tail=*/true));
  }
  max_phy_offset_.store(max_phy);
  return Status::OK();
}

void ConsumeQueue::CorrectMinOffset(int64_t commit_log_min_offset) {
  int64_t pos = min_logic_offset_.load();
  std::shared_ptr<MappedFile> first = files_.FirstFile();
  if (first) pos = std::max(pos, first->start_offset());
  int64_t end = files_.MaxOffset();
  while (pos < end) {
    std::shared_ptr<MappedFile> file = files_.FindFileByOffset(pos);
    if (!file) break;
    CqEntry e = DecodeEntry(file->data() + (pos - file->start_offset()));
    if (e.size != kCqBlankEntrySize && e.phy_offset >= commit_log_min_offset) break;
    pos += kUnit;
  }
  min_logic_offset_.store(pos);
}

Result<int> ConsumeQueue::DeleteExpiredFiles(int64_t commit_log_min_offset) {
  std::vector<std::shared_ptr<MappedFile>> files = files_.Files();
  size_t n = 0;
  // Never delete the last file: it holds the write position.
  for (; n + 1 < files.size(); ++n) {
    const MappedFile& f = *files[n];
    int64_t last = f.wrote_position() - kUnit;
    if (last < 0) break;
    CqEntry e = DecodeEntry(f.data() + last);
    if (e.size != kCqBlankEntrySize && e.phy_offset >= commit_log_min_offset) break;
  }
  if (n > 0) APOGEE_RETURN_IF_ERROR(files_.DeleteFirstFiles(n));
  CorrectMinOffset(commit_log_min_offset);
  return static_cast<int>(n);
}

Status ConsumeQueue::Destroy() {
  max_phy_offset_.store(-1);
  min_logic_offset_.store(0);
  return files_.DestroyAll();
}

}  // namespace apogee::store
