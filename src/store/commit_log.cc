#include "store/commit_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "base/crc32.h"
#include "base/logging.h"
#include "base/wakeup_batch.h"
#include "message/message_format.h"
#include "store/consume_queue_table.h"
#include "store/disk_guard.h"
#include "store/file_allocator.h"
#include "store/recovery_progress.h"
#include "store/store_format.h"

namespace apogee::store {
namespace {

// "topic-queueId", Java's topicQueueTable key, built without allocating.
class QueueKey {
 public:
  QueueKey(std::string_view topic, int32_t queue_id) {
    size_t n = std::min(topic.size(), sizeof(buf_) - 16);
    std::memcpy(buf_, topic.data(), n);
    buf_[n] = '-';
    // to_chars, not fmt: this runs for every put, and fmt's format parsing cost ~300
    // instructions of it (callgrind, docs/benchmarks.md "Header decode and encode").
    const auto r = std::to_chars(buf_ + n + 1, buf_ + sizeof(buf_), queue_id);
    len_ = static_cast<size_t>(r.ptr - buf_);
  }
  std::string_view view() const { return std::string_view(buf_, len_); }

 private:
  char buf_[256 + 16];  // longest topic RocketMQ allows (retry/DLQ) plus "-queueId"
  size_t len_;
};

bool AssignsQueueOffset(int32_t sys_flag) {
  int32_t type = sys_flag & message::kTransactionTypeMask;
  return type == message::kTransactionNotType || type == message::kTransactionCommitType;
}

PutResult Refuse(PutStatus status) {
  PutResult r;
  r.status = status;
  return r;
}

}  // namespace

CommitLog::CommitLog(env::Env* env, const StoreConfig& config, const Clock* clock,
                     FileAllocator* allocator)
    : env_(env),
      config_(config),
      clock_(clock),
      files_(env, config.CommitLogDir(), config.mapped_file_size_commit_log, allocator),
      cq_entries_per_file_(std::max<int64_t>(1, config.ConsumeQueueFileSize() / kCqUnitSize)),
      writes_through_file_(config.flush_type() == FlushDiskType::kSyncFlush ||
                           config.write_commit_log_through_file_on_async_flush) {}

Status CommitLog::Load() { return files_.Load(); }

PutResult CommitLog::Append(message::RecordFields f, WriteMode mode) {
  // Looked up once: GetLogger takes a lock and a map lookup, which every put paid.
  static const auto log = GetLogger("store");
  if (f.topic.empty() || f.topic.size() > message::kMaxTopicLengthV1) {
    log->warn("put refused: topic length {} outside [1, {}]", f.topic.size(),
              message::kMaxTopicLengthV1);
    return Refuse(PutStatus::kMessageIllegal);
  }
  if (!IsIndexableQueue(f.topic, f.queue_id)) {
    log->warn("put refused: topic '{}' queue {} cannot have a ConsumeQueue", f.topic, f.queue_id);
    return Refuse(PutStatus::kMessageIllegal);
  }
  if (f.body.size() > static_cast<size_t>(config_.max_message_size)) {
    log->warn("put refused: body of {} bytes exceeds maxMessageSize {} (topic {})",
              f.body.size(), config_.max_message_size, f.topic);
    return Refuse(PutStatus::kMessageIllegal);
  }
  if (message::PropertiesSize(f) > message::kMaxPropertiesLength) {
    log->warn("put refused: properties of {} bytes exceed {} (topic {})",
              message::PropertiesSize(f), message::kMaxPropertiesLength, f.topic);
    return Refuse(PutStatus::kPropertiesSizeExceeded);
  }
  Result<size_t> size_or = message::RecordSize(f);
  if (!size_or.ok()) {
    log->warn("put refused: {}", size_or.status().ToString());
    return Refuse(PutStatus::kMessageIllegal);
  }
  const int64_t size = static_cast<int64_t>(*size_or);
  if (size > int64_t{config_.max_message_size} + kMaxRecordOverhead ||
      size + kEndFileMinBlankLength > files_.file_size()) {
    log->warn("put refused: record of {} bytes is too large (maxMessageSize {}, file size {})",
              size, config_.max_message_size, files_.file_size());
    return Refuse(PutStatus::kMessageIllegal);
  }
  // The CRC is the expensive part of encoding; do it before taking the lock.
  if (!f.body_crc) f.body_crc = Crc32Masked(f.body.data(), f.body.size());
  const bool assigns = AssignsQueueOffset(f.sys_flag);
  const bool defer = DefersPut(mode);
  QueueKey key(f.topic, f.queue_id);

  std::unique_lock<std::mutex> lock(put_mu_);
  bool released = false;
  if (!ReadyToPutLocked(lock, defer, &released)) return Refuse(PutStatus::kUnknownError);
  const int64_t now = clock_->NowMillis();
  auto it = QueueEntryLocked(key.view());
  if (!AdmitLocked(assigns ? it->second : -1, 1, now)) {
    return Refuse(PutStatus::kServiceNotAvailable);
  }
  Result<std::shared_ptr<MappedFile>> file_or = FileWithRoomLocked(lock, size, &released);
  if (!file_or.ok()) {
    log->error("cannot create a CommitLog file: {}", file_or.status().ToString());
    return Refuse(PutStatus::kCreateMappedFileFailed);
  }
  if (released) it = QueueEntryLocked(key.view());
  MappedFile& file = **file_or;
  const int64_t pos = AppendPositionLocked(file);
  f.queue_offset = assigns ? it->second : 0;
  f.physical_offset = file.start_offset() + pos;
  f.store_timestamp = now;
  Result<size_t> wrote = message::EncodeRecord(f, EncodeTargetLocked(*file_or, pos, size, defer),
                                               static_cast<size_t>(size));
  if (!wrote.ok()) {
    log->error("encoding a record failed after validation: {}", wrote.status().ToString());
    if (defer) deferred_.bytes.resize(deferred_.bytes.size() - static_cast<size_t>(size));
    return Refuse(PutStatus::kUnknownError);
  }
  if (!defer) {
    if (Status written = WriteEncodedLocked(file, pos, size); !written.ok()) {
      log->error("put refused: writing the record failed: {}", written.ToString());
      return Refuse(PutStatus::kUnknownError);  // nothing published: the position is unchanged
    }
    file.set_wrote_position(pos + size);
  }
  if (assigns) ++it->second;
  last_store_timestamp_.store(now, std::memory_order_relaxed);
  if (!BoundDeferredLocked(lock, &released)) return Refuse(PutStatus::kUnknownError);
  PutResult r;
  r.status = PutStatus::kPutOk;
  r.wrote_offset = PhyOffset(f.physical_offset);
  r.wrote_bytes = static_cast<int32_t>(size);
  r.queue_offset = QueueOffset(f.queue_offset);
  r.msg_num = 1;
  r.store_timestamp = now;
  return r;
}

Result<std::shared_ptr<MappedFile>> CommitLog::FileWithRoomLocked(
    std::unique_lock<std::mutex>& lock, int64_t bytes, bool* released) {
  // A fresh file always fits (callers refuse records larger than a file), so this ends after
  // a roll; a wait for a deferred write lets other puts in, hence a few more rounds.
  for (int round = 0; round < 8; ++round) {
    APOGEE_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, files_.LastFileOrCreate(0));
    const int64_t pos = AppendPositionLocked(*file);
    const int64_t remaining = file->file_size() - pos;
    if (bytes + kEndFileMinBlankLength <= remaining) return file;
    if (deferred_in_flight_ || !deferred_.bytes.empty()) {
      // The BLANK goes after the deferred records: write them first, then look again.
      APOGEE_RETURN_IF_ERROR(WriteDeferredLocked(lock, released));
      continue;
    }
    // Never split a record: end the file with a BLANK and move on to the next one.
    file->BeginWrite(file->file_size());
    message::EncodeBlank(file->data() + pos, static_cast<int32_t>(remaining));
    file->set_wrote_position(file->file_size());
  }
  return Status::Internal(fmt::format("no CommitLog file holds {} bytes", bytes));
}

