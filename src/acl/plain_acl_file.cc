#include "acl/plain_acl_file.h"

#include <fmt/format.h>

#include <filesystem>

#include "base/file_util.h"
#include "base/logging.h"

namespace apogee::acl {

std::string AclFilePath(std::string_view acl_file_path, std::string_view rocketmq_home,
                        std::string_view plain_file_property) {
  if (!acl_file_path.empty()) return std::string(acl_file_path);
  std::string relative =
      plain_file_property.empty() ? "conf/plain_acl.yml" : std::string(plain_file_property);
  if (relative.starts_with('/')) return relative;
  return (std::filesystem::path(std::string(rocketmq_home)) / relative).string();
}

class PlainAclFile::Watcher : public ServiceThread {
 public:
  Watcher(PlainAclFile* file, std::chrono::milliseconds interval)
      : ServiceThread("AclFileWatcher"), file_(file), interval_(interval) {}
  ~Watcher() override { Shutdown(); }

 protected:
  void Run() override {
    while (!stopped()) {
      WaitForRunning(interval_.count());
      if (!stopped()) file_->ReloadIfChanged();
    }
  }

 private:
  PlainAclFile* file_;
  std::chrono::milliseconds interval_;
};

PlainAclFile::PlainAclFile(std::string path, AclScope scope)
    : path_(std::move(path)), scope_(scope) {}

PlainAclFile::~PlainAclFile() { watcher_.reset(); }

Result<std::unique_ptr<PlainAclFile>> PlainAclFile::Open(std::string path, AclScope scope) {
  std::unique_ptr<PlainAclFile> file(new PlainAclFile(std::move(path), scope));
  std::error_code ec;
  auto mtime = std::filesystem::last_write_time(file->path_, ec);
  if (ec) return Status::IOError(fmt::format("ACL file {}: {}", file->path_, ec.message()));
  auto size = std::filesystem::file_size(file->path_, ec);
  APOGEE_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(file->path_));
  auto config = ParsePlainAclConfig(text);
  if (!config.ok()) {
    return Status::InvalidArgument(
        fmt::format("ACL file {}: {}", file->path_, config.status().message()));
  }
  file->config_ = std::make_shared<const PlainAclConfig>(std::move(*config));
  file->mtime_ = mtime;
  file->size_ = ec ? 0 : size;
  GetLogger("acl")->info("ACL file {} loaded: {} account(s), {} global white address(es)",
                         file->path_, file->config_->accounts.size(),
                         file->config_->global_white_remote_addresses.size());
  return file;
}

std::shared_ptr<const PlainAclConfig> PlainAclFile::config() const {
  std::shared_lock lock(mu_);
  return config_;
}

Status PlainAclFile::Check(std::string_view remote_address,
                           const protocol::RemotingCommand& request) const {
  return ValidateRequest(*config(), scope_, remote_address, request);
}

bool PlainAclFile::ReloadIfChanged() {
  std::lock_guard<std::mutex> stamp_lock(stamp_mu_);
  std::error_code ec;
  auto mtime = std::filesystem::last_write_time(path_, ec);
  if (ec) return false;  // removed or being replaced: keep what we have
  auto size = std::filesystem::file_size(path_, ec);
  if (ec) return false;
  if (mtime == mtime_ && size == size_) return false;
  mtime_ = mtime;
  size_ = size;
  auto text = ReadWholeFile(path_);
  Result<PlainAclConfig> config =
      text.ok() ? ParsePlainAclConfig(*text) : Result<PlainAclConfig>(text.status());
  if (!config.ok()) {
    GetLogger("acl")->error("ACL file {} changed but is not usable, keeping the previous one: {}",
                            path_, config.status().message());
    return false;
  }
  auto fresh = std::make_shared<const PlainAclConfig>(std::move(*config));
  GetLogger("acl")->info("ACL file {} reloaded: {} account(s)", path_, fresh->accounts.size());
  std::unique_lock lock(mu_);
  config_ = std::move(fresh);
  return true;
}

void PlainAclFile::StartWatching(std::chrono::milliseconds interval) {
  if (watcher_) return;
  watcher_ = std::make_unique<Watcher>(this, interval);
  watcher_->Start();
}

}  // namespace apogee::acl
