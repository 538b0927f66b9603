// mqadmin: RocketMQ's admin tool with its sub-command names, flags and table output.
//   mqadmin                      lists the sub-commands
//   mqadmin help <command>       prints a sub-command's flags
//   mqadmin <command> [flags]    runs it; -n or NAMESRV_ADDR names the NameServers
// Exit code 0 on success, 1 on any error (the message goes to stderr). The logic lives in
// src/admin (command_registry.h and the *_commands.h families).
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "admin/client_transport.h"
#include "admin/command_registry.h"
#include "base/logging.h"

int main(int argc, char** argv) {
  // Results go to stdout; the client library's own logs only when something is wrong.
  apogee::InitLogging({.process_name = "", .level = "warn", .to_file = false});
  std::vector<std::string> args(argv + 1, argv + argc);
  const char* env = std::getenv("NAMESRV_ADDR");
  apogee::admin::CommandContext ctx(
      &std::cout,
      [](std::string_view namesrv) -> apogee::Result<std::unique_ptr<apogee::admin::AdminTransport>> {
        APOGEE_ASSIGN_OR_RETURN(auto transport, apogee::admin::ClientTransport::Create(namesrv));
        return std::unique_ptr<apogee::admin::AdminTransport>(std::move(transport));
      },
      env != nullptr ? env : "");
  apogee::admin::CommandRegistry registry = apogee::admin::BuildMQAdminRegistry();
  return registry.Run(args, ctx, std::cerr);
}
