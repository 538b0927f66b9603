// MappedFile: one fixed-size, memory-mapped store file (CommitLog or ConsumeQueue segment),
// named by the 20-digit offset of its first byte. Mirrors Java's MappedFile without the
// transient store pool.
//
// Positions: wrote (bytes appended, published with release semantics so a reader that loads
// it sees the bytes) >= flushed (bytes made durable). Writers are serialized by the owner
// (CommitLog's put lock, the reput thread for a ConsumeQueue); readers on any thread may read
// [0, wrote_position()) concurrently. Flush() may run on another thread than the writer.
//
// Lifetime: held by shared_ptr. A reader keeps a file alive (and its mapping valid) by holding
// the shared_ptr even after retention has removed the file from its queue and deleted it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "base/status.h"
#include "env/env.h"

namespace apogee::store {

class MappedFile {
 public:
  // Creates (or reuses an existing file of the right size at) `path`, reserves `size` bytes
  // and maps it. Fails with kNoSpace when the disk cannot hold it.
  static Result<std::shared_ptr<MappedFile>> Create(env::Env* env, const std::string& path,
                                                    int64_t start_offset, int64_t size);
  // Opens an existing file, which must be exactly `size` bytes (Java refuses other sizes).
  // Positions start at the end (a loaded file counts as full until recovery says otherwise).
  static Result<std::shared_ptr<MappedFile>> Open(env::Env* env, const std::string& path,
                                                  int64_t start_offset, int64_t size);

  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  // The file name for a start offset: 20 digits, zero-padded.
  static std::string FileNameOf(int64_t start_offset);
  // The start offset a file name denotes; InvalidArgument unless it is 20 digits.
  static Result<int64_t> ParseFileName(std::string_view name);

  const std::string& path() const { return path_; }
  int64_t start_offset() const { return start_offset_; }
  int64_t file_size() const { return file_size_; }
  uint8_t* data() { return region_->data(); }
  const uint8_t* data() const { return region_->data(); }

  int64_t wrote_position() const { return wrote_position_.load(std::memory_order_acquire); }
  int64_t flushed_position() const { return flushed_position_.load(std::memory_order_acquire); }
  // Publishes bytes already stored through data(). Only the single writer calls this.
  void set_wrote_position(int64_t pos) { wrote_position_.store(pos, std::memory_order_release); }
  // Used by recovery and truncation: both positions to `pos`.
  void ResetPositions(int64_t pos);
  bool IsFull() const { return wrote_position() >= file_size_; }
  int64_t remaining() const { return file_size_ - wrote_position(); }

  // Copies `bytes` at the write position and publishes it. False when it does not fit.
  bool Append(std::string_view bytes);
  // Writes `bytes` at `pos` through the file (pwrite), not through the mapping, which sees
  // them all the same (one page cache). Publishes nothing: the single writer sets the write
  // position once the write succeeded.
  Status WriteAt(int64_t pos, std::string_view bytes);

