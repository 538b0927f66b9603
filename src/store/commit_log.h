// CommitLog: the single append-only log every message is written to, as RocketMQ's
// CommitLog (docs/protocol/store_ha.md §1.5, §1.6, §5.2). Records are encoded straight into the
// mapped file under one short put lock, which also assigns the queue offset and store
// timestamp; a record that does not fit (with 8 bytes to spare) is preceded by a BLANK
// filler that ends the file.
//
// Thread-safety: Append may be called from any number of threads (serialized by the put
// lock). Reads by physical offset may run concurrently with appends: a record is visible
// once the file's write position (published with release order) covers it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "env/env.h"
#include "message/message_record.h"
#include "store/mapped_file_queue.h"
#include "store/put_status.h"
#include "store/store_config.h"

namespace apogee::store {

class FileAllocator;

// A byte range of the CommitLog that stays readable while this object lives (it holds the
// mapped file). Send it without copying.
struct SelectedBuffer {
  std::shared_ptr<MappedFile> file;
  const uint8_t* data = nullptr;
  size_t size = 0;
  int64_t phy_offset = 0;
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(data), size);
  }
};

// Outcome of scanning the CommitLog during recovery.
struct RecoveryScan {
  int64_t start_offset = 0;  // where the scan began
  int64_t end_offset = 0;    // end of the last valid record: everything after is cut
  int64_t records = 0;
  int64_t bytes = 0;
  int64_t last_store_timestamp = 0;
  std::string stop_reason;  // why the scan stopped (end of data, torn tail, corruption)
};

class DiskGuard;

class CommitLog {
 public:
  CommitLog(env::Env* env, const StoreConfig& config, const Clock* clock,
            FileAllocator* allocator);
  CommitLog(const CommitLog&) = delete;
  CommitLog& operator=(const CommitLog&) = delete;

  // Opens the files; every file counts as full until a recovery sets the real end.
  Status Load();
  // From now on every append asks `guard` first (under the put lock, with the number of
  // ConsumeQueue files the message starts) and is refused with SERVICE_NOT_AVAILABLE when
  // the disk cannot hold what the store must create for it. Set before writes begin.
  void set_disk_guard(DiskGuard* guard) { disk_guard_ = guard; }

  // Appends one message. `fields` gives everything but the queue offset, physical offset and
  // store timestamp, which are assigned here. Validates sizes first (MESSAGE_ILLEGAL,
  // PROPERTIES_SIZE_EXCEEDED). Returns as soon as the bytes are in the page cache (or, for a
  // deferred put, below, in the deferred buffer); the flush policy is the caller's.
  //
  // How the bytes get there: the record is encoded into a buffer and written with pwrite
  // (ASYNC_FLUSH with writeCommitLogThroughFileOnAsyncFlush=false: encoded straight into the
  // mapped file). Every msync cleans the pages it writes back, which write-protects them in every
  // thread's page tables (a TLB shootdown across cores) and makes the next store into the same
  // page fault again; written with pwrite, the pages are never mapped writable, so a sync finds
  // no mapping to clean. Measured with the peer harness (1 KiB, 256 in flight, fresh broker,
  // two interleaved pairs): 38k -> 64k msgs/s and 41 -> 20 us of broker CPU per message
  // (docs/benchmarks.md, "SYNC_FLUSH: records written with pwrite"). A failed write refuses
  // the put (UNKNOWN_ERROR) and publishes nothing; the next put writes over the same place.
  //
  // The same holds under ASYNC_FLUSH, whose periodic flush cleaned every page the IO thread
  // had stored into, with an inter-processor interrupt per page (docs/benchmarks.md,
  // "ASYNC_FLUSH: records written with pwrite").
  //
  // ASYNC_FLUSH, through the file: a put on a thread inside a ScopedWakeupBatch (the IO
  // thread, for the requests of one read) leaves its record in the deferred buffer, whatever
  // `mode`, and registers WriteDeferred for the batch's end, which runs before the read's
  // answers are written: one pwrite per read instead of one per put, and an ack still means
  // the record is in the page cache. When that write fails the batch fails and the
  // connection closes without sending the read's answers (remoting/connection.cc).
  //
  // kWithNextFlush (SYNC_FLUSH; under ASYNC_FLUSH only the batch decides): the put will wait for
  // the group commit anyway, so its encoded record stays in a buffer and the next flush
  // writes every such record with one pwrite before its fdatasync (WriteDeferred). The put
  // gets its offsets now; the record is readable once written, which under SYNC_FLUSH is
  // before anything reads it (reads stop at the flushed offset). This takes a pwrite per
  // message off the request thread (docs/benchmarks.md, "SYNC_FLUSH: records written by the
  // group commit"). A failed write of deferred records cannot be undone record by record: it
  // refuses every later put (UNKNOWN_ERROR) and fails the flush, which stops the store.
  enum class WriteMode { kNow, kWithNextFlush };
  PutResult Append(message::RecordFields fields, WriteMode mode = WriteMode::kNow);
  // Appends a batch (SEND_BATCH_MESSAGE) as one unit: every message must have the same topic
  // and queue; they get consecutive queue offsets and are written back to back into one file
  // (a batch that does not fit goes whole to the next file). The bodies together may not
  // exceed maxMessageSize. The result describes the whole batch.
  PutResult AppendBatch(std::vector<message::RecordFields> batch, WriteMode mode = WriteMode::kNow);
  // Writes the records deferred by kWithNextFlush puts (one pwrite, outside the put lock, so
  // puts go on meanwhile) and publishes them. Called by every CommitLog flush before it syncs;
  // a no-op when nothing is deferred. An error is sticky (see Append).
  Status WriteDeferred();
  // Bytes of deferred records not yet written (tests).
  int64_t DeferredBytes() const;
  // Most bytes deferred at once before a put writes them itself (bounds the buffers).
  static constexpr int64_t kMaxDeferredBytes = 4 << 20;
  // Most buffer capacity kept for the next chunk once a chunk is written.
  static constexpr size_t kKeptDeferredCapacity = 1 << 20;