bool CommitLog::DefersPut(WriteMode mode) {
  if (!WritesThroughFile()) return false;
  if (config_.flush_type() == FlushDiskType::kSyncFlush) return mode == WriteMode::kWithNextFlush;
  // ASYNC_FLUSH: a put on a thread inside a wake-up batch (the IO thread, for the requests
  // of one read) leaves its record for the batch's end, which writes them all with one pwrite
  // before the read's answers leave (the connection sends none when that write fails).
  return ScopedWakeupBatch::DeferAction(
      this, [](void* log) { return static_cast<CommitLog*>(log)->WriteDeferred().ok(); });
}

bool CommitLog::ReadyToPutLocked(std::unique_lock<std::mutex>& lock, bool defer, bool* released) {
  if (!deferred_error_.ok()) return false;
  // Records written now go after every deferred one.
  if (defer || !WritesThroughFile()) return true;
  return WriteDeferredLocked(lock, released).ok();
}

bool CommitLog::BoundDeferredLocked(std::unique_lock<std::mutex>& lock, bool* released) {
  // The group commit fell behind: write what is deferred here rather than grow further.
  if (static_cast<int64_t>(deferred_.bytes.size()) <= kMaxDeferredBytes) return true;
  return WriteDeferredLocked(lock, released).ok();
}

