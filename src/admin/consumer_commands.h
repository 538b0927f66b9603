// Consumer-group sub-commands: updateSubGroup, deleteSubGroup, consumerProgress,
// consumerConnection, producerConnection (Java's tools/command/consumer/* and
// tools/command/connection/*).
#pragma once

#include <optional>
#include <string>

#include "admin/admin_client.h"
#include "admin/command_registry.h"
#include "base/status.h"
#include "protocol/admin_bodies.h"

namespace apogee::admin {

void RegisterConsumerCommands(CommandRegistry* registry);

// Java's examineConsumeStats: GET_CONSUME_STATS at every master serving the group's retry
// topic (or `topic`, when given), merged (offsets and consumeTps).
Result<protocol::ConsumeStats> ExamineConsumeStats(MQAdminClient* admin, const std::string& group,
                                                   std::optional<std::string> topic);

// MQVersion.getVersionDesc for the versions clients send ("V4_9_4"); "V<n>" otherwise.
std::string VersionDesc(int32_t version);

}  // namespace apogee::admin
