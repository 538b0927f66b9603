// mqbroker: one RocketMQ-compatible broker, with RocketMQ's flags.
//   -c <file>         broker.conf (Java properties, RocketMQ key names)
//   -n <addr;addr>    NameServer addresses (overrides namesrvAddr)
//   -p                print every config item and exit
//   -m                print the important config items and exit
//   -h                help
//   --with-namesrv    also run a NameServer in this process (on namesrvListenPort, 9876);
//                     namesrvAddr defaults to it
// An unknown key in the config file is a warning naming it; a bad value stops start-up
// naming the key and the value. SIGTERM or SIGINT stops cleanly: stop accepting, drain,
// persist offsets and config, flush the store, unregister from the NameServers. Flags,
// config loading and signals: server_main.h (shared with mqnamesrv).
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <optional>
#include <cstring>
#include <future>
#include <thread>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "acl/plain_acl_file.h"
#include "base/config_table.h"
#include "base/logging.h"
#include "base/scheduler.h"
#include "base/tls_config.h"
#include "broker/broker_config.h"
#include "broker/broker_controller.h"
#include "namesrv/namesrv_config.h"
#include "namesrv/namesrv_controller.h"
#include "server_main.h"

namespace {

constexpr const char* kUsage =
    "usage: mqbroker [-c <file>] [-n <addr>] [-p] [-m] [-h] [--with-namesrv]\n"
    " -c,--configFile <file>        Broker config properties file\n"
    " -h,--help                     Print help\n"
    " -m,--printImportantConfig     Print important config item\n"
    " -n,--namesrvAddr <addr>       Name server address list, eg: "
    "'192.168.0.1:9876;192.168.0.2:9876'\n"
    " -p,--printConfigItem          Print all config item\n"
    "    --with-namesrv             Also start a NameServer in this process (namesrvListenPort)\n"
    " -Drocketmq.acl.plain.file=<file>  ACL file relative to rocketmqHome, as Java's JVM\n"
    "                               property (broker.conf aclFilePath wins)\n";

}  // namespace