int64_t CommitLog::AppendPositionLocked(const MappedFile& file) const {
  if (deferred_.file.get() == &file && !deferred_.bytes.empty()) {
    return deferred_.pos + static_cast<int64_t>(deferred_.bytes.size());
  }
  if (deferred_in_flight_ && in_flight_file_ == &file) return in_flight_end_;
  return file.wrote_position();
}

CommitLog::QueueTable::iterator CommitLog::QueueEntryLocked(std::string_view key) {
  auto it = queue_table_.find(key);
  if (it == queue_table_.end()) it = queue_table_.emplace(std::string(key), 0).first;
  return it;
}

uint8_t* CommitLog::EncodeTargetLocked(const std::shared_ptr<MappedFile>& file, int64_t pos,
                                       int64_t bytes, bool defer) {
  if (!WritesThroughFile()) {
    file->BeginWrite(pos + bytes);  // encoded in place: keep the pre-writer off these pages
    return file->data() + pos;
  }
  if (!defer) {
    write_buffer_.resize(static_cast<size_t>(bytes));
    return reinterpret_cast<uint8_t*>(write_buffer_.data());
  }
  if (deferred_.bytes.empty()) {
    deferred_.file = file;
    deferred_.pos = pos;
    if (deferred_.bytes.capacity() == 0) deferred_.bytes.reserve(256 << 10);
  }
  // Announced now, though written later: keeps the pre-writer off these pages meanwhile.
  file->BeginWrite(pos + bytes);
  const size_t at = deferred_.bytes.size();
  deferred_.bytes.resize(at + static_cast<size_t>(bytes));
  return reinterpret_cast<uint8_t*>(deferred_.bytes.data() + at);
}

Status CommitLog::WriteEncodedLocked(MappedFile& file, int64_t pos, int64_t bytes) {
  if (!WritesThroughFile()) return Status::OK();
  return file.WriteAt(pos, std::string_view(write_buffer_.data(), static_cast<size_t>(bytes)));
}

Status CommitLog::WriteDeferredLocked(std::unique_lock<std::mutex>& lock, bool* released) {
  if (deferred_in_flight_) {
    *released = true;
    deferred_written_.wait(lock, [this] { return !deferred_in_flight_; });
  }
  if (!deferred_error_.ok()) return deferred_error_;
  if (deferred_.bytes.empty()) return Status::OK();
  MappedFile& file = *deferred_.file;
  PublishDeferredLocked(file, deferred_.pos, deferred_.bytes,
                        file.WriteAt(deferred_.pos, deferred_.bytes));
  ReleaseDeferred(&deferred_);
  return deferred_error_;
}

