#include "namesrv/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>

namespace apogee::namesrv {
namespace {

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(errno, "write " + path);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

Status SyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, "open directory " + dir);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return Status::FromErrno(err, "fsync directory " + dir);
  return Status::OK();
}

}  // namespace

Status WriteFileAtomically(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  fs::path target(path);
  std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError(fmt::format("create directory {}: {}", dir, ec.message()));

  std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno(errno, "open " + tmp);
  Status s = WriteAll(fd, content, tmp);
  if (s.ok() && ::fsync(fd) != 0) s = Status::FromErrno(errno, "fsync " + tmp);
  ::close(fd);
  if (!s.ok()) {
    ::unlink(tmp.c_str());
    return s;
  }
  // The previous version becomes the backup; a crash between the two renames leaves the
  // .bak and the .tmp, and the loader falls back to .bak.
  if (fs::exists(target, ec)) {
    std::string bak = path + ".bak";
    if (::rename(path.c_str(), bak.c_str()) != 0) {
      return Status::FromErrno(errno, fmt::format("rename {} to {}", path, bak));
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::FromErrno(errno, fmt::format("rename {} to {}", tmp, path));
  }
  return SyncDirectory(dir);
}

Result<std::string> ReadWholeFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound(path + " does not exist");
    return Status::FromErrno(errno, "open " + path);
  }
  std::string out;
  char buf[8192];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Status::FromErrno(err, "read " + path);
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

}  // namespace apogee::namesrv
