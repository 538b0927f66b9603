#include "namesrv/namesrv_controller.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

#include "acl/plain_acl_file.h"
#include "base/logging.h"
#include "metrics/http_server.h"
#include "namesrv/default_request_processor.h"
#include "namesrv/kv_config_manager.h"
#include "namesrv/namesrv_metrics.h"
#include "namesrv/route_info_manager.h"
#include "protocol/request_code.h"
#include "remoting/executor.h"
#include "remoting/remoting_server.h"

namespace apogee::namesrv {
namespace {

// Queue bounds of Java's NamesrvConfig (clientRequestThreadPoolQueueCapacity,
// defaultThreadPoolQueueCapacity); past them requests get SYSTEM_BUSY.
constexpr size_t kClientRequestQueueCapacity = 50000;
constexpr size_t kDefaultQueueCapacity = 10000;

// Java's BrokerHousekeepingService: a broker whose connection closes (or idles out) is
// removed at once rather than after the 120 s expiry.
class BrokerHousekeepingService final : public remoting::ChannelEventListener {
 public:
  explicit BrokerHousekeepingService(RouteInfoManager* routes) : routes_(routes) {}
  void OnChannelClosed(const remoting::ChannelPtr& channel) override {
    routes_->OnChannelDestroy(channel->id());
  }

 private:
  RouteInfoManager* routes_;
};

// Adapts DefaultRequestProcessor to the remoting server's asynchronous interface.
class ProcessorAdapter final : public remoting::RequestProcessor {
 public:
  explicit ProcessorAdapter(DefaultRequestProcessor* processor) : processor_(processor) {}
  void ProcessRequest(protocol::RemotingCommand request, remoting::Responder responder) override {
    ChannelId channel = responder.channel() ? responder.channel()->id() : 0;
    responder.Send(processor_->Process(request, channel));
  }

 private:
  DefaultRequestProcessor* processor_;
};

}  // namespace

class NamesrvController::Impl {
 public:
  Impl(NamesrvConfig* config, Clock* clock, Scheduler* scheduler)
      : settings_(config->Snapshot()),
        kv_(settings_.kv_config_path),
        routes_(clock, settings_.broker_channel_expired_time),
        processor_(config, &kv_, &routes_, clock),
        own_scheduler_(scheduler == nullptr ? std::make_unique<Scheduler>("NSScheduler")
                                            : nullptr),
        scheduler_(scheduler != nullptr ? scheduler : own_scheduler_.get()) {}

  Status Start() {
    auto log = GetLogger("namesrv");
    APOGEE_RETURN_IF_ERROR(kv_.Load());

    remoting::RemotingServerOptions options;
    options.listen_host = settings_.bind_address;
    options.listen_port = static_cast<uint16_t>(settings_.listen_port);
    options.io_threads = static_cast<size_t>(settings_.server_selector_threads);
    options.channel_max_idle =
        std::chrono::seconds(settings_.server_channel_max_idle_time_seconds);
    remoting::ApplyServerLimits(settings_.server_limits, &options);
    APOGEE_ASSIGN_OR_RETURN(options.tls, ResolveTlsConfig(settings_.tls, true, "namesrv"));
    server_ = std::make_unique<remoting::RemotingServer>(options);

    client_executor_ = std::make_shared<remoting::ThreadPoolExecutor>(
        "NSClientRequest", static_cast<size_t>(settings_.client_request_thread_pool_nums),
        kClientRequestQueueCapacity);
    default_executor_ = std::make_shared<remoting::ThreadPoolExecutor>(
        "NSDefault", static_cast<size_t>(settings_.default_thread_pool_nums),
        kDefaultQueueCapacity);
    auto adapter = std::make_shared<ProcessorAdapter>(&processor_);
    for (int32_t code : processor_.HandledCodes()) {
      server_->RegisterProcessor(
          code, adapter,
          code == protocol::request_code::kGetRouteinfoByTopic ? client_executor_
                                                                : default_executor_);
    }
    // Unknown codes reach the processor too, which answers REQUEST_CODE_NOT_SUPPORTED
    // with Java's remark.
    server_->RegisterDefaultProcessor(adapter, default_executor_);
    server_->AddChannelEventListener(std::make_shared<BrokerHousekeepingService>(&routes_));
    if (settings_.acl_enable) {
      auto file = acl::PlainAclFile::Open(
          acl::AclFilePath(settings_.acl_file_path, settings_.rocketmq_home),
          acl::AclScope::kNamesrv);
      if (!file.ok()) return file.status().Prefixed("aclEnable=true");
      acl_ = std::move(*file);
      acl_->StartWatching();
      server_->SetRequestGuard([acl = acl_](const remoting::Channel& channel,
                                            const protocol::RemotingCommand& request) {
        return acl->Check(channel.RemoteAddress(), request);
      });
      log->info("ACL on: broker membership, route, KV and config changes need an admin "
                "account of {}", acl_->path());
    }

    Status s = server_->Start();
    if (!s.ok()) return s;
    APOGEE_RETURN_IF_ERROR(StartMetrics());
    // Java's scanNotActiveBroker every scanNotActiveBrokerInterval: a walk over the broker
    // table under its lock, quick lane.
    scan_ = scheduler_->Every("NSScanNotActiveBroker", Scheduler::LaneKind::kQuick,
                              settings_.scan_not_active_broker_interval, [this] {
                                ScanNotActiveBroker();
                                return Status::OK();
                              });
    log->info("NameServer listening on {}:{}", settings_.bind_address, server_->port());
    return Status::OK();
  }

