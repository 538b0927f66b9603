#include "env/posix_env.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>

namespace apogee::env {
namespace {

Status Errno(std::string_view op, const std::string& path) {
  const int err = errno;
  std::string context(op);
  context += " '";
  context += path;
  context += "'";
  return Status::FromErrno(err, context);
}

size_t PageSize() {
  static const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return kPage;
}

class PosixMappedRegion final : public MappedRegion {
 public:
  PosixMappedRegion(std::string path, uint8_t* base, size_t size)
      : path_(std::move(path)), base_(base), size_(size) {}
  ~PosixMappedRegion() override {
    if (base_ != nullptr) munmap(base_, size_);
  }

  uint8_t* data() override { return base_; }
  const uint8_t* data() const override { return base_; }
  size_t size() const override { return size_; }

  Status Sync(size_t offset, size_t length) override {
    APOGEE_RETURN_IF_ERROR(CheckRange("msync", offset, length));
    if (length == 0) return Status::OK();
    // msync needs a page-aligned start; the mapping itself is page-aligned.
    const size_t start = offset / PageSize() * PageSize();
    if (msync(base_ + start, offset + length - start, MS_SYNC) != 0) return Errno("msync", path_);
    return Status::OK();
  }

  Status Advise(size_t offset, size_t length, Access access) override {
    APOGEE_RETURN_IF_ERROR(CheckRange("madvise", offset, length));
    if (length == 0) return Status::OK();
    const size_t start = offset / PageSize() * PageSize();
    const int advice = access == Access::kPageByPage ? MADV_RANDOM : MADV_NORMAL;
    if (madvise(base_ + start, offset + length - start, advice) != 0) {
      return Errno("madvise", path_);
    }
    return Status::OK();
  }

 private:
  Status CheckRange(const char* call, size_t offset, size_t length) const {
    if (offset <= size_ && length <= size_ - offset) return Status::OK();
    return Status::InvalidArgument(std::string(call) + " range [" + std::to_string(offset) +
                                   ", +" + std::to_string(length) + ") outside mapping of " +
                                   std::to_string(size_) + " bytes of '" + path_ + "'");
  }

  std::string path_;
  uint8_t* base_;
  size_t size_;
};

class PosixFile final : public RandomRWFile {
 public:
  PosixFile(std::string path, int fd) : RandomRWFile(std::move(path)), fd_(fd) {}
  ~PosixFile() override { (void)Close(); }

  Status Write(uint64_t offset, std::string_view data) override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    while (!data.empty()) {
      ssize_t n = pwrite(fd_, data.data(), data.size(), static_cast<off_t>(offset));
      if (n < 0) {
        if (errno == EINTR) continue;
        return Errno("pwrite", path());
      }
      data.remove_prefix(static_cast<size_t>(n));
      offset += static_cast<uint64_t>(n);
    }
    return Status::OK();
  }

  Result<size_t> Read(uint64_t offset, size_t n, uint8_t* scratch) const override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    size_t done = 0;
    while (done < n) {
      ssize_t r = pread(fd_, scratch + done, n - done, static_cast<off_t>(offset + done));
      if (r < 0) {
        if (errno == EINTR) continue;
        return Errno("pread", path());
      }
      if (r == 0) break;
      done += static_cast<size_t>(r);
    }
    return done;
  }

  Result<uint64_t> Size() const override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    struct stat st;
    if (fstat(fd_, &st) != 0) return Errno("fstat", path());
    return static_cast<uint64_t>(st.st_size);
  }

  Status Allocate(uint64_t size) override {
    APOGEE_ASSIGN_OR_RETURN(uint64_t current, Size());
    if (size <= current) return Status::OK();
    int rc;
    do {
      rc = fallocate(fd_, 0, 0, static_cast<off_t>(size));
    } while (rc != 0 && errno == EINTR);
    if (rc == 0) return Status::OK();
    if (errno != EOPNOTSUPP && errno != ENOSYS) return Errno("fallocate", path());
    // tmpfs on old kernels and some network file systems: write zeros instead. A sparse
    // extension would let a later store through the mapping hit a full disk as SIGBUS;
    // written blocks are allocated, or this fails now with ENOSPC.
    constexpr size_t kChunk = 1 << 20;
    static const std::string* const zeros = new std::string(kChunk, '\0');
    for (uint64_t pos = current; pos < size; pos += kChunk) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, size - pos));
      APOGEE_RETURN_IF_ERROR(Write(pos, std::string_view(zeros->data(), n)));
    }
    return Status::OK();
  }

  Status Truncate(uint64_t size) override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    if (ftruncate(fd_, static_cast<off_t>(size)) != 0) return Errno("ftruncate", path());
    return Status::OK();
  }

  Status Sync() override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    if (fdatasync(fd_) != 0) return Errno("fdatasync", path());
    return Status::OK();
  }

  // fdatasync covers the range; sync_file_range alone would not flush metadata or the disk cache.
  Status SyncRange(uint64_t /*offset*/, uint64_t /*length*/) override { return Sync(); }

  Result<std::unique_ptr<MappedRegion>> Map() override {
    APOGEE_ASSIGN_OR_RETURN(uint64_t size, Size());
    if (size == 0) {
      return std::unique_ptr<MappedRegion>(std::make_unique<PosixMappedRegion>(path(), nullptr, 0));
    }
    void* base = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (base == MAP_FAILED) return Errno("mmap", path());
    return std::unique_ptr<MappedRegion>(
        std::make_unique<PosixMappedRegion>(path(), static_cast<uint8_t*>(base), size));
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    const int fd = fd_;
    fd_ = -1;
    if (close(fd) != 0) return Errno("close", path());
    return Status::OK();
  }

 private:
  Status CheckOpen() const {
    if (fd_ < 0) return Status::InvalidArgument("file '" + path() + "' is closed");
    return Status::OK();
  }

  int fd_;
};

