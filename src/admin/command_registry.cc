#include "admin/command_registry.h"

#include <algorithm>

#include "admin/broker_commands.h"
#include "admin/cluster_commands.h"
#include "admin/consumer_commands.h"
#include "admin/failover_commands.h"
#include "admin/message_commands.h"
#include "admin/namesrv_commands.h"
#include "admin/stats_commands.h"
#include "admin/offset_commands.h"
#include "admin/table_printer.h"
#include "admin/topic_commands.h"

namespace apogee::admin {

bool CommandRegistry::Add(SubCommand command) {
  std::string name = command.spec.name;
  return commands_.emplace(std::move(name), std::move(command)).second;
}

const SubCommand* CommandRegistry::Find(std::string_view name) const {
  auto it = commands_.find(name);
  return it == commands_.end() ? nullptr : &it->second;
}

std::vector<std::string> CommandRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, _] : commands_) names.push_back(name);
  return names;
}

std::string CommandRegistry::FormatCommandList() const {
  std::string out =
      "The most commonly used mqadmin commands are:\n";
  size_t width = 0;
  for (const auto& [name, _] : commands_) width = std::max(width, name.size());
  for (const auto& [name, command] : commands_) {
    out += "   " + Pad(name, static_cast<int>(width) + 2, true) + command.spec.description + "\n";
  }
  out += "\nSee 'mqadmin help <command>' for more information on a specific command.\n";
  return out;
}

int CommandRegistry::Run(const std::vector<std::string>& argv, CommandContext& ctx,
                         std::ostream& err) const {
  if (argv.empty()) {
    ctx.out() << "usage: mqadmin <command> [<args>]\n\n" << FormatCommandList();
    return 0;
  }
  const std::string& name = argv[0];
  if (name == "help" || name == "-h" || name == "--help") {
    if (argv.size() < 2) {
      ctx.out() << "usage: mqadmin <command> [<args>]\n\n" << FormatCommandList();
      return 0;
    }
    const SubCommand* command = Find(argv[1]);
    if (command == nullptr) {
      err << "mqadmin: unknown command '" << argv[1] << "'; run 'mqadmin help' for the list\n";
      return 1;
    }
    ctx.out() << FormatUsage(command->spec);
    return 0;
  }
  const SubCommand* command = Find(name);
  if (command == nullptr) {
    err << "mqadmin: unknown command '" << name << "'; run 'mqadmin help' for the list\n";
    return 1;
  }
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  auto parsed = ParseOptions(command->spec, args);
  if (!parsed.ok()) {
    err << "mqadmin: " << parsed.status().message() << "\n" << FormatUsage(command->spec);
    return 1;
  }
  if (parsed->Has("help")) {
    ctx.out() << FormatUsage(command->spec);
    return 0;
  }
  Status status = command->run(*parsed, ctx);
  ctx.out().flush();
  if (!status.ok()) {
    err << "mqadmin " << name << " failed: " << status.message() << "\n";
    return 1;
  }
  return 0;
}

CommandRegistry BuildMQAdminRegistry() {
  CommandRegistry registry;
  RegisterTopicCommands(&registry);
  RegisterClusterCommands(&registry);
  RegisterBrokerCommands(&registry);
  RegisterConsumerCommands(&registry);
  RegisterMessageCommands(&registry);
  RegisterOffsetCommands(&registry);
  RegisterNamesrvCommands(&registry);
  RegisterFailoverCommands(&registry);
  RegisterStatsCommands(&registry);
  return registry;
}

}  // namespace apogee::admin
