// CommandRegistry: mqadmin's sub-command table (Java's MQAdminStartup.initCommand) and
// its entry point: `mqadmin <command> [flags]`, `mqadmin help <command>`, `mqadmin`
// (lists the commands). Exit codes: 0 success, 1 any error (unknown command or flag,
// missing required flag, failed request), each with a message on the error stream.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "admin/command.h"

namespace apogee::admin {

class CommandRegistry {
 public:
  // Fails (returns false) when the name is taken.
  bool Add(SubCommand command);
  const SubCommand* Find(std::string_view name) const;
  std::vector<std::string> Names() const;  // sorted

  // Runs argv[0] (the sub-command) with the rest; writes results to ctx.out() and errors
  // to `err`. Returns the process exit code.
  int Run(const std::vector<std::string>& argv, CommandContext& ctx, std::ostream& err) const;

  // The command list printed by `mqadmin` and `mqadmin help`.
  std::string FormatCommandList() const;

 private:
  std::map<std::string, SubCommand, std::less<>> commands_;
};

// Every sub-command mqadmin has (the families in *_commands.h).
CommandRegistry BuildMQAdminRegistry();

}  // namespace apogee::admin
