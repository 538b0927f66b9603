// mqnamesrv: the NameServer, with RocketMQ's flags.
//   -c <file>  properties file (listenPort=, kvConfigPath=, ...)
//   -p         print the effective config and exit
//   -h         help
//   -n <addr>  accepted for compatibility with mqnamesrv scripts and ignored
//   -Drocketmq.acl.plain.file=<file>  the ACL file, as Java's JVM property
// Stops cleanly on SIGTERM or SIGINT. Flags, config loading and signals: server_main.h.
#include <cstdio>
#include <optional>
#include <string_view>

#include "acl/plain_acl_file.h"
#include "base/logging.h"
#include "namesrv/namesrv_config.h"
#include "namesrv/namesrv_controller.h"
#include "server_main.h"

namespace {

constexpr const char* kUsage =
    "usage: mqnamesrv [-c <file>] [-p] [-h] [-n <addr>]\n"
    " -c,--configFile <file>        Name server config properties file\n"
    " -h,--help                     Print help\n"
    " -n,--namesrvAddr <addr>       Name server address list (ignored by the NameServer)\n"
    " -p,--printConfigItem          Print all config items\n"
    " -Drocketmq.acl.plain.file=<file>  ACL file relative to rocketmqHome, as Java's JVM\n"
    "                               property (namesrv.conf aclFilePath wins)\n";

}  // namespace

int main(int argc, char** argv) {
  constexpr std::string_view kProgram = "mqnamesrv";
  auto Fail = [&](const std::string& message) { return apogee::apps::Fail(kProgram, message); };
  apogee::apps::ServerFlags flags;
  if (std::optional<int> exit_code = apogee::apps::HandleCommandLine(
          kProgram, kUsage, argc, argv, /*broker_flags=*/false, &flags)) {
    return *exit_code;
  }

  apogee::namesrv::NamesrvConfig config;
  apogee::Status loaded = apogee::apps::LoadConfigFile(kProgram, flags, &config);
  if (!loaded.ok()) return Fail(loaded.ToString());
  if (!flags.acl_plain_file.empty() && config.Snapshot().acl_file_path.empty()) {
    apogee::Status s = config.ApplyProperties(
        {{"aclFilePath",
          apogee::acl::AclFilePath("", config.Snapshot().rocketmq_home, flags.acl_plain_file)}});
    if (!s.ok()) return Fail(s.ToString());
  }
  if (flags.print_config) {
    std::fputs(config.ToPropertiesText().c_str(), stdout);
    return 0;
  }

  apogee::InitLogging(apogee::LogOptions{"namesrv"});
  auto log = apogee::GetLogger("namesrv");
  if (!flags.config_file.empty()) log->info("load config properties file OK, {}", flags.config_file);

  apogee::apps::StopSignals stop_signals;  // before any thread starts
  apogee::namesrv::NamesrvController controller(&config);
  apogee::Status s = controller.Start();
  if (!s.ok()) {
    log->error("NameServer failed to start: {}", s.ToString());
    return 1;
  }
  apogee::namesrv::NamesrvSettings settings = config.Snapshot();
  log->info("The Name Server boot success. serializeType=JSON, address {}:{}",
            settings.bind_address, controller.port());

  log->info("received {}; shutting down", apogee::apps::StopSignals::Name(stop_signals.Wait()));
  controller.Shutdown();
  log->info("The Name Server shutdown OK");
  return 0;
}
