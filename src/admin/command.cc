#include "admin/command.h"

#include <cstdlib>

#include "acl/credentials_file.h"

namespace apogee::admin {

Result<std::string> CommandContext::NamesrvAddr(const ParsedOptions& options) const {
  std::string addr = options.Get("namesrvAddr");
  if (addr.empty()) addr = env_namesrv_;
  if (addr.empty()) {
    return Status::InvalidArgument(
        "no NameServer address: pass -n host:port[;host:port] or set NAMESRV_ADDR");
  }
  return addr;
}

Result<acl::Credentials> CommandContext::Credentials(const ParsedOptions& options) const {
  acl::Credentials flags{options.Get("accessKey"), options.Get("secretKey"), std::nullopt,
                         std::nullopt};
  if (!flags.access_key.empty() || !flags.secret_key.empty()) {
    if (flags.empty()) return Status::InvalidArgument("--accessKey and --secretKey go together");
    return flags;
  }
  const char* home = std::getenv("ROCKETMQ_HOME");
  if (home == nullptr || *home == '\0') return acl::Credentials{};
  auto file = acl::ReadCredentialsFile(std::string(home) + "/conf/tools.yml");
  if (file.status().Is(StatusCode::kNotFound)) return acl::Credentials{};
  return file;
}

Result<MQAdminClient*> CommandContext::Admin(const ParsedOptions& options) {
  if (admin_ == nullptr) {
    // No address is fine here: a command that needs a NameServer fails at its first call
    // (MQAdminClient::NameServers), one that only talks to -b's broker works without.
    std::string addr = options.Get("namesrvAddr");
    if (addr.empty()) addr = env_namesrv_;
    APOGEE_ASSIGN_OR_RETURN(acl::Credentials credentials, Credentials(options));
    APOGEE_ASSIGN_OR_RETURN(transport_, factory_(addr, credentials));
    admin_ = std::make_unique<MQAdminClient>(transport_.get());
  }
  return admin_.get();
}

}  // namespace apogee::admin