Status CommitLog::WriteDeferred() {
  std::unique_lock<std::mutex> lock(put_mu_);
  if (!WritesThroughFile()) return Status::OK();
  deferred_written_.wait(lock, [this] { return !deferred_in_flight_; });
  if (!deferred_error_.ok()) return deferred_error_;
  if (deferred_.bytes.empty()) return Status::OK();
  // Take the chunk and write it outside the lock: puts keep deferring into the spare buffer
  // meanwhile, after the chunk's end (AppendPositionLocked), and nobody else writes or
  // publishes this file until the chunk is published (WriteDeferredLocked waits for it).
  DeferredRecords chunk = std::move(deferred_);
  deferred_ = DeferredRecords{};
  deferred_.bytes.swap(spare_deferred_);
  deferred_in_flight_ = true;
  in_flight_file_ = chunk.file.get();
  in_flight_end_ = chunk.pos + static_cast<int64_t>(chunk.bytes.size());
  lock.unlock();
  Status written = chunk.file->WriteAt(chunk.pos, chunk.bytes);
  lock.lock();
  PublishDeferredLocked(*chunk.file, chunk.pos, chunk.bytes, written);
  // Records deferred after a chunk that failed can never be published in order: dropped too.
  if (!written.ok()) ReleaseDeferred(&deferred_);
  deferred_in_flight_ = false;
  in_flight_file_ = nullptr;
  ReleaseDeferred(&chunk);
  spare_deferred_.swap(chunk.bytes);
  lock.unlock();
  deferred_written_.notify_all();
  return deferred_error_;
}

void CommitLog::PublishDeferredLocked(MappedFile& file, int64_t pos, std::string_view bytes,
                                      const Status& written) {
  if (written.ok()) {
    file.set_wrote_position(pos + static_cast<int64_t>(bytes.size()));
    return;
  }
  deferred_error_ = written.Prefixed("writing deferred CommitLog records");
  GetLogger("store")->error("{}; refusing further puts", deferred_error_.ToString());
}

void CommitLog::ReleaseDeferred(DeferredRecords* records) {
  // The buffer is kept for the next records, unless a lagging flush made it big: a group
  // commit of 256 sends takes about 300 KiB, and an idle store should not hold megabytes
  // for a past burst.
  records->bytes.clear();
  if (records->bytes.capacity() > kKeptDeferredCapacity) std::string().swap(records->bytes);
  records->file.reset();
}

int64_t CommitLog::DeferredBytes() const {
  std::lock_guard<std::mutex> lock(put_mu_);
  return static_cast<int64_t>(deferred_.bytes.size());
}