  // Slave/HA: writes raw CommitLog bytes at `offset`, which must equal MaxOffset(). Bytes
  // map 1:1 to files; a chunk may cross a file boundary.
  Status AppendRaw(int64_t offset, std::string_view data);

  // Reads the record at `offset` (a Java "selectMappedBuffer(offset, size)").
  Result<SelectedBuffer> GetRecord(int64_t offset, int32_t size) const;
  // The record's bytes when [offset, offset + size) lies in `file`'s written data, else null:
  // a reader that holds the file already skips GetRecord's file lookup (a lock and a
  // reference count per record).
  static const uint8_t* RecordIn(const MappedFile& file, int64_t offset, int32_t size);
  // Everything readable from `offset` to the end of its file's written data (HA transfer).
  Result<SelectedBuffer> GetData(int64_t offset) const;
  // Decodes the record at `offset` (BLANK and end of data included) without copying.
  message::RecordDecodeResult DecodeAt(int64_t offset, bool read_body,
                                       std::shared_ptr<MappedFile>* holder) const;
  // The start of the file after the one holding `offset` (to skip a BLANK).
  int64_t RollNextFile(int64_t offset) const;

  int64_t MinOffset() const;
  int64_t MaxOffset() const { return files_.MaxOffset(); }
  int64_t FlushedOffset() const { return files_.FlushedWhere(); }
  // Store timestamp of the last appended record (for the checkpoint).
  int64_t last_store_timestamp() const { return last_store_timestamp_.load(); }
  // Store timestamp of the first record of the file holding `offset`, or nullopt.
  std::optional<int64_t> FirstStoreTimestampOfFile(const MappedFile& file) const;

  // Flushes dirty pages (see MappedFileQueue::Flush); true when something was flushed.
  Result<bool> Flush(int least_pages) { return files_.Flush(least_pages); }

  // Recovery. Scans from `start_offset` validating every record (CRC when configured),
  // calls `on_record` for each message, and cuts the log at the end of the last valid one.
  // `start_offset` must be a file start (or the log's min offset).
  Result<RecoveryScan> Recover(int64_t start_offset,
                               const std::function<Status(const message::RecordView&,
                                                          int64_t phy_offset)>& on_record);
  // The start of the file to recover from after a clean exit: the newest file that starts at
  // or before `dispatched_offset` (everything before it is known good).
  int64_t NormalRecoveryStart(int64_t dispatched_offset) const;
  // The start of the file to recover from after a crash: the newest file whose first record
  // was stored at or before `min_timestamp`, else the first file.
  int64_t AbnormalRecoveryStart(int64_t min_timestamp) const;

  // Queue offset bookkeeping ("topic-queueId" -> next queue offset), set after recovery.
  void SetQueueOffset(std::string_view topic, int32_t queue_id, int64_t next_offset);
  int64_t GetQueueOffset(std::string_view topic, int32_t queue_id) const;
  void RemoveQueueOffsets(std::string_view topic);

  // Deletes the oldest files last written before `expire_before_ms` (all but the newest
  // file), at most `max_files`; `force` ignores the age. Returns files deleted.
  Result<int> DeleteExpiredFiles(int64_t expire_before_ms, int max_files, bool force);

  MappedFileQueue& files() { return files_; }
  const StoreConfig& config() const { return config_; }

