#include "client/offset_store_local.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "base/logging.h"
#include "protocol/admin_bodies.h"

namespace apogee::client {
namespace {

// NotFound when the file does not exist.
Result<std::string> ReadWholeFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound("no file " + path);
    return Status::FromErrno(errno, "open " + path);
  }
  std::string content;
  char buf[8192];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      Status s = Status::FromErrno(errno, "read " + path);
      ::close(fd);
      return s;
    }
    if (n == 0) break;
    content.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return content;
}

Status WriteWholeFileSynced(const std::string& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno(errno, "open " + path);
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      Status s = Status::FromErrno(errno, "write " + path);
      ::close(fd);
      return s;
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    Status s = Status::FromErrno(errno, "fsync " + path);
    ::close(fd);
    return s;
  }
  if (::close(fd) != 0) return Status::FromErrno(errno, "close " + path);
  return Status::OK();
}

// Drops whitespace outside string literals. Java writes this file pretty-printed
// (toJson(true)), and protocol's object-key decoder only accepts the compact form.
std::string Compact(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  bool in_string = false;
  bool escaped = false;
  for (char ch : json) {
    if (in_string) {
      out.push_back(ch);
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') continue;
    if (ch == '"') in_string = true;
    out.push_back(ch);
  }
  return out;
}

Result<std::map<protocol::MessageQueue, int64_t>> Parse(const std::string& path,
                                                        const std::string& json) {
  auto body = protocol::DecodeResetOffsetBody(Compact(json));
  if (!body.ok()) {
    return Status::Corruption("offset file " + path + ": " + body.status().message());
  }
  return std::move(body->offset_table);
}

}  // namespace

std::string DefaultLocalOffsetStoreDir() {
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr && *home != '\0' ? home : ".") + "/.rocketmq_offsets";
}

LocalFileOffsetStore::LocalFileOffsetStore(std::string store_dir, const std::string& client_id,
                                           const std::string& group)
    : path_((store_dir.empty() ? DefaultLocalOffsetStoreDir() : store_dir) + "/" + client_id + "/" +
            group + "/offsets.json") {}

Result<std::map<protocol::MessageQueue, int64_t>> LocalFileOffsetStore::ReadFile() const {
  Result<std::string> content = ReadWholeFile(path_);
  if (content.ok() && !content->empty()) {
    auto parsed = Parse(path_, *content);
    if (parsed.ok()) return parsed;
    GetLogger("client")->warn("{}; trying the .bak", parsed.status().ToString());
  } else if (!content.ok() && content.status().code() != StatusCode::kNotFound) {
    return content.status();
  }
  const std::string bak = path_ + ".bak";
  Result<std::string> bak_content = ReadWholeFile(bak);
  if (!bak_content.ok()) {
    if (bak_content.status().code() == StatusCode::kNotFound && !content.ok()) {
      return Status::NotFound("no offset file " + path_);
    }
    if (bak_content.status().code() == StatusCode::kNotFound) {
      return Status::Corruption("offset file " + path_ + " is unreadable and has no .bak");
    }
    return bak_content.status();
  }
  return Parse(bak, *bak_content);
}

Status LocalFileOffsetStore::WriteFile(const std::map<protocol::MessageQueue, int64_t>& offsets) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
  if (ec) return Status::IOError("create directory for " + path_ + ": " + ec.message());
  protocol::ResetOffsetBody body;
  body.offset_table = offsets;
  const std::string tmp = path_ + ".tmp";
  APOGEE_RETURN_IF_ERROR(WriteWholeFileSynced(tmp, protocol::EncodeResetOffsetBody(body)));
  Result<std::string> previous = ReadWholeFile(path_);
  if (previous.ok()) {
    APOGEE_RETURN_IF_ERROR(WriteWholeFileSynced(path_ + ".bak", *previous));
  }
  if (::rename(tmp.c_str(), path_.c_str()) != 0) {
    return Status::FromErrno(errno, "rename " + tmp + " to " + path_);
  }
  return Status::OK();
}

Status LocalFileOffsetStore::Load() {
  auto offsets = ReadFile();
  if (!offsets.ok()) {
    if (offsets.status().code() == StatusCode::kNotFound) return Status::OK();
    return offsets.status();
  }
  table_.PutAll(*offsets);
  return Status::OK();
}

void LocalFileOffsetStore::UpdateOffset(const protocol::MessageQueue& mq, int64_t offset,
                                        bool increase_only) {
  table_.Update(mq, offset, increase_only);
}

int64_t LocalFileOffsetStore::ReadOffset(const protocol::MessageQueue& mq, ReadOffsetType type) {
  if (type != ReadOffsetType::kReadFromStore) {
    if (auto offset = table_.Get(mq)) return *offset;
    if (type == ReadOffsetType::kReadFromMemory) return kOffsetNotFound;
  }
  auto offsets = ReadFile();
  if (!offsets.ok()) {
    if (offsets.status().code() == StatusCode::kNotFound) return kOffsetNotFound;
    GetLogger("client")->warn("read {} failed: {}", path_, offsets.status().ToString());
    return kOffsetReadError;
  }
  auto it = offsets->find(mq);
  if (it == offsets->end()) return kOffsetNotFound;
  table_.Update(mq, it->second, false);
  return it->second;
}

void LocalFileOffsetStore::PersistAll(const std::set<protocol::MessageQueue>& mqs) {
  if (mqs.empty()) return;
  Status s = WriteFile(table_.Select(mqs, /*drop_others=*/false));
  if (!s.ok()) GetLogger("client")->warn("persist offsets to {} failed: {}", path_, s.ToString());
}

void LocalFileOffsetStore::Persist(const protocol::MessageQueue&) {
  Status s = WriteFile(table_.Clone(""));
  if (!s.ok()) GetLogger("client")->warn("persist offsets to {} failed: {}", path_, s.ToString());
}

void LocalFileOffsetStore::RemoveOffset(const protocol::MessageQueue& mq) { table_.Remove(mq); }

std::map<protocol::MessageQueue, int64_t> LocalFileOffsetStore::CloneOffsetTable(
    std::string_view topic) const {
  return table_.Clone(topic);
}

Status LocalFileOffsetStore::UpdateConsumeOffsetToBroker(const protocol::MessageQueue& mq,
                                                         int64_t offset, bool) {
  table_.Update(mq, offset, false);
  return Status::OK();
}

}  // namespace apogee::client