PutResult CommitLog::AppendBatch(std::vector<message::RecordFields> batch, WriteMode mode) {
  static const auto log = GetLogger("store");
  if (batch.empty()) return Refuse(PutStatus::kMessageIllegal);
  const std::string_view topic = batch.front().topic;
  const int32_t queue_id = batch.front().queue_id;
  if (topic.empty() || topic.size() > message::kMaxTopicLengthV1 ||
      !IsIndexableQueue(topic, queue_id)) {
    log->warn("batch refused: topic '{}' queue {} cannot have a ConsumeQueue", topic, queue_id);
    return Refuse(PutStatus::kMessageIllegal);
  }
  int64_t total = 0;
  int64_t bodies = 0;
  std::vector<int64_t> sizes;
  sizes.reserve(batch.size());
  for (message::RecordFields& f : batch) {
    if (f.topic != topic || f.queue_id != queue_id) {
      log->warn("batch refused: messages for {}-{} and {}-{} mixed", topic, queue_id, f.topic,
                f.queue_id);
      return Refuse(PutStatus::kMessageIllegal);
    }
    if ((f.sys_flag & message::kTransactionTypeMask) != message::kTransactionNotType) {
      log->warn("batch refused: transactional messages cannot be batched");
      return Refuse(PutStatus::kMessageIllegal);
    }
    if (message::PropertiesSize(f) > message::kMaxPropertiesLength) {
      return Refuse(PutStatus::kPropertiesSizeExceeded);
    }
    Result<size_t> size = message::RecordSize(f);
    if (!size.ok()) {
      log->warn("batch refused: {}", size.status().ToString());
      return Refuse(PutStatus::kMessageIllegal);
    }
    bodies += static_cast<int64_t>(f.body.size());
    sizes.push_back(static_cast<int64_t>(*size));
    total += static_cast<int64_t>(*size);
    if (!f.body_crc) f.body_crc = Crc32Masked(f.body.data(), f.body.size());
  }
  if (bodies > config_.max_message_size ||
      total + kEndFileMinBlankLength > files_.file_size()) {
    log->warn("batch refused: {} bytes of bodies ({} of records); maxMessageSize is {}", bodies,
              total, config_.max_message_size);
    return Refuse(PutStatus::kMessageIllegal);
  }
  const bool defer = DefersPut(mode);
  QueueKey key(topic, queue_id);

  std::unique_lock<std::mutex> lock(put_mu_);
  bool released = false;
  if (!ReadyToPutLocked(lock, defer, &released)) return Refuse(PutStatus::kUnknownError);
  const int64_t now = clock_->NowMillis();
  auto it = QueueEntryLocked(key.view());
  if (!AdmitLocked(it->second, static_cast<int64_t>(batch.size()), now)) {
    return Refuse(PutStatus::kServiceNotAvailable);
  }
  Result<std::shared_ptr<MappedFile>> file_or = FileWithRoomLocked(lock, total, &released);
  if (!file_or.ok()) {
    log->error("cannot create a CommitLog file: {}", file_or.status().ToString());
    return Refuse(PutStatus::kCreateMappedFileFailed);
  }
  if (released) it = QueueEntryLocked(key.view());
  MappedFile& file = **file_or;
  const int64_t start = AppendPositionLocked(file);
  const int64_t first_queue_offset = it->second;
  int64_t pos = start;
  uint8_t* const target = EncodeTargetLocked(*file_or, start, total, defer);
  for (size_t i = 0; i < batch.size(); ++i) {
    message::RecordFields& f = batch[i];
    f.queue_offset = first_queue_offset + static_cast<int64_t>(i);
    f.physical_offset = file.start_offset() + pos;
    f.store_timestamp = now;
    Result<size_t> wrote = message::EncodeRecord(f, target + (pos - start),
                                                 static_cast<size_t>(total - (pos - start)));
    if (!wrote.ok()) {
      log->error("encoding a batch record failed after validation: {}", wrote.status().ToString());
      if (defer) deferred_.bytes.resize(deferred_.bytes.size() - static_cast<size_t>(total));
      return Refuse(PutStatus::kUnknownError);  // nothing published: the position is unchanged
    }
    pos += sizes[i];
  }
  if (!defer) {
    if (Status written = WriteEncodedLocked(file, start, total); !written.ok()) {
      log->error("batch refused: writing the records failed: {}", written.ToString());
      return Refuse(PutStatus::kUnknownError);  // nothing published: the position is unchanged
    }
    // Published at once: readers never see half a batch (deferred: the chunk holds it whole).
    file.set_wrote_position(pos);
  }
  it->second += static_cast<int64_t>(batch.size());
  last_store_timestamp_.store(now, std::memory_order_relaxed);
  if (!BoundDeferredLocked(lock, &released)) return Refuse(PutStatus::kUnknownError);
  PutResult r;
  r.status = PutStatus::kPutOk;
  r.wrote_offset = PhyOffset(file.start_offset() + start);
  r.wrote_bytes = static_cast<int32_t>(total);
  r.queue_offset = QueueOffset(first_queue_offset);
  r.msg_num = static_cast<int32_t>(batch.size());
  r.store_timestamp = now;
  return r;
}