  // How many ConsumeQueue files `count` entries from `first_queue_offset` start (-1: a
  // record without a queue offset, none).
  int64_t NewConsumeQueueFiles(int64_t first_queue_offset, int64_t count) const;

 private:
  bool AdmitLocked(int64_t first_queue_offset, int64_t count, int64_t now_ms);

  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  using QueueTable = std::unordered_map<std::string, int64_t, KeyHash, std::equal_to<>>;

  // The last CommitLog file, with room for `bytes` plus the BLANK filler: when the current
  // file cannot hold them, it is ended with a BLANK and the next one is created (a record or
  // a batch never spans two files); deferred records of the old file are written first.
  // Caller holds `lock` (on put_mu_); it is released while a deferred write in flight
  // finishes, and then *released is set (iterators into queue_table_ are stale). Errors
  // when no file can be created or a deferred write failed.
  Result<std::shared_ptr<MappedFile>> FileWithRoomLocked(std::unique_lock<std::mutex>& lock,
                                                         int64_t bytes, bool* released);
  // Where the next record of `file` goes: past the deferred records (pending or being
  // written) when they belong to it, else its write position. Caller holds put_mu_.
  int64_t AppendPositionLocked(const MappedFile& file) const;
  // Where a put encodes `bytes` of records that go to `file` at `pos`: the mapping itself,
  // (SYNC_FLUSH) write_buffer_, which WriteEncodedLocked then writes at `pos`, or (deferred)
  // the end of deferred_. Caller holds put_mu_.
  uint8_t* EncodeTargetLocked(const std::shared_ptr<MappedFile>& file, int64_t pos, int64_t bytes,
                              bool defer);
  Status WriteEncodedLocked(MappedFile& file, int64_t pos, int64_t bytes);
  // Waits (releasing `lock`, then *released is set) until no deferred write is in flight,
  // then writes and publishes what is deferred, under the lock. Caller holds `lock`.
  Status WriteDeferredLocked(std::unique_lock<std::mutex>& lock, bool* released);
  // A put's first step under the lock: false when it must be refused (a deferred write
  // failed before, or writing the deferred records ahead of a put written now failed).
  bool ReadyToPutLocked(std::unique_lock<std::mutex>& lock, bool defer, bool* released);
  // A deferring put's last step: writes the deferred records itself once they pass
  // kMaxDeferredBytes; false when that write failed.
  bool BoundDeferredLocked(std::unique_lock<std::mutex>& lock, bool* released);
  bool WritesThroughFile() const { return writes_through_file_; }
  // Whether a put in `mode` leaves its record in deferred_ (see WriteMode). Under ASYNC_FLUSH
  // it registers the write for the end of the calling thread's wake-up batch.
  bool DefersPut(WriteMode mode);
  // The queue_table_ entry of `key`, made when missing. Caller holds put_mu_.
  QueueTable::iterator QueueEntryLocked(std::string_view key);

  env::Env* env_;
  StoreConfig config_;
  const Clock* clock_;
  MappedFileQueue files_;
  mutable std::mutex put_mu_;
  QueueTable queue_table_;  // guarded by put_mu_
  std::string write_buffer_;  // guarded by put_mu_: the records of a SYNC_FLUSH put
  // Deferred records (guarded by put_mu_): bytes for `file` from `pos` on, not yet written.
  struct DeferredRecords {
    std::shared_ptr<MappedFile> file;
    int64_t pos = 0;
    std::string bytes;
  };
  // After a deferred write: publishes `bytes` written at `pos`, or keeps why they could not
  // be (sticky). Caller holds put_mu_.
  void PublishDeferredLocked(MappedFile& file, int64_t pos, std::string_view bytes,
                             const Status& written);
  // Empties `records`, keeping at most kKeptDeferredCapacity of its buffer.
  static void ReleaseDeferred(DeferredRecords* records);
  DeferredRecords deferred_;
  std::string spare_deferred_;       // the written chunk's buffer, kept for its capacity
  bool deferred_in_flight_ = false;  // a chunk is being written outside the lock
  const MappedFile* in_flight_file_ = nullptr;
  int64_t in_flight_end_ = 0;  // where the chunk in flight ends in that file
  Status deferred_error_;      // sticky: a deferred write failed
  std::condition_variable deferred_written_;
  DiskGuard* disk_guard_ = nullptr;
  const int64_t cq_entries_per_file_;
  // SYNC_FLUSH, and ASYNC_FLUSH unless writeCommitLogThroughFileOnAsyncFlush=false: records
  // are written with pwrite, not stored into the mapping.
  const bool writes_through_file_;
  std::atomic<int64_t> last_store_timestamp_{0};
};

}  // namespace apogee::store