  // metricsExporterType=PROM: GET /metrics on metricsPromExporterHost:Port.
  Status StartMetrics() {
    if (settings_.metrics_exporter_type == "DISABLE") return Status::OK();
    if (settings_.metrics_exporter_type != "PROM") {
      return Status::InvalidArgument("invalid value '" + settings_.metrics_exporter_type +
                                     "' for metricsExporterType: Apogee exports DISABLE or PROM only");
    }
    const std::string node_id = settings_.bind_address + ":" + std::to_string(server_->port());
    metrics_ = std::make_unique<metrics::HttpServer>([this, node_id](const metrics::HttpRequest& r) {
      if (r.method != "GET" || (r.target != "/metrics" && !r.target.starts_with("/metrics?"))) {
        return metrics::HttpResponse{404, "text/plain; charset=utf-8", "only GET /metrics is served here\n"};
      }
      return metrics::HttpResponse{200, "text/plain; version=0.0.4; charset=utf-8",
                                   RenderNamesrvMetrics(routes_, node_id)};
    });
    Status s = metrics_->Start(settings_.metrics_prom_exporter_host,
                               static_cast<uint16_t>(settings_.metrics_prom_exporter_port));
    if (!s.ok()) return s.Prefixed("start the Prometheus exporter (metricsPromExporterPort)");
    GetLogger("namesrv")->info("Prometheus metrics on http://{}:{}/metrics",
                               settings_.metrics_prom_exporter_host, metrics_->port());
    return Status::OK();
  }

  uint16_t metrics_port() const { return metrics_ ? metrics_->port() : 0; }

  uint16_t port() const { return server_ ? server_->port() : 0; }

  void Shutdown() {
    if (metrics_) metrics_->Stop();
    scan_.Cancel();
    if (server_) server_->Shutdown();
    if (client_executor_) client_executor_->Shutdown();
    if (default_executor_) default_executor_->Shutdown();
    if (own_scheduler_) own_scheduler_->Stop();
  }

  // Removes expired brokers and closes their connections (Java's scanNotActiveBroker).
  void ScanNotActiveBroker() {
    std::vector<ChannelId> expired = routes_.ScanNotActiveBroker();
    if (expired.empty() || !server_) return;
    for (const remoting::ChannelPtr& channel : server_->Channels()) {
      for (ChannelId id : expired) {
        if (channel->id() == id) channel->Close();
      }
    }
  }

 private:
  const NamesrvSettings settings_;  // start-up values; runtime switches are read live
  KvConfigManager kv_;
  RouteInfoManager routes_;
  DefaultRequestProcessor processor_;
  std::shared_ptr<acl::PlainAclFile> acl_;  // aclEnable; shared with the server's guard
  std::unique_ptr<remoting::RemotingServer> server_;
  std::unique_ptr<metrics::HttpServer> metrics_;
  std::shared_ptr<remoting::ThreadPoolExecutor> client_executor_;
  std::shared_ptr<remoting::ThreadPoolExecutor> default_executor_;
  std::unique_ptr<Scheduler> own_scheduler_;  // when the caller gave none
  Scheduler* scheduler_;
  ScheduledJob scan_;
};

NamesrvController::NamesrvController(NamesrvConfig* config, Clock* clock, Scheduler* scheduler)
    : impl_(std::make_unique<Impl>(config, clock, scheduler)) {}

NamesrvController::~NamesrvController() { Shutdown(); }

Status NamesrvController::Start() { return impl_->Start(); }

uint16_t NamesrvController::port() const { return impl_->port(); }

void NamesrvController::Shutdown() { impl_->Shutdown(); }

}  // namespace apogee::namesrv
