// Consumer-group sub-commands: updateSubGroup, deleteSubGroup, consumerProgress,
// consumerConnection, producerConnection (Java's tools/command/consumer/* and
// tools/command/connection/*).
#pragma once

#include "admin/command_registry.h"

namespace apogee::admin {

void RegisterConsumerCommands(CommandRegistry* registry);

// MQVersion.getVersionDesc for the versions clients send ("V4_9_4"); "V<n>" otherwise.
std::string VersionDesc(int32_t version);

}  // namespace apogee::admin
