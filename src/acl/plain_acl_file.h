// PlainAclFile: a plain_acl.yml on disk, checked on every request and reloaded when it
// changes (Java's PlainPermissionManager + FileWatchService: a watcher looks every 500 ms).
// A file that no longer parses keeps the last good one in force and logs why, once per
// change. Where the file is: see AclFilePath.
//
// Thread-safety: Check() from any thread, concurrently with the watcher's reloads.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "acl/access_validator.h"
#include "acl/plain_acl_config.h"
#include "base/service_thread.h"
#include "base/status.h"
#include "protocol/remoting_command.h"

namespace apogee::acl {

// The file a server uses: `acl_file_path` (broker.conf / namesrv.conf `aclFilePath`)
// when set, else the Java default `<rocketmqHome>/conf/plain_acl.yml`, where the
// relative part may be overridden like Java's -Drocketmq.acl.plain.file
// (`plain_file_property`, "" when not given). An absolute property is used as is.
std::string AclFilePath(std::string_view acl_file_path, std::string_view rocketmq_home,
                        std::string_view plain_file_property = "");

class PlainAclFile {
 public:
  // Loads `path`; an error (missing, unreadable, invalid) names the file and the reason.
  static Result<std::unique_ptr<PlainAclFile>> Open(std::string path, AclScope scope);
  ~PlainAclFile();  // stops the watcher
  PlainAclFile(const PlainAclFile&) = delete;
  PlainAclFile& operator=(const PlainAclFile&) = delete;

  // OK, or PermissionDenied with the remark to answer.
  Status Check(std::string_view remote_address, const protocol::RemotingCommand& request) const;

  // Re-reads the file if its modification time or size changed. Returns whether a new
  // config is now in force. Called by the watcher; public for tests.
  bool ReloadIfChanged();
  // Starts the watcher thread (every `interval`).
  void StartWatching(std::chrono::milliseconds interval = std::chrono::milliseconds(500));

  const std::string& path() const { return path_; }
  std::shared_ptr<const PlainAclConfig> config() const;

 private:
  class Watcher;
  PlainAclFile(std::string path, AclScope scope);

  const std::string path_;
  const AclScope scope_;
  mutable std::shared_mutex mu_;
  std::shared_ptr<const PlainAclConfig> config_;  // guarded by mu_
  std::mutex stamp_mu_;
  std::filesystem::file_time_type mtime_{};  // guarded by stamp_mu_
  uintmax_t size_ = 0;                       // guarded by stamp_mu_
  std::unique_ptr<Watcher> watcher_;
};

}  // namespace apogee::acl
