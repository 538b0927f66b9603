// The client library's log level. Client programs log warnings and errors only (on
// stderr) unless they ask for more: an example's `-v` calls SetClientLogLevel("info").
#pragma once

#include <string>

#include "apogee/status.h"

namespace apogee {

// "trace", "debug", "info", "warn" (the default), "error" or "off"; anything else is
// InvalidArgument. $APOGEE_LOG_LEVEL, when set, wins. Call before starting clients.
Status SetClientLogLevel(const std::string& level);

}  // namespace apogee
