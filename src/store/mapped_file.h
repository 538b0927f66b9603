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
  // Writes zeros over the whole file and syncs it, so later appends land in allocated, written
  // blocks and fdatasync stays cheap. Only before the first append. Written one 4 KiB page per
  // write, so the page cache holds the file in 4 KiB folios (see SetWriteTailPageByPage).
  Status Warm();
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
};

}  // namespace apogee::store
