// Offset sub-commands: resetOffsetByTime, cloneGroupOffset (Java's tools/command/offset/*)
// and Apogee's redriveDlq (APOGEE_REDRIVE_DLQ_MESSAGE, 30001).
#pragma once

#include "admin/command_registry.h"

namespace apogee::admin {

void RegisterOffsetCommands(CommandRegistry* registry);

}  // namespace apogee::admin
