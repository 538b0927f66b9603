// mqadmin: RocketMQ's admin tool with its sub-command names, flags and table output.
//   mqadmin                      lists the sub-commands
//   mqadmin help <command>       prints a sub-command's flags
//   mqadmin <command> [flags]    runs it; -n or NAMESRV_ADDR names the NameServers
//   --tls [--tlsConfigFile f]    anywhere: connect with TLS (Java's -Dtls.enable=true), with
//                                the tls.client.* settings of Java's tls.properties file f
//                                (default /etc/rocketmq/tls.properties, read when it exists)
// Exit code 0 on success, 1 on any error (the message goes to stderr). The logic lives in
// src/admin (command_registry.h and the *_commands.h families).
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "admin/client_transport.h"
#include "admin/command_registry.h"
#include "base/logging.h"

int main(int argc, char** argv) {
  // Results go to stdout; the client library's own logs only when something is wrong.
  apogee::InitLogging({.process_name = "", .level = "warn", .to_file = false});
  // The TLS switches belong to mqadmin itself, not to a sub-command.
  std::vector<std::string> args;
  bool tls = false;
  std::string tls_config_file = "/etc/rocketmq/tls.properties";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--tls") {
      tls = true;
    } else if (arg == "--tlsConfigFile" && i + 1 < argc) {
      tls_config_file = argv[++i];
    } else {
      args.push_back(arg);
    }
  }
  std::optional<apogee::TlsConfig> tls_config;
  if (tls) {
    auto resolved = apogee::admin::ClientTransport::ResolveToolTls(tls_config_file);
    if (!resolved.ok()) {
      std::cerr << "mqadmin: " << resolved.status().message() << "\n";
      return 1;
    }
    tls_config = std::move(resolved).value();
  }
  const char* env = std::getenv("NAMESRV_ADDR");
  apogee::admin::CommandContext ctx(
      &std::cout,
      [&tls_config](std::string_view namesrv, const apogee::acl::Credentials& credentials)
          -> apogee::Result<std::unique_ptr<apogee::admin::AdminTransport>> {
        APOGEE_ASSIGN_OR_RETURN(auto transport,
                                apogee::admin::ClientTransport::Create(
                                    namesrv, credentials, tls_config ? &*tls_config : nullptr));
        return std::unique_ptr<apogee::admin::AdminTransport>(std::move(transport));
      },
      env != nullptr ? env : "");
  apogee::admin::CommandRegistry registry = apogee::admin::BuildMQAdminRegistry();
  return registry.Run(args, ctx, std::cerr);
}
