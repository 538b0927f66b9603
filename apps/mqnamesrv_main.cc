// mqnamesrv: the NameServer, with RocketMQ's flags.
//   -c <file>  properties file (listenPort=, kvConfigPath=, ...)
//   -p         print the effective config and exit
//   -h         help
//   -n <addr>  accepted for compatibility with mqnamesrv scripts and ignored
// Stops cleanly on SIGTERM or SIGINT.
#include <signal.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/plain_acl_file.h"
#include "base/logging.h"
#include "namesrv/namesrv_config.h"
#include "namesrv/namesrv_controller.h"

namespace {

constexpr const char* kUsage =
    "usage: mqnamesrv [-c <file>] [-p] [-h] [-n <addr>]\n"
    " -c,--configFile <file>        Name server config properties file\n"
    " -h,--help                     Print help\n"
    " -n,--namesrvAddr <addr>       Name server address list (ignored by the NameServer)\n"
    " -p,--printConfigItem          Print all config items\n"
    " -Drocketmq.acl.plain.file=<file>  ACL file relative to rocketmqHome, as Java's JVM\n"
    "                               property (namesrv.conf aclFilePath wins)\n";

constexpr const char* kAclPlainFileProperty = "-Drocketmq.acl.plain.file=";

struct Flags {
  std::string config_file;
  bool print_config = false;
  bool help = false;
  std::string acl_plain_file;  // -Drocketmq.acl.plain.file
};

bool ParseFlags(int argc, char** argv, Flags* flags, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) {
        *error = "missing value for " + arg;
        return false;
      }
      *out = argv[++i];
      return true;
    };
    if (arg == "-c" || arg == "--configFile") {
      if (!value(&flags->config_file)) return false;
    } else if (arg == "-n" || arg == "--namesrvAddr") {
      std::string ignored;
      if (!value(&ignored)) return false;
    } else if (arg == "-p" || arg == "--printConfigItem") {
      flags->print_config = true;
    } else if (arg == "-h" || arg == "--help") {
      flags->help = true;
    } else if (arg.rfind(kAclPlainFileProperty, 0) == 0) {
      flags->acl_plain_file = arg.substr(std::string_view(kAclPlainFileProperty).size());
    } else {
      *error = "unknown option: " + arg;
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  std::string error;
  if (!ParseFlags(argc, argv, &flags, &error)) {
    std::fprintf(stderr, "mqnamesrv: %s\n%s", error.c_str(), kUsage);
    return 1;
  }
  if (flags.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }

  apogee::namesrv::NamesrvConfig config;
  if (!flags.config_file.empty()) {
    std::vector<std::string> unknown;
    apogee::Status s = config.LoadFile(flags.config_file, &unknown);
    if (!s.ok()) {
      std::fprintf(stderr, "mqnamesrv: %s\n", s.ToString().c_str());
      return 1;
    }
    for (const std::string& key : unknown) {
      std::fprintf(stderr, "mqnamesrv: warning: unknown config key '%s' in %s ignored\n",
                   key.c_str(), flags.config_file.c_str());
    }
  }
  if (!flags.acl_plain_file.empty() && config.Snapshot().acl_file_path.empty()) {
    apogee::Status s = config.ApplyProperties(
        {{"aclFilePath",
          apogee::acl::AclFilePath("", config.Snapshot().rocketmq_home, flags.acl_plain_file)}});
    if (!s.ok()) {
      std::fprintf(stderr, "mqnamesrv: %s\n", s.ToString().c_str());
      return 1;
    }
  }
  if (flags.print_config) {
    std::fputs(config.ToPropertiesText().c_str(), stdout);
    return 0;
  }

  apogee::InitLogging(apogee::LogOptions{"namesrv"});
  auto log = apogee::GetLogger("namesrv");
  if (!flags.config_file.empty()) log->info("load config properties file OK, {}", flags.config_file);

  // Block the stop signals before any thread starts, so every thread inherits the mask
  // and only sigwait() below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  apogee::namesrv::NamesrvController controller(&config);
  apogee::Status s = controller.Start();
  if (!s.ok()) {
    log->error("NameServer failed to start: {}", s.ToString());
    return 1;
  }
  apogee::namesrv::NamesrvSettings settings = config.Snapshot();
  log->info("The Name Server boot success. serializeType=JSON, address {}:{}",
            settings.bind_address, controller.port());

  int sig = 0;
  sigwait(&stop_signals, &sig);
  log->info("received {}; shutting down", sig == SIGTERM ? "SIGTERM" : "SIGINT");
  controller.Shutdown();
  log->info("The Name Server shutdown OK");
  return 0;
}
