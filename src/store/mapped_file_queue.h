// MappedFileQueue: the ordered list of equally sized MappedFiles that make up one logical log
// (the CommitLog, or one ConsumeQueue), addressed by a 64-bit offset across files. Mirrors
// Java's MappedFileQueue.
//
// Thread-safety: the file list is guarded by a mutex; every method may be called from any
// thread. Appending into the last file is the owner's job (one writer at a time).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "env/env.h"
#include "store/mapped_file.h"

namespace apogee::store {

class FileAllocator;

class MappedFileQueue {
 public:
  // `allocator` (may be null) pre-creates the next file in the background.
  MappedFileQueue(env::Env* env, std::string dir, int64_t file_size,
                  FileAllocator* allocator = nullptr);
  MappedFileQueue(const MappedFileQueue&) = delete;
  MappedFileQueue& operator=(const MappedFileQueue&) = delete;

  // Lists the directory and opens every file (each must be exactly file_size bytes and be
  // named by its start offset; offsets must be contiguous). Loaded files count as full
  // until recovery calls TruncateDirtyFiles(). Empty files at the end (a crash between
  // creating a file and sizing it) are deleted with a warning; any other size is refused.
  Status Load();

  const std::string& dir() const { return dir_; }
  int64_t file_size() const { return file_size_; }
  bool empty() const;
  size_t file_count() const;

  std::shared_ptr<MappedFile> FirstFile() const;
  std::shared_ptr<MappedFile> LastFile() const;
  // The last file if it has room, else a new file after it (or at `offset - offset %
  // file_size` when the queue is empty).
  Result<std::shared_ptr<MappedFile>> LastFileOrCreate(int64_t offset_if_empty);
  // The file holding `offset`, or null when no file does.
  std::shared_ptr<MappedFile> FindFileByOffset(int64_t offset) const;
  std::vector<std::shared_ptr<MappedFile>> Files() const;

  // Start of the first file (0 when empty).
  int64_t MinOffset() const;
  // End of written data: last file start + its write position.
  int64_t MaxOffset() const;
  // Offset up to which data is durable.
  int64_t FlushedWhere() const { return flushed_where_.load(std::memory_order_acquire); }
  void SetFlushedWhere(int64_t offset) { flushed_where_.store(offset, std::memory_order_release); }

  // Flushes the file at the flushed position (see MappedFile::Flush). Returns true when
  // something was flushed. Call repeatedly to cross a file boundary.
  Result<bool> Flush(int least_pages);

  // Drops everything at and after `offset`: the file holding it keeps [start, offset),
  // later files are deleted. Positions and the flushed offset follow.
  // With `zero_tail`, the cut-off bytes of the file holding `offset` are zeroed and synced,
  // so stale entries can never reappear behind new ones after another crash.
  Status TruncateDirtyFiles(int64_t offset, bool zero_tail = false);
  // Deletes every file (used when a ConsumeQueue must be rebuilt).
  Status DestroyAll();
  // SYNC_FLUSH CommitLog: from now on the last file's unwritten part is faulted in page by
  // page (MappedFile::SetWriteTailPageByPage), and every later last file's too; a file that
  // stops being the last goes back to normal readahead. A failed advice is logged, not fatal.
  void SetPageByPageWriteTail();
  // Removes the first `n` files from the queue and destroys them.
  Status DeleteFirstFiles(size_t n);

 private:
  // Deletes the empty log files at the end of `names` (an interrupted creation) and drops
  // them from the list; returns how many.
  Result<size_t> RemoveEmptyTrailingFiles(std::vector<std::string>* names);

  // Asks the allocator for the file after the last one once the last is half written.
  void MaybePrepareNextLocked();
  // Points the allocator's pre-writing at the last file and wakes it when the writer crosses
  // the file's pre-write trigger (one relaxed load per put otherwise).
  void KeepPreWriteAheadLocked();
  // Applies the page-by-page advice to `file`, if asked for (SetPageByPageWriteTail).
  void AdviseWriteTail(MappedFile& file, bool on) const;

  env::Env* env_;
  std::string dir_;
  int64_t file_size_;
  FileAllocator* allocator_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<MappedFile>> files_;  // guarded by mu_, ascending offsets
  int64_t prepared_next_ = -1;  // guarded by mu_: start of the file asked of the allocator
  std::shared_ptr<MappedFile> followed_;  // guarded by mu_: the file the allocator pre-writes
  std::atomic<bool> page_by_page_tail_{false};
  std::atomic<int64_t> flushed_where_{0};
};

}  // namespace apogee::store
