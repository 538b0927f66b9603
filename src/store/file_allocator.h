// FileAllocator: creates the next CommitLog file in the background so that rolling to a new
// file on the put path costs nothing (the role of Java's AllocateMappedFileService), and, when
// asked to warm, pre-writes the file being written a short distance ahead of the writer.
//
// Why pre-write: fdatasync after appending into never-written (fallocated) blocks can cost
// many times one into already-written blocks (~4 ms against ~85 µs when issue 13 measured it;
// no difference on the same VM on 2026-12-03, docs/operations/disk.md), and SYNC_FLUSH group
// commit pays it per batch.
// Why only a short distance ahead (kPreWriteAhead) and not the whole 1 GiB file at once: the
// whole file's writeback kept the disk busy for ~0.5 s, and every sync waiting behind it (a
// one-at-a-time SYNC_FLUSH send's p99, docs/benchmarks.md); pre-writing as the writer advances
// costs the same bytes spread evenly, syncs at most kPreWriteRound bytes at once, and writes
// nothing for a file that is never filled.
//
// Thread-safety: Prepare/Take may be called from any thread; one background thread works.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "base/service_thread.h"
#include "base/status.h"
#include "env/env.h"
#include "store/mapped_file.h"

namespace apogee::store {

class FileAllocator : public ServiceThread {
 public:
  // Pre-writing keeps [write position, + ahead) written; a new file gets its first `ahead`
  // bytes before it is taken.
  static constexpr int64_t kPreWriteAhead = 32 << 20;
  // Bytes pre-written per fdatasync (at most a quarter of `ahead`): bounds how long a sync of
  // the writer waits behind one. Pre-writing tops up one round each time the writer has
  // written one.
  static constexpr int64_t kPreWriteRound = 1 << 20;

  // `mode`: how pre-writing writes (MappedFile::PreWriteMode): synced page by page for
  // SYNC_FLUSH, into the page cache only for ASYNC_FLUSH.
  explicit FileAllocator(
      bool warm, int64_t ahead = kPreWriteAhead,
      MappedFile::PreWriteMode mode = MappedFile::PreWriteMode::kSyncedPageByPage);
  ~FileAllocator() override;

  // The file the writer now appends to: pre-written ahead of the writer from now on (when
  // warming). The writer wakes this thread when it crosses the file's pre-write trigger.
  void Follow(std::shared_ptr<MappedFile> file);

  // Asks for `path` to be created in the background. Ignored if already requested.
  void Prepare(env::Env* env, const std::string& path, int64_t start_offset, int64_t size);
  // The file at `path`: the prepared one (waiting for it if in progress) or, when it was
  // never requested or its preparation failed, one created now on the caller's thread.
  Result<std::shared_ptr<MappedFile>> Take(env::Env* env, const std::string& path,
                                           int64_t start_offset, int64_t size);
  // Drops prepared files that were not taken (deleting them) — at shutdown, so no empty
  // file past the end of the log is left behind to confuse the next load.
  void DiscardPrepared();
  // Bytes of files created in the background and not yet taken: disk space already
  // allocated for the next CommitLog file (DiskGuard does not keep it free again).
  int64_t PreparedBytes() const { return prepared_bytes_.load(std::memory_order_relaxed); }

 protected:
  void Run() override;

 private:
  struct Request {
    env::Env* env;
    std::string path;
    int64_t start_offset;
    int64_t size;
    bool done = false;
    Result<std::shared_ptr<MappedFile>> result = Status::Aborted("not prepared yet");
  };

  Result<std::shared_ptr<MappedFile>> CreateFile(const Request& request) const;
  // Pre-writes `file` up to `to` in rounds of kPreWriteRound (each one synced, unless
  // kPageCacheOnly).
  Status PreWriteTo(MappedFile& file, int64_t to) const;
  // One pass over the followed file: tops the pre-written end up to `ahead` past the writer
  // once the writer has come a round closer, then re-arms the file's trigger.
  void KeepAheadOfWriter();

  const bool warm_;
  const int64_t ahead_;
  const int64_t round_;
  const MappedFile::PreWriteMode mode_;
  std::shared_ptr<MappedFile> followed_;  // guarded by mu_
  std::atomic<int64_t> prepared_bytes_{0};
  std::mutex mu_;
  std::condition_variable done_cv_;
  std::map<std::string, std::shared_ptr<Request>> requests_;  // guarded by mu_, by path
  std::deque<std::shared_ptr<Request>> pending_;              // guarded by mu_
};

}  // namespace apogee::store
