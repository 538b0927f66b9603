// NameServer sub-commands: updateKvConfig, deleteKvConfig, wipeWritePerm, addWritePerm
// (Java's tools/command/namesrv/*).
#pragma once

#include "admin/command_registry.h"

namespace apogee::admin {

void RegisterNamesrvCommands(CommandRegistry* registry);

}  // namespace apogee::admin
