#include "admin/command.h"

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

Result<MQAdminClient*> CommandContext::Admin(const ParsedOptions& options) {
  if (admin_ == nullptr) {
    APOGEE_ASSIGN_OR_RETURN(std::string addr, NamesrvAddr(options));
    APOGEE_ASSIGN_OR_RETURN(transport_, factory_(addr));
    admin_ = std::make_unique<MQAdminClient>(transport_.get());
  }
  return admin_.get();
}

}  // namespace apogee::admin