int64_t CommitLog::NewConsumeQueueFiles(int64_t first_queue_offset, int64_t count) const {
  if (first_queue_offset < 0 || count <= 0) return 0;
  // A ConsumeQueue file starts at every multiple of its entry count.
  const int64_t per = cq_entries_per_file_;
  const int64_t last = first_queue_offset + count - 1;
  return last / per - (first_queue_offset + per - 1) / per + 1;
}

bool CommitLog::AdmitLocked(int64_t first_queue_offset, int64_t count, int64_t now_ms) {
  if (disk_guard_ == nullptr) return true;
  return disk_guard_->Admit(NewConsumeQueueFiles(first_queue_offset, count), now_ms);
}

Status CommitLog::AppendRaw(int64_t offset, std::string_view data) {
  std::unique_lock<std::mutex> lock(put_mu_);
  // A master turned replica may still hold deferred records: they come first.
  bool released = false;
  APOGEE_RETURN_IF_ERROR(WriteDeferredLocked(lock, &released));
  int64_t max = files_.MaxOffset();
  if (!files_.empty() && offset != max) {
    return Status::InvalidArgument(fmt::format(
        "raw append at {} but the CommitLog ends at {}; replicas must append contiguously",
        offset, max));
  }
  while (!data.empty()) {
    APOGEE_ASSIGN_OR_RETURN(auto file, files_.LastFileOrCreate(offset));
    if (file->start_offset() + file->wrote_position() != offset) {
      return Status::InvalidArgument(
          fmt::format("raw append at {} does not continue file {}", offset, file->path()));
    }
    size_t n = static_cast<size_t>(std::min<int64_t>(file->remaining(),
                                                     static_cast<int64_t>(data.size())));
    file->Append(data.substr(0, n));
    data.remove_prefix(n);
    offset += static_cast<int64_t>(n);
  }
  return Status::OK();
}

Result<SelectedBuffer> CommitLog::GetRecord(int64_t offset, int32_t size) const {
  std::shared_ptr<MappedFile> file = files_.FindFileByOffset(offset);
  if (!file) {
    return Status::NotFound(fmt::format("CommitLog offset {} is not in any file", offset));
  }
  const uint8_t* data = RecordIn(*file, offset, size);
  if (data == nullptr) {
    return Status::NotFound(
        fmt::format("CommitLog range [{}, {}) is not written", offset, offset + size));
  }
  SelectedBuffer b;
  b.data = data;
  b.size = static_cast<size_t>(size);
  b.phy_offset = offset;
  b.file = std::move(file);
  return b;
}

const uint8_t* CommitLog::RecordIn(const MappedFile& file, int64_t offset, int32_t size) {
  const int64_t pos = offset - file.start_offset();
  if (size <= 0 || pos < 0 || pos + size > file.wrote_position()) return nullptr;
  return file.data() + pos;
}

Result<SelectedBuffer> CommitLog::GetData(int64_t offset) const {
  std::shared_ptr<MappedFile> file = files_.FindFileByOffset(offset);
  if (!file) {
    return Status::NotFound(fmt::format("CommitLog offset {} is not in any file", offset));
  }
  int64_t pos = offset - file->start_offset();
  int64_t end = file->wrote_position();
  if (pos >= end) {
    return Status::NotFound(fmt::format("nothing written at CommitLog offset {}", offset));
  }
  SelectedBuffer b;
  b.data = file->data() + pos;
  b.size = static_cast<size_t>(end - pos);
  b.phy_offset = offset;
  b.file = std::move(file);
  return b;
}

message::RecordDecodeResult CommitLog::DecodeAt(int64_t offset, bool read_body,
                                                std::shared_ptr<MappedFile>* holder) const {
  std::shared_ptr<MappedFile> file = files_.FindFileByOffset(offset);
  if (!file) return message::RecordDecodeResult{};  // kEndOfData
  int64_t pos = offset - file->start_offset();
  int64_t end = file->wrote_position();
  message::DecodeOptions options;
  options.read_body = read_body;
  message::RecordDecodeResult r =
      message::DecodeRecord(file->data() + pos, static_cast<size_t>(std::max<int64_t>(end - pos, 0)),
                            options);
  if (holder) *holder = std::move(file);
  return r;
}

