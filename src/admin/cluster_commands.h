// clusterList (Java's tools/command/cluster/ClusterListSubCommand).
#pragma once

#include "admin/command_registry.h"

namespace apogee::admin {

void RegisterClusterCommands(CommandRegistry* registry);

}  // namespace apogee::admin
