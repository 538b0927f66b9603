#include "apogee/log_level.h"

#include "base/logging.h"

namespace apogee {

Status SetClientLogLevel(const std::string& level) {
  for (const char* known : {"trace", "debug", "info", "warn", "error", "off"}) {
    if (level == known) {
      // stderr only: a client program writes no log files of its own.
      InitLogging(LogOptions{.process_name = "", .level = level, .to_file = false});
      return Status::OK();
    }
  }
  return Status::InvalidArgument("unknown log level '" + level +
                                 "': trace, debug, info, warn, error or off");
}

}  // namespace apogee