int64_t CommitLog::RollNextFile(int64_t offset) const {
  int64_t size = files_.file_size();
  return offset + size - offset % size;
}

int64_t CommitLog::MinOffset() const { return files_.MinOffset(); }

std::optional<int64_t> CommitLog::FirstStoreTimestampOfFile(const MappedFile& file) const {
  message::DecodeOptions options;
  options.read_body = false;
  message::RecordDecodeResult r =
      message::DecodeRecord(file.data(), static_cast<size_t>(file.file_size()), options);
  if (r.status != message::RecordStatus::kMessage || r.record.store_timestamp == 0) {
    return std::nullopt;
  }
  return r.record.store_timestamp;
}

int64_t CommitLog::NormalRecoveryStart(int64_t dispatched_offset) const {
  std::vector<std::shared_ptr<MappedFile>> files = files_.Files();
  if (files.empty()) return 0;
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    if ((*it)->start_offset() <= dispatched_offset) return (*it)->start_offset();
  }
  return files.front()->start_offset();
}

int64_t CommitLog::AbnormalRecoveryStart(int64_t min_timestamp) const {
  std::vector<std::shared_ptr<MappedFile>> files = files_.Files();
  if (files.empty()) return 0;
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    std::optional<int64_t> ts = FirstStoreTimestampOfFile(**it);
    if (ts && *ts <= min_timestamp) return (*it)->start_offset();
  }
  return files.front()->start_offset();
}

Result<RecoveryScan> CommitLog::Recover(
    int64_t start_offset,
    const std::function<Status(const message::RecordView&, int64_t)>& on_record) {
  RecoveryScan scan;
  scan.start_offset = start_offset;
  scan.end_offset = start_offset;
  std::vector<std::shared_ptr<MappedFile>> files = files_.Files();
  if (files.empty()) {
    scan.stop_reason = "no CommitLog files";
    return scan;
  }
  message::DecodeOptions options;
  options.check_crc = config_.check_crc_on_recover;
  options.read_body = config_.check_crc_on_recover;
  options.max_record_size =
      static_cast<size_t>(int64_t{config_.max_message_size} + kMaxRecordOverhead);
  auto log = GetLogger("store");
  int64_t offset = start_offset;
  bool stopped = false;
  bool bad_tail = false;
  const int64_t begin_ms = SteadyMillis();
  RecoveryProgress progress(start_offset, files_.MaxOffset(), Clock::Real());
  for (const auto& file : files) {
    if (file->start_offset() + file->file_size() <= offset) continue;
    if (file->start_offset() > offset) {
      scan.stop_reason = fmt::format("file {} does not follow offset {}", file->path(), offset);
      break;
    }
    int64_t pos = offset - file->start_offset();
    log->info("recovering CommitLog file {} from position {}", file->path(), pos);
    while (true) {
      message::RecordDecodeResult r = message::DecodeRecord(
          file->data() + pos, static_cast<size_t>(file->file_size() - pos), options);
      if (r.status == message::RecordStatus::kMessage &&
          r.record.physical_offset != file->start_offset() + pos) {
        r.status = message::RecordStatus::kCorrupt;
        r.reason = fmt::format("record claims physical offset {} but sits at {}",
                               r.record.physical_offset, file->start_offset() + pos);
      }
      if (r.status == message::RecordStatus::kMessage) {
        APOGEE_RETURN_IF_ERROR(on_record(r.record, file->start_offset() + pos));
        pos += static_cast<int64_t>(r.size);
        progress.Update(file->start_offset() + pos);
        ++scan.records;
        scan.last_store_timestamp = r.record.store_timestamp;
        continue;
      }
      if (r.status == message::RecordStatus::kBlank) {
        pos = file->file_size();
        break;
      }
      stopped = true;
      // A record cut short by a crash (or a bad one): its bytes are zeroed below, so the
      // file on disk ends where the log ends and `mqstore verify` finds no half record.
      bad_tail = r.status != message::RecordStatus::kEndOfData;
      scan.stop_reason =
          r.status == message::RecordStatus::kEndOfData
              ? "end of data"
              : fmt::format("{} at offset {}: {}", message::RecordStatusName(r.status),
                            file->start_offset() + pos, r.reason);
      break;
    }
    offset = file->start_offset() + pos;
    if (stopped) break;
  }
  if (!stopped && scan.stop_reason.empty()) scan.stop_reason = "end of the last file";
  scan.end_offset = offset;
  scan.bytes = offset - start_offset;
  int64_t cut = files_.MaxOffset() - offset;
  if (scan.stop_reason.rfind("end of", 0) != 0) {
    log->warn("CommitLog recovery stopped: {}; cutting {} bytes after offset {}",
              scan.stop_reason, cut, offset);
  }
  // Zeroing scans the rest of the file, so only when there is a bad record to erase (a
  // clean stop at zeros costs nothing).
  APOGEE_RETURN_IF_ERROR(files_.TruncateDirtyFiles(offset, /*zero_tail=*/bad_tail));
  int64_t elapsed = std::max<int64_t>(SteadyMillis() - begin_ms, 1);
  log->info("CommitLog recovered: {} records, {} bytes from {} to {} in {} ms ({:.1f} MB/s)",
            scan.records, scan.bytes, start_offset, offset, elapsed,
            static_cast<double>(scan.bytes) / 1e3 / static_cast<double>(elapsed));
  if (scan.last_store_timestamp > 0) last_store_timestamp_.store(scan.last_store_timestamp);
  return scan;
}

