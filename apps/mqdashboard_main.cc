// mqdashboard: the web console.
//   mqdashboard -n <namesrv;namesrv> [-p 8080] [--host 127.0.0.1]
// Serves http://<host>:<port>/ (the page and its scripts are built into the binary) and a
// JSON API under /api/ (src/dashboard/README.md, docs/dashboard.md). Every action goes
// through src/admin's MQAdminClient, as mqadmin's. -p 0 picks a free port; the line
// "mqdashboard: serving http://host:port/" on stdout names it. Stops on SIGTERM or SIGINT.
// The console has no login: keep it on a loopback or otherwise trusted address.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "admin/admin_client.h"
#include "admin/client_transport.h"
#include "base/logging.h"
#include "dashboard/dashboard_handler.h"
#include "dashboard/static_assets.h"
#include "metrics/http_server.h"

namespace apogee::dashboard {
std::span<const StaticAsset> EmbeddedAssets();  // generated (cmake/EmbedFiles.cmake)
}

int main(int argc, char** argv) {
  std::string namesrv;
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string log_level = "warn";
  CLI::App app("mqdashboard: web console for Apogee / RocketMQ clusters", "mqdashboard");
  app.add_option("-n,--namesrvAddr", namesrv, "NameServer addresses, host:port;host:port (default $NAMESRV_ADDR)");
  app.add_option("-p,--port", port, "HTTP port (0: any free port)")->capture_default_str()->check(CLI::Range(0, 65535));
  app.add_option("--host", host, "HTTP bind address")->capture_default_str();
  app.add_option("--logLevel", log_level, "trace, debug, info, warn, error")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (namesrv.empty()) {
    const char* env = std::getenv("NAMESRV_ADDR");
    if (env != nullptr) namesrv = env;
  }
  if (namesrv.empty()) {
    std::fprintf(stderr, "mqdashboard: name the NameServers with -n host:port (or NAMESRV_ADDR)\n");
    return 1;
  }
  apogee::InitLogging({.process_name = "", .level = log_level, .to_file = false});

  auto transport = apogee::admin::ClientTransport::Create(namesrv);
  if (!transport.ok()) {
    std::fprintf(stderr, "mqdashboard: %s\n", transport.status().ToString().c_str());
    return 1;
  }
  apogee::admin::MQAdminClient admin(transport->get());
  apogee::dashboard::DashboardHandler handler(&admin, apogee::dashboard::EmbeddedAssets());

  // Block the stop signals before any thread starts, so every thread inherits the mask
  // and only sigwait() below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  apogee::metrics::HttpServer server(
      [&handler](const apogee::metrics::HttpRequest& request) { return handler.Handle(request); });
  apogee::Status started = server.Start(host, static_cast<uint16_t>(port));
  if (!started.ok()) {
    std::fprintf(stderr, "mqdashboard: %s\n", started.ToString().c_str());
    return 1;
  }
  std::printf("mqdashboard: serving http://%s:%u/ (NameServer %s)\n", host.c_str(), server.port(),
              namesrv.c_str());
  std::fflush(stdout);

  int sig = 0;
  sigwait(&stop_signals, &sig);
  server.Stop();
  std::printf("mqdashboard: stopped\n");
  return 0;
}
