// Statistics sub-commands: statsAll (Java's tools/command/stats/StatsAllSubCommand): per
// topic and consumer group, the accumulation, the in / out TPS of the last minute and the
// messages of the last 24 hours, from the brokers' VIEW_BROKER_STATS_DATA.
#pragma once

#include "admin/command_registry.h"

namespace apogee::admin {

void RegisterStatsCommands(CommandRegistry* registry);

}  // namespace apogee::admin
