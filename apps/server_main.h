// What mqnamesrv and mqbroker share around their controllers: RocketMQ's command line
// (-c, -n, -p, -h, -Drocketmq.acl.plain.file=, plus the broker's -m and --with-namesrv),
// loading the properties file with a warning per unknown key, and the stop signals
// (SIGTERM / SIGINT stop cleanly, SIGPIPE is ignored).
#pragma once

#include <signal.h>

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::apps {

struct ServerFlags {
  std::string config_file;   // -c, --configFile
  std::string namesrv_addr;  // -n, --namesrvAddr
  bool has_namesrv_addr = false;
  bool print_config = false;     // -p, --printConfigItem
  bool print_important = false;  // -m, --printImportantConfig (broker only)
  bool with_namesrv = false;     // --with-namesrv (broker only)
  bool help = false;             // -h, --help
  // -Drocketmq.acl.plain.file=<file>: Java's JVM property; the config's aclFilePath wins.
  std::string acl_plain_file;
};

// `broker_flags` also accepts -m and --with-namesrv. InvalidArgument naming the option for an
// unknown option or a missing value.
Result<ServerFlags> ParseServerFlags(int argc, char** argv, bool broker_flags);

// ParseServerFlags, then what both mains do with the result: an error prints
// "<program>: <error>" and `usage` on stderr (exit code 1), -h prints `usage` on stdout (exit
// code 0). Returns the exit code when the program should end now, nullopt to go on.
std::optional<int> HandleCommandLine(std::string_view program, std::string_view usage, int argc,
                                     char** argv, bool broker_flags, ServerFlags* flags);

// Loads `flags.config_file` into `config` (BrokerConfig or NamesrvConfig: LoadFile(path,
// &unknown)) when one was given, printing "<program>: warning: unknown config key ..." on
// stderr for every key the config does not know. The error names the file and the key.
template <typename Config>
Status LoadConfigFile(std::string_view program, const ServerFlags& flags, Config* config) {
  if (flags.config_file.empty()) return Status::OK();
  std::vector<std::string> unknown;
  APOGEE_RETURN_IF_ERROR(config->LoadFile(flags.config_file, &unknown));
  for (const std::string& key : unknown) {
    std::fprintf(stderr, "%.*s: warning: unknown config key '%s' in %s ignored\n",
                 static_cast<int>(program.size()), program.data(), key.c_str(),
                 flags.config_file.c_str());
  }
  return Status::OK();
}

// Prints "<program>: <message>" on stderr and returns the exit code 1.
int Fail(std::string_view program, std::string_view message);

// Blocks SIGTERM, SIGINT and `extra_signal` (0: none) in this thread and, since the mask is
// inherited, in every thread started afterwards, so that only Wait() sees them; ignores
// SIGPIPE. Construct it before starting any thread.
class StopSignals {
 public:
  explicit StopSignals(int extra_signal = 0);
  // Blocks until one of the signals arrives; returns its number.
  int Wait();
  static const char* Name(int sig);

 private:
  sigset_t signals_;
};

}  // namespace apogee::apps
