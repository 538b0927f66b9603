#include "env/mem_env.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>

namespace apogee::env {
namespace {

// One file's bytes. Shared by open handles and mappings, so a deleted or renamed file lives
// on for them, as an unlinked inode does.
struct MemFile {
  std::mutex mu;
  std::unique_ptr<uint8_t[]> buf;
  size_t capacity = 0;
  size_t size = 0;
  int map_count = 0;  // live MappedRegions: buf must not move while > 0

  // Requires mu. `exact` avoids slack for pre-sized (mapped) files; appends grow geometrically.
  Status ResizeLocked(size_t new_size, bool exact, const std::string& path) {
    if (new_size > capacity) {
      if (map_count > 0) {
        return Status::NotSupported("MemEnv: cannot grow mapped file '" + path + "' from " +
                                    std::to_string(size) + " to " + std::to_string(new_size) +
                                    " bytes while it is mapped");
      }
      size_t new_capacity = exact ? new_size : std::max(new_size, capacity + capacity / 2);
      auto fresh = std::make_unique<uint8_t[]>(new_capacity);
      if (size > 0) std::memcpy(fresh.get(), buf.get(), size);
      buf = std::move(fresh);
      capacity = new_capacity;
    }
    if (new_size > size) std::memset(buf.get() + size, 0, new_size - size);
    size = new_size;
    return Status::OK();
  }
};

struct State {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<MemFile>> files;
  std::set<std::string> dirs;
  std::set<std::string> locks;
  uint64_t total_bytes = 0;
};

std::string Normalize(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (char c : path) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out.push_back(c);
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

class MemMappedRegion final : public MappedRegion {
 public:
  explicit MemMappedRegion(std::shared_ptr<MemFile> file) : file_(std::move(file)) {
    std::lock_guard<std::mutex> lock(file_->mu);
    ++file_->map_count;
    data_ = file_->buf.get();
    size_ = file_->size;
  }
  ~MemMappedRegion() override {
    std::lock_guard<std::mutex> lock(file_->mu);
    --file_->map_count;
  }

  uint8_t* data() override { return data_; }
  const uint8_t* data() const override { return data_; }
  size_t size() const override { return size_; }
  Status Sync(size_t offset, size_t length) override {
    if (offset > size_ || length > size_ - offset) {
      return Status::InvalidArgument("sync range [" + std::to_string(offset) + ", +" +
                                     std::to_string(length) + ") outside mapping of " +
                                     std::to_string(size_) + " bytes");
    }
    return Status::OK();
  }

 private:
  std::shared_ptr<MemFile> file_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

class MemRWFile final : public RandomRWFile {
 public:
  MemRWFile(std::string path, std::shared_ptr<MemFile> file)
      : RandomRWFile(std::move(path)), file_(std::move(file)) {}

  Status Write(uint64_t offset, std::string_view data) override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    std::lock_guard<std::mutex> lock(file_->mu);
    const uint64_t end = offset + data.size();
    if (end > file_->size) APOGEE_RETURN_IF_ERROR(file_->ResizeLocked(end, false, path()));
    if (!data.empty()) std::memcpy(file_->buf.get() + offset, data.data(), data.size());
    return Status::OK();
  }

  Result<size_t> Read(uint64_t offset, size_t n, uint8_t* scratch) const override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    std::lock_guard<std::mutex> lock(file_->mu);
    if (offset >= file_->size) return size_t{0};
    const size_t count = std::min<uint64_t>(n, file_->size - offset);
    std::memcpy(scratch, file_->buf.get() + offset, count);
    return count;
  }

  Result<uint64_t> Size() const override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    std::lock_guard<std::mutex> lock(file_->mu);
    return static_cast<uint64_t>(file_->size);
  }

  Status Allocate(uint64_t size) override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    std::lock_guard<std::mutex> lock(file_->mu);
    if (size <= file_->size) return Status::OK();
    return file_->ResizeLocked(size, true, path());
  }

  Status Truncate(uint64_t size) override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    std::lock_guard<std::mutex> lock(file_->mu);
    return file_->ResizeLocked(size, true, path());
  }

  Status Sync() override { return CheckOpen(); }
  Status SyncRange(uint64_t, uint64_t) override { return CheckOpen(); }

  Result<std::unique_ptr<MappedRegion>> Map() override {
    APOGEE_RETURN_IF_ERROR(CheckOpen());
    return std::unique_ptr<MappedRegion>(std::make_unique<MemMappedRegion>(file_));
  }

  Status Close() override {
    closed_ = true;
    return Status::OK();
  }

 private:
  Status CheckOpen() const {
    if (closed_) return Status::InvalidArgument("file '" + path() + "' is closed");
    return Status::OK();
  }

  std::shared_ptr<MemFile> file_;
  bool closed_ = false;
};

class MemFileLock final : public FileLock {
 public:
  MemFileLock(std::string path, std::shared_ptr<State> state)
      : FileLock(std::move(path)), state_(std::move(state)) {}
  ~MemFileLock() override {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->locks.erase(Normalize(path()));
  }

 private:
  std::shared_ptr<State> state_;
};

class MemEnv final : public Env {
 public:
  explicit MemEnv(uint64_t total_bytes) : state_(std::make_shared<State>()) {
    state_->total_bytes = total_bytes;
  }

  Status CreateDirs(const std::string& raw) override {
    const std::string path = Normalize(raw);
    if (path.empty()) return Status::InvalidArgument("CreateDirs: empty path");
    std::lock_guard<std::mutex> lock(state_->mu);
    for (size_t pos = 1; pos <= path.size(); ++pos) {
      if (pos != path.size() && path[pos] != '/') continue;
      const std::string prefix = path.substr(0, pos);
      if (state_->files.count(prefix) != 0) {
        return Status::AlreadyExists("CreateDirs: '" + prefix + "' exists and is not a directory");
      }
      state_->dirs.insert(prefix);
    }
    return Status::OK();
  }

