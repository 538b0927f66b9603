// Topic sub-commands: updateTopic, deleteTopic, topicList, topicRoute, topicStatus,
// topicClusterList (Java's tools/command/topic/*).
#pragma once

#include "admin/command_registry.h"

namespace apogee::admin {

void RegisterTopicCommands(CommandRegistry* registry);

}  // namespace apogee::admin
