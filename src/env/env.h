// The file-system interface every store file operation goes through.
//
// The store keeps RocketMQ's on-disk layout: CommitLog and ConsumeQueue files are fixed-size,
// pre-allocated and written through a shared read-write memory mapping (Java's MappedFile);
// small files (checkpoint, config JSON, lock, abort) are written with positional writes. This
// interface offers exactly those operations so that the same store code runs on
//   * PosixEnv (env/posix_env.h): the real disk: open/pwrite/pread, fallocate, mmap/msync,
//     fdatasync, flock, statvfs, directory fsync;
//   * MemEnv (env/mem_env.h): everything in memory, for fast unit tests;
//   * FaultInjectionEnv (env/fault_injection_env.h): wraps another Env, remembers what has been
//     made durable, can drop every unsynced byte (a simulated power loss) and can fail named
//     operations on demand.
//
// All fallible calls return Status/Result. Errors from the OS carry errno through
// Status::FromErrno (ENOSPC/EDQUOT -> kNoSpace, ENOENT -> kNotFound, EACCES -> kPermissionDenied)
// and name the path and the operation that failed.
//
// Thread-safety: every Env method may be called concurrently from any thread. A RandomRWFile
// may be read and written concurrently on disjoint ranges (pread/pwrite semantics); Close()
// must not race other calls on the same object. A MappedRegion's bytes are plain memory: the
// caller coordinates readers and writers of the same bytes (the CommitLog's put lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::env {

// A read-write shared mapping of a whole file, as it was sized when mapped (Java's
// MappedByteBuffer over FileChannel.map(READ_WRITE, 0, fileSize)). Bytes stored through data()
// reach the file (and are visible to RandomRWFile::Read of the same file) but are durable only
// after Sync() covers them. The mapping stays valid until the object is destroyed, even if the
// RandomRWFile it came from is closed; the file must not be truncated below size() meanwhile.
class MappedRegion {
 public:
  virtual ~MappedRegion() = default;
  MappedRegion(const MappedRegion&) = delete;
  MappedRegion& operator=(const MappedRegion&) = delete;

  virtual uint8_t* data() = 0;
  virtual const uint8_t* data() const = 0;
  virtual size_t size() const = 0;
  // Makes bytes [offset, offset + length) durable (msync(MS_SYNC) on POSIX; the range is
  // widened to page boundaries internally). The range must lie inside [0, size()).
  virtual Status Sync(size_t offset, size_t length) = 0;

  // How the bytes of a range will be touched: a hint, never needed for correctness.
  enum class Access {
    kNormal,      // readahead as the kernel sees fit (large page-cache folios included)
    kPageByPage,  // no readahead: a page faulted in is cached alone (madvise MADV_RANDOM)
  };
  // Applies `access` to [offset, offset + length) (widened to page boundaries). Why it
  // matters: Linux (ext4 since 6.16) caches files in folios of up to 2 MiB, a store through a
  // mapping dirties its whole folio, and msync then writes all of it: one 1 KiB record synced
  // alone cost 2 MiB of writes. Pages faulted in under kPageByPage are single 4 KiB folios.
  // The default does nothing (in-memory mappings have no page cache).
  virtual Status Advise(size_t offset, size_t length, Access access) {
    (void)offset;
    (void)length;
    (void)access;
    return Status::OK();
  }

 protected:
  MappedRegion() = default;
};

// An open file supporting positional reads and writes. Closing happens on destruction if
// Close() was not called; call Close() to see its error.
class RandomRWFile {
 public:
  virtual ~RandomRWFile() = default;
  RandomRWFile(const RandomRWFile&) = delete;
  RandomRWFile& operator=(const RandomRWFile&) = delete;

  // Writes all of `data` at `offset`, extending the file if needed (pwrite, retried until
  // complete). A failure may leave part of the range written.
  virtual Status Write(uint64_t offset, std::string_view data) = 0;
  // Reads up to `n` bytes at `offset` into `scratch`; returns how many were read, which is
  // less than `n` only at end of file (0 at or past the end).
  virtual Result<size_t> Read(uint64_t offset, size_t n, uint8_t* scratch) const = 0;
  // Current file size in bytes.
  virtual Result<uint64_t> Size() const = 0;
  // Ensures the file is at least `size` bytes long with the space reserved on disk
  // (fallocate; where the file system cannot, ftruncate). Never shrinks the file. Fails with
  // kNoSpace when the disk cannot hold it. New bytes read as zero.
  virtual Status Allocate(uint64_t size) = 0;
  // Sets the file size to exactly `size` (ftruncate); growth reads as zero.
  virtual Status Truncate(uint64_t size) = 0;
  // Makes the file's data and size durable (fdatasync).
  virtual Status Sync() = 0;
  // Makes bytes [offset, offset + length) durable. POSIX may sync more than asked.
  virtual Status SyncRange(uint64_t offset, uint64_t length) = 0;
  // Maps the whole file, [0, Size()), read-write and shared. A file of size 0 maps to an
  // empty region. Several mappings of one file see the same bytes.
  virtual Result<std::unique_ptr<MappedRegion>> Map() = 0;
  // Releases the descriptor. Further calls fail. Idempotent.
  virtual Status Close() = 0;