  // Makes [flushed, wrote) durable if at least `least_pages` 4 KiB pages are dirty (a full
  // file or least_pages == 0 flushes any dirty byte). Returns the flushed position. An error
  // leaves the flushed position where it was.
  Result<int64_t> Flush(int least_pages);
  // Pre-writing: zeros written ahead of the writer so that appends land in allocated, written
  // blocks and fdatasync stays cheap (issue 13 first measured ~85 µs against ~4 ms into fresh
  // blocks; on 2026-12-03 the same VM showed no difference: docs/operations/disk.md). One thread
  // (the FileAllocator) pre-writes while the single writer appends; they never touch the same
  // page (see BeginWrite).
  //
  // Writes zeros from the first whole page past everything written, announced or pre-written,
  // up to `to` (rounded up to a page, at most the file size), `step` bytes at a time, then
  // fdatasyncs them. A writer closer than `gap` to where pre-writing would start is overtaken:
  // pre-writing starts `gap` past it rather than make it wait. Written one 4 KiB page per write,
  // so the page cache holds the file in 4 KiB folios (see SetWriteTailPageByPage). Writes and
  // syncs through a descriptor of its own: an fdatasync reports a writeback error once per open
  // file description, so the flush path's own descriptor still sees any error of the records.
  //
  // kPageCacheOnly (ASYNC_FLUSH): each step is one write and nothing is synced; the zeros only
  // put the pages into the page cache before the writer reaches them. On the test VM a write
  // fault into never-written (fallocated) blocks zero-fills readahead folios at ~3.5 µs per
  // 1.1 KiB record, against ~0.2 µs for the write() that pre-fills them plus ~0.2 µs for the
  // writer's stores afterwards (docs/benchmarks.md, "ASYNC_FLUSH: the page cache filled ahead
  // of the writer"). The flush syncs only the range written, so the zeros ahead are not
  // written to disk unless the writer takes longer than the kernel's dirty expiry to reach them.
  enum class PreWriteMode { kSyncedPageByPage, kPageCacheOnly };
  Status PreWrite(int64_t to, int64_t step = kPreWriteStep, int64_t gap = kPreWriteGap,
                  PreWriteMode mode = PreWriteMode::kSyncedPageByPage);
  // [0, warmed_position()) was pre-written (0 for a file not pre-written).
  int64_t warmed_position() const { return warmed_to_.load(std::memory_order_acquire); }
  // The end of what the writer has written or announced (BeginWrite).
  int64_t writer_position() const;
  // Closes the pre-writer's descriptor (when the file is pre-written to its end or no longer
  // the one written). Only the pre-writing thread calls it.
  void EndPreWrite();
  // The writer calls this before it stores any byte below `end` (through data() or WriteAt):
  // it announces `end` and waits while a pre-write step covers those bytes. A pre-writer that
  // sees the announcement skips past it instead, so the wait is rare and at most one step.
  void BeginWrite(int64_t end);
  // The writer's cue to wake the pre-writer: true once when the write position reaches the
  // trigger set by the pre-writer (single writer; the pre-writer re-arms it).
  bool TakePreWriteTrigger(int64_t write_position);
  void ArmPreWriteTrigger(int64_t position) {
    prewrite_trigger_.store(position, std::memory_order_release);
  }

  static constexpr int64_t kPreWriteStep = 256 << 10;
  static constexpr int64_t kPreWriteGap = 1 << 20;
  // Under SYNC_FLUSH every record is synced alone or in a small group, and Linux writes back
  // whole page-cache folios (up to 2 MiB on ext4 since 6.16; env::MappedRegion::Advise): `on`
  // makes the part not yet written, from the page holding the write position on, fault in
  // page by page (no readahead, 4 KiB folios), so a sync writes the pages it covers and no
  // more; `off` gives the whole file back to normal readahead (once it is full and only read).
  Status SetWriteTailPageByPage(bool on);
  // Where the page-by-page part starts, or -1 when the file is under normal readahead.
  int64_t page_by_page_from() const { return page_by_page_from_.load(std::memory_order_relaxed); }

  // Zeroes [pos, file_size) where it is not zero already and makes it durable (after a
  // truncation, so cut-off bytes cannot be mistaken for data later).
  Status ZeroFrom(int64_t pos);

  // Closes and deletes the file. The mapping stays readable for holders of this object.
  Status Destroy();
  bool destroyed() const { return destroyed_.load(); }

 private:
  MappedFile(env::Env* env, std::string path, int64_t start_offset, int64_t size,
             std::unique_ptr<env::RandomRWFile> file, std::unique_ptr<env::MappedRegion> region);

  bool IsAbleToFlush(int least_pages) const;

  env::Env* env_;
  std::string path_;
  int64_t start_offset_;
  int64_t file_size_;
  std::unique_ptr<env::RandomRWFile> file_;
  std::unique_ptr<env::MappedRegion> region_;
  std::atomic<int64_t> wrote_position_{0};
  std::atomic<int64_t> flushed_position_{0};
  std::mutex flush_mu_;  // one flusher at a time
  std::atomic<bool> destroyed_{false};
  std::atomic<int64_t> page_by_page_from_{-1};
  // Pre-writing handshake (both sides sequentially consistent, so at least one of the two sees
  // the other's announcement): the writer stores writing_to_ then reads warming_from_; the
  // pre-writer stores warming_from_ then reads writing_to_.
  std::atomic<int64_t> writing_to_{0};
  std::atomic<int64_t> warming_from_{-1};  // start of the step being pre-written, or -1
  std::atomic<int64_t> warmed_to_{0};
  std::atomic<int64_t> prewrite_trigger_{INT64_MAX};
  std::unique_ptr<env::RandomRWFile> prewrite_file_;  // only the pre-writing thread
};

}  // namespace apogee::store