  Result<std::vector<std::string>> ListDir(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    if (!DirExistsLocked(path))
      return Status::NotFound("opendir '" + path + "': no such directory");
    std::vector<std::string> names;
    auto consider = [&](const std::string& entry) {
      if (entry != path && DirNameOf(entry) == path) names.push_back(BaseNameOf(entry));
    };
    for (const auto& [name, file] : state_->files) consider(name);
    for (const std::string& dir : state_->dirs) consider(dir);
    std::sort(names.begin(), names.end());
    return names;
  }

  bool FileExists(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->files.count(path) != 0 || DirExistsLocked(path);
  }

  bool IsDirectory(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    return DirExistsLocked(path);
  }

  Result<uint64_t> GetFileSize(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    auto it = state_->files.find(path);
    if (it == state_->files.end()) return Status::NotFound("stat '" + path + "': no such file");
    std::lock_guard<std::mutex> file_lock(it->second->mu);
    return static_cast<uint64_t>(it->second->size);
  }

  Status DeleteFile(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->files.erase(path) == 0) {
      return Status::NotFound("unlink '" + path + "': no such file");
    }
    return Status::OK();
  }

  Status DeleteDir(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->dirs.count(path) == 0)
      return Status::NotFound("rmdir '" + path + "': no such directory");
    for (const auto& [name, file] : state_->files) {
      if (DirNameOf(name) == path)
        return Status::IOError("rmdir '" + path + "': directory not empty");
    }
    for (const std::string& dir : state_->dirs) {
      if (dir != path && DirNameOf(dir) == path) {
        return Status::IOError("rmdir '" + path + "': directory not empty");
      }
    }
    state_->dirs.erase(path);
    return Status::OK();
  }

  Status RenameFile(const std::string& raw_from, const std::string& raw_to) override {
    const std::string from = Normalize(raw_from);
    const std::string to = Normalize(raw_to);
    std::lock_guard<std::mutex> lock(state_->mu);
    auto it = state_->files.find(from);
    if (it == state_->files.end()) {
      if (DirExistsLocked(from)) {
        return Status::NotSupported("rename '" + from + "': MemEnv renames files only");
      }
      return Status::NotFound("rename '" + from + "': no such file");
    }
    if (!DirExistsLocked(DirNameOf(to))) {
      return Status::NotFound("rename '" + from + "' -> '" + to + "': no such directory");
    }
    if (DirExistsLocked(to)) {
      return Status::IOError("rename '" + from + "' -> '" + to + "': target is a directory");
    }
    if (from == to) return Status::OK();
    std::shared_ptr<MemFile> file = it->second;
    state_->files.erase(it);
    state_->files[to] = std::move(file);
    return Status::OK();
  }

  Status SyncDir(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    if (!DirExistsLocked(path)) return Status::NotFound("open directory '" + path + "': not found");
    return Status::OK();
  }

  Result<std::unique_ptr<RandomRWFile>> OpenFile(const std::string& raw, OpenMode mode) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    APOGEE_ASSIGN_OR_RETURN(std::shared_ptr<MemFile> file, OpenLocked(path, mode));
    return std::unique_ptr<RandomRWFile>(std::make_unique<MemRWFile>(path, std::move(file)));
  }

  Result<std::unique_ptr<FileLock>> LockFile(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    APOGEE_RETURN_IF_ERROR(OpenLocked(path, OpenMode::kCreateIfMissing).status());
    if (!state_->locks.insert(path).second) {
      return Status::Busy("lock file '" + path + "' is held by another process or store");
    }
    return std::unique_ptr<FileLock>(std::make_unique<MemFileLock>(path, state_));
  }

  Result<DiskSpace> GetDiskSpace(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->files.count(path) == 0 && !DirExistsLocked(path)) {
      return Status::NotFound("statvfs '" + path + "': no such file or directory");
    }
    uint64_t used = 0;
    for (const auto& [name, file] : state_->files) {
      std::lock_guard<std::mutex> file_lock(file->mu);
      used += file->size;
    }
    DiskSpace space;
    space.total_bytes = state_->total_bytes;
    space.free_bytes = used >= state_->total_bytes ? 0 : state_->total_bytes - used;
    return space;
  }

 private:
  static std::string DirNameOf(const std::string& path) {
    size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
  }
  static std::string BaseNameOf(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
  }

  bool DirExistsLocked(const std::string& path) const {
    return path == "/" || path == "." || state_->dirs.count(path) != 0;
  }

  Result<std::shared_ptr<MemFile>> OpenLocked(const std::string& path, OpenMode mode) {
    if (path.empty()) return Status::InvalidArgument("open: empty path");
    if (DirExistsLocked(path)) return Status::IOError("open '" + path + "': is a directory");
    auto it = state_->files.find(path);
    if (it != state_->files.end()) {
      if (mode == OpenMode::kCreateNew) {
        return Status::AlreadyExists("open '" + path + "': file exists");
      }
      return it->second;
    }
    if (mode == OpenMode::kOpenExisting)
      return Status::NotFound("open '" + path + "': no such file");
    if (!DirExistsLocked(DirNameOf(path))) {
      return Status::NotFound("open '" + path + "': no such directory '" + DirNameOf(path) + "'");
    }
    auto file = std::make_shared<MemFile>();
    state_->files[path] = file;
    return file;
  }

  std::shared_ptr<State> state_;
};

}  // namespace

std::unique_ptr<Env> NewMemEnv(uint64_t total_bytes) {
  return std::make_unique<MemEnv>(total_bytes);
}

}  // namespace apogee::env
