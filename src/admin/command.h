// The pieces every mqadmin sub-command is made of: its spec (name, description, flags),
// a run function, and the context it runs in (where output goes, how it reaches the
// cluster). A run function prints its result to ctx.out() and returns an error Status on
// failure; the registry prints the error and turns it into exit code 1.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "admin/admin_client.h"
#include "admin/admin_transport.h"
#include "acl/signature.h"
#include "admin/option_parser.h"
#include "base/status.h"

namespace apogee::admin {

// Builds the transport for a NameServer address list, signing with `credentials` when
// they are not empty (ClientTransport in mqadmin, a fake in tests).
using TransportFactory = std::function<Result<std::unique_ptr<AdminTransport>>(
    std::string_view namesrv_addr, const acl::Credentials& credentials)>;

class CommandContext {
 public:
  // `env_namesrv` stands for the NAMESRV_ADDR environment variable (Java's fallback when
  // -n is not given).
  CommandContext(std::ostream* out, TransportFactory factory, std::string env_namesrv = "")
      : out_(out), factory_(std::move(factory)), env_namesrv_(std::move(env_namesrv)) {}

  std::ostream& out() { return *out_; }

  // -n, else NAMESRV_ADDR; InvalidArgument saying how to set one when neither is.
  Result<std::string> NamesrvAddr(const ParsedOptions& options) const;
  // --accessKey/--secretKey, else $ROCKETMQ_HOME/conf/tools.yml as Java's tools (none when
  // neither is there); a tools.yml that does not parse is an error naming it.
  Result<acl::Credentials> Credentials(const ParsedOptions& options) const;
  // The admin client over a transport built on first use, for the NameServers of -n, else
  // NAMESRV_ADDR, else none (then only broker-direct calls work, as with Java's mqadmin).
  Result<MQAdminClient*> Admin(const ParsedOptions& options);

 private:
  std::ostream* out_;
  TransportFactory factory_;
  std::string env_namesrv_;
  std::unique_ptr<AdminTransport> transport_;
  std::unique_ptr<MQAdminClient> admin_;
};

using CommandRun = std::function<Status(const ParsedOptions& options, CommandContext& ctx)>;

struct SubCommand {
  CommandSpec spec;
  CommandRun run;
};

}  // namespace apogee::admin
