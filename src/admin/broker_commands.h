// Broker sub-commands: brokerStatus, getBrokerConfig, updateBrokerConfig (Java's
// tools/command/broker/*).
#pragma once

#include "admin/command_registry.h"

namespace apogee::admin {

void RegisterBrokerCommands(CommandRegistry* registry);

}  // namespace apogee::admin