void CommitLog::SetQueueOffset(std::string_view topic, int32_t queue_id, int64_t next_offset) {
  QueueKey key(topic, queue_id);
  std::lock_guard<std::mutex> lock(put_mu_);
  auto it = queue_table_.find(key.view());
  if (it == queue_table_.end()) {
    queue_table_.emplace(std::string(key.view()), next_offset);
  } else {
    it->second = next_offset;
  }
}

int64_t CommitLog::GetQueueOffset(std::string_view topic, int32_t queue_id) const {
  QueueKey key(topic, queue_id);
  std::lock_guard<std::mutex> lock(put_mu_);
  auto it = queue_table_.find(key.view());
  return it == queue_table_.end() ? 0 : it->second;
}

void CommitLog::RemoveQueueOffsets(std::string_view topic) {
  std::string prefix = std::string(topic) + "-";
  std::lock_guard<std::mutex> lock(put_mu_);
  for (auto it = queue_table_.begin(); it != queue_table_.end();) {
    if (it->first.compare(0, prefix.size(), prefix) == 0 &&
        it->first.find_first_not_of("0123456789", prefix.size()) == std::string::npos) {
      it = queue_table_.erase(it);
    } else {
      ++it;
    }
  }
}

Result<int> CommitLog::DeleteExpiredFiles(int64_t expire_before_ms, int max_files, bool force) {
  std::vector<std::shared_ptr<MappedFile>> files = files_.Files();
  size_t n = 0;
  // The newest file is never deleted. A file was last written when the next one got its
  // first record, which stands in for Java's file modification time.
  while (n + 1 < files.size() && static_cast<int>(n) < max_files) {
    std::optional<int64_t> last_write = FirstStoreTimestampOfFile(*files[n + 1]);
    if (!force && (!last_write || *last_write >= expire_before_ms)) break;
    ++n;
  }
  if (n == 0) return 0;
  GetLogger("store")->info("deleting {} expired CommitLog file(s) from {}{}", n,
                           files.front()->path(), force ? " (forced: disk nearly full)" : "");
  APOGEE_RETURN_IF_ERROR(files_.DeleteFirstFiles(n));
  return static_cast<int>(n);
}

}  // namespace apogee::store