  const std::string& path() const { return path_; }

 protected:
  explicit RandomRWFile(std::string path) : path_(std::move(path)) {}

 private:
  std::string path_;
};

// An exclusive advisory lock on a file, held until this object is destroyed (or the process
// dies). Mirrors the store's `lock` file: a second broker on the same store directory, in this
// process or another, is refused.
class FileLock {
 public:
  virtual ~FileLock() = default;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  const std::string& path() const { return path_; }

 protected:
  explicit FileLock(std::string path) : path_(std::move(path)) {}

 private:
  std::string path_;
};

// Space of the file system holding a path (statvfs). `free_bytes` is what an unprivileged
// process may still use (f_bavail), which is what the store's disk-ratio checks want.
struct DiskSpace {
  uint64_t total_bytes = 0;
  uint64_t free_bytes = 0;
};

// How OpenFile treats a missing or existing file.
enum class OpenMode {
  kOpenExisting,     // fail with kNotFound when missing
  kCreateIfMissing,  // open, creating an empty file when missing
  kCreateNew,        // create; fail with kAlreadyExists when present
};

class Env {
 public:
  virtual ~Env() = default;
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  // The process-wide PosixEnv. Never destroyed.
  static Env* Default();

  // Creates `path` and any missing parents (mkdir -p). OK when it exists as a directory.
  virtual Status CreateDirs(const std::string& path) = 0;
  // Names (not paths) of the entries of directory `path`, without "." and "..", sorted
  // byte-wise ascending (so CommitLog files, named by 20-digit offsets, come in order).
  virtual Result<std::vector<std::string>> ListDir(const std::string& path) = 0;
  // True when `path` exists (file or directory).
  virtual bool FileExists(const std::string& path) = 0;
  // True when `path` exists and is a directory.
  virtual bool IsDirectory(const std::string& path) = 0;
  virtual Result<uint64_t> GetFileSize(const std::string& path) = 0;
  // Removes a file. kNotFound when missing.
  virtual Status DeleteFile(const std::string& path) = 0;
  // Removes an empty directory. kNotFound when missing.
  virtual Status DeleteDir(const std::string& path) = 0;
  // Atomically replaces `to` with `from` (rename(2)). Durable after SyncDir of the parent(s).
  virtual Status RenameFile(const std::string& from, const std::string& to) = 0;
  // Makes directory entries (creations, renames, deletions) in `path` durable (fsync of the
  // directory).
  virtual Status SyncDir(const std::string& path) = 0;
  virtual Result<std::unique_ptr<RandomRWFile>> OpenFile(const std::string& path,
                                                         OpenMode mode) = 0;
  // Creates `path` if missing and takes an exclusive lock on it without waiting. kBusy when
  // another holder (another process, or another LockFile in this process) has it.
  virtual Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) = 0;
  // Space of the file system that holds `path` (which must exist).
  virtual Result<DiskSpace> GetDiskSpace(const std::string& path) = 0;
  // An id that changes at every boot of the machine (Linux: /proc/sys/kernel/random/boot_id).
  // The store keeps it in its abort marker: an abnormal exit followed by a start on the same
  // boot means the process died but the page cache, with every store it made into a shared
  // mapping, survived. kNotSupported where there is none (the default, and MemEnv).
  virtual Result<std::string> BootId();

 protected:
  Env() = default;
};

// Helpers built only on the interface above, so they behave the same on every Env.

// The whole content of the file at `path`.
Result<std::string> ReadFileToString(Env* env, const std::string& path);
// Replaces the file at `path` with `data`, keeping the previous one as `path`.bak (the steps:
// state_file.h). After a crash `path` holds the new content, or `path` or `path`.bak the old.
Status WriteFileAtomically(Env* env, const std::string& path, std::string_view data);
// Deletes `path` and, when it is a directory, everything below it. OK when missing.
Status DeleteRecursively(Env* env, const std::string& path);
// "dir/name" without doubling a trailing '/'.
std::string JoinPath(std::string_view dir, std::string_view name);
// The directory part of `path` ("." when there is none).
std::string DirName(std::string_view path);

}  // namespace apogee::env