int main(int argc, char** argv) {
  using apogee::Status;
  constexpr std::string_view kProgram = "mqbroker";
  auto Fail = [&](const std::string& message) { return apogee::apps::Fail(kProgram, message); };
  apogee::apps::ServerFlags flags;
  if (std::optional<int> exit_code = apogee::apps::HandleCommandLine(
          kProgram, kUsage, argc, argv, /*broker_flags=*/true, &flags)) {
    return *exit_code;
  }

  apogee::broker::BrokerConfig config;
  Status loaded = apogee::apps::LoadConfigFile(kProgram, flags, &config);
  if (!loaded.ok()) return Fail(loaded.ToString());
  if (flags.has_namesrv_addr) {
    Status s = config.ApplyProperties({{"namesrvAddr", flags.namesrv_addr}});
    if (!s.ok()) return Fail("-n: " + s.ToString());
  }
  if (!flags.acl_plain_file.empty() && config.Get()->acl_file_path.empty()) {
    Status s = config.ApplyProperties(
        {{"aclFilePath",
          apogee::acl::AclFilePath("", config.Get()->rocketmq_home, flags.acl_plain_file)}});
    if (!s.ok()) return Fail(s.ToString());
  }
  if (flags.with_namesrv && config.Get()->namesrv_addr.empty()) {
    Status s = config.ApplyProperties(
        {{"namesrvAddr", "127.0.0.1:" + std::to_string(config.Get()->namesrv_listen_port)}});
    if (!s.ok()) return Fail(s.ToString());
  }
  if (flags.print_config) {
    std::fputs(config.ToPropertiesText().c_str(), stdout);
    return 0;
  }
  if (flags.print_important) {
    std::fputs(config.ImportantPropertiesText().c_str(), stdout);
    return 0;
  }

  apogee::InitLogging(apogee::LogOptions{"broker"});
  auto log = apogee::GetLogger("broker");
  if (!flags.config_file.empty())
    log->info("load config properties file OK, {}", flags.config_file);

  // Before any thread starts. SIGUSR1: failover asks for a restart in a new role (below).
  apogee::apps::StopSignals stop_signals(SIGUSR1);

  std::shared_ptr<const apogee::broker::BrokerSettings> settings = config.Get();
  // One scheduler for every periodic job of the process, the embedded NameServer's scan
  // included; declared first so it outlives both controllers.
  apogee::Scheduler scheduler;
  std::unique_ptr<apogee::namesrv::NamesrvConfig> namesrv_config;
  std::unique_ptr<apogee::namesrv::NamesrvController> namesrv;
  if (flags.with_namesrv) {
    namesrv_config = std::make_unique<apogee::namesrv::NamesrvConfig>();
    std::map<std::string, std::string> namesrv_props = {
        {"listenPort", std::to_string(settings->namesrv_listen_port)},
        {"bindAddress", settings->bind_address},
        {"kvConfigPath", settings->store.RootDir() + "/namesrv/kvConfig.json"},
        // It serves one broker's registrations and its clients' route lookups: one IO
        // thread (the broker's ports have one per core).
        {"serverSelectorThreads", "1"},
        // The broker's metrics settings, on the NameServer's own port.
        {"metricsExporterType", settings->metrics_exporter_type},
        {"metricsPromExporterHost", settings->metrics_prom_exporter_host.empty()
                                        ? settings->broker_ip1
                                        : settings->metrics_prom_exporter_host},
        {"metricsPromExporterPort", std::to_string(settings->namesrv_metrics_prom_exporter_port)},
        // The embedded NameServer shares the broker's ACL: registrations then need the
        // admin account of aclCredentialsFile (docs/security.md).
        {"aclEnable", settings->acl_enable ? "true" : "false"},
        {"aclFilePath",
         apogee::acl::AclFilePath(settings->acl_file_path, settings->rocketmq_home)}};
    // One process, one set of tls.* settings (as Java's TlsSystemConfig).
    apogee::TlsConfig tls = settings->tls;
    apogee::ConfigTable tls_keys;
    apogee::AddTlsKeys(&tls_keys, &tls);
    for (const auto& entry : tls_keys.entries()) namesrv_props[std::string(entry.key)] = tls_keys.Get(entry.key);
    Status s = namesrv_config->ApplyProperties(namesrv_props);
    if (!s.ok()) return Fail("embedded NameServer: " + s.ToString());
    namesrv = std::make_unique<apogee::namesrv::NamesrvController>(
        namesrv_config.get(), apogee::Clock::Real(), &scheduler);
    s = namesrv->Start();
    if (!s.ok()) {
      log->error("embedded NameServer failed to start: {}", s.ToString());
      return 1;
    }
    log->info("The Name Server boot success. serializeType=JSON, address {}:{}",
              settings->bind_address, namesrv->port());
  }

  apogee::broker::BrokerController controller(&config, nullptr, apogee::Clock::Real(), &scheduler);
  // Failover (etcdEndpoints) changes a broker's role by a clean shutdown and an exec of this
  // same program with the same arguments; etcd decides the new role at start. The
  // coordinator asks for it with SIGUSR1 to this process; an outside SIGUSR1 is ignored.
  std::atomic<bool> restart_requested{false};
  controller.SetRestartHandler([&restart_requested](const std::string&) {
    restart_requested.store(true);
    kill(getpid(), SIGUSR1);
  });
  // One thread takes the signals, also while Initialize waits for etcd.
  std::promise<int> signalled;
  std::future<int> signal_future = signalled.get_future();
  std::thread([&] {
    for (;;) {
      const int sig = stop_signals.Wait();
      if (sig == SIGUSR1 && !restart_requested.load()) continue;
      controller.RequestStop();
      signalled.set_value(sig);
      return;
    }
  }).detach();

  Status s = controller.Initialize();
  if (s.ok()) s = controller.Start();
  if (!s.ok()) {
    const bool stopped = signal_future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    if (stopped) {
      log->info("stopped while starting: {}", s.ToString());
    } else {
      log->error("the broker failed to start: {}", s.ToString());
    }
    controller.Shutdown();
    if (namesrv) namesrv->Shutdown();
    return stopped ? 0 : 1;
  }
  std::string tip = fmt::format("The broker[{}, {}] boot success. serializeType=JSON",
                                settings->broker_name, settings->BrokerAddr());
  if (!settings->namesrv_addr.empty()) tip += " and name server is " + settings->namesrv_addr;
  log->info("{}", tip);

  const int sig = signal_future.get();
  if (sig == SIGUSR1) {
    log->warn("failover: restarting in place to take the role etcd gives this broker");
  } else {
    log->info("received {}; shutting down", apogee::apps::StopSignals::Name(sig));
  }
  controller.Shutdown();
  if (namesrv) namesrv->Shutdown();
  if (sig == SIGUSR1) {
    spdlog::apply_all([](const std::shared_ptr<spdlog::logger>& l) { l->flush(); });
    execv("/proc/self/exe", argv);
    log->error("failover: exec of /proc/self/exe failed: {}", std::strerror(errno));
    return 1;
  }
  log->info("The broker[{}, {}] shutdown OK", settings->broker_name, settings->BrokerAddr());
  return 0;
}