class PosixFileLock final : public FileLock {
 public:
  PosixFileLock(std::string path, int fd) : FileLock(std::move(path)), fd_(fd) {}
  ~PosixFileLock() override {
    flock(fd_, LOCK_UN);
    close(fd_);
  }

 private:
  int fd_;
};

class PosixEnv final : public Env {
 public:
  Status CreateDirs(const std::string& path) override {
    if (path.empty()) return Status::InvalidArgument("CreateDirs: empty path");
    // Walk the prefixes; mkdir each, tolerating the ones that exist.
    for (size_t pos = 1; pos <= path.size(); ++pos) {
      if (pos != path.size() && path[pos] != '/') continue;
      const std::string prefix = path.substr(0, pos);
      if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) return Errno("mkdir", prefix);
    }
    if (!IsDirectory(path)) {
      return Status::AlreadyExists("CreateDirs: '" + path + "' exists and is not a directory");
    }
    return Status::OK();
  }

  Result<std::vector<std::string>> ListDir(const std::string& path) override {
    DIR* dir = opendir(path.c_str());
    if (dir == nullptr) return Errno("opendir", path);
    std::vector<std::string> names;
    errno = 0;
    while (struct dirent* entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(std::move(name));
    }
    const int err = errno;
    closedir(dir);
    if (err != 0) return Status::FromErrno(err, "readdir '" + path + "'");
    std::sort(names.begin(), names.end());
    return names;
  }

  bool FileExists(const std::string& path) override { return access(path.c_str(), F_OK) == 0; }

  bool IsDirectory(const std::string& path) override {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  }

  Result<uint64_t> GetFileSize(const std::string& path) override {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return Errno("stat", path);
    return static_cast<uint64_t>(st.st_size);
  }

  Status DeleteFile(const std::string& path) override {
    if (unlink(path.c_str()) != 0) return Errno("unlink", path);
    return Status::OK();
  }

  Status DeleteDir(const std::string& path) override {
    if (rmdir(path.c_str()) != 0) return Errno("rmdir", path);
    return Status::OK();
  }

  Status RenameFile(const std::string& from, const std::string& to) override {
    if (rename(from.c_str(), to.c_str()) != 0) return Errno("rename", from + "' -> '" + to);
    return Status::OK();
  }

  Status SyncDir(const std::string& path) override {
    int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return Errno("open directory", path);
    Status s;
    if (fsync(fd) != 0) s = Errno("fsync directory", path);
    close(fd);
    return s;
  }

  Result<std::unique_ptr<RandomRWFile>> OpenFile(const std::string& path, OpenMode mode) override {
    int flags = O_RDWR | O_CLOEXEC;
    if (mode == OpenMode::kCreateIfMissing) flags |= O_CREAT;
    if (mode == OpenMode::kCreateNew) flags |= O_CREAT | O_EXCL;
    int fd;
    do {
      fd = open(path.c_str(), flags, 0644);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      if (errno == EEXIST) return Status::AlreadyExists("open '" + path + "': file exists");
      return Errno("open", path);
    }
    return std::unique_ptr<RandomRWFile>(std::make_unique<PosixFile>(path, fd));
  }

  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override {
    int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return Errno("open lock file", path);
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      close(fd);
      if (err == EWOULDBLOCK) {
        return Status::Busy("lock file '" + path + "' is held by another process or store");
      }
      return Status::FromErrno(err, "flock '" + path + "'");
    }
    return std::unique_ptr<FileLock>(std::make_unique<PosixFileLock>(path, fd));
  }

  Result<DiskSpace> GetDiskSpace(const std::string& path) override {
    struct statvfs vfs;
    if (statvfs(path.c_str(), &vfs) != 0) return Errno("statvfs", path);
    DiskSpace space;
    // Blocks reserved for root are neither used nor usable here: the total is what an
    // unprivileged process can ever have (used + available), as Java's
    // UtilAll.getDiskPartitionTotalSpace and df's Use% count it (env/disk_usage.h).
    const uint64_t used = vfs.f_blocks > vfs.f_bfree ? vfs.f_blocks - vfs.f_bfree : 0;
    space.total_bytes = (used + static_cast<uint64_t>(vfs.f_bavail)) * vfs.f_frsize;
    space.free_bytes = static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
    return space;
  }

  Result<std::string> BootId() override {
    // Read-only procfs file: OpenFile's read-write open would be refused.
    static constexpr const char* kPath = "/proc/sys/kernel/random/boot_id";
    const int fd = open(kPath, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Errno("open", kPath);
    char buf[128];
    const ssize_t n = read(fd, buf, sizeof(buf));
    const Status read_error = n < 0 ? Errno("read", kPath) : Status::OK();
    close(fd);
    APOGEE_RETURN_IF_ERROR(read_error);
    std::string id(buf, static_cast<size_t>(n));
    while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
    if (id.empty()) return Status::NotSupported(std::string(kPath) + " is empty");
    return id;
  }
};

}  // namespace

std::unique_ptr<Env> NewPosixEnv() { return std::make_unique<PosixEnv>(); }

}  // namespace apogee::env
