// Logging through spdlog with one named logger per component ("namesrv", "remoting",
// "store", ...). Logs go to stderr and, once InitLogging() names the process, also to
// ~/logs/apogee/<process>.log (or $APOGEE_LOG_DIR), as RocketMQ logs under ~/logs/rocketmqlogs.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <string_view>

namespace apogee {

struct LogOptions {
  std::string process_name;   // names the log file; empty = stderr only
  std::string level = "info";  // trace, debug, info, warn, error, off; $APOGEE_LOG_LEVEL overrides
  bool to_file = true;
};

// Sets up sinks for every logger created afterwards (and re-targets existing ones).
void InitLogging(const LogOptions& options);

// The logger for a component, created on first use. Thread-safe.
std::shared_ptr<spdlog::logger> GetLogger(std::string_view component);

}  // namespace apogee
