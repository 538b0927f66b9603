#include "broker/broker_controller.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <utility>
#include <vector>

#include "base/logging.h"
#include "metrics/exposition.h"
#include "broker/processors/admin_processors.h"
#include "broker/stats/broker_metrics.h"
#include "broker/stats/broker_stats_manager.h"
#include "broker/stats/rpc_latency.h"
#include "broker/broker_config.h"
#include "broker/broker_outer_api.h"
#include "broker/broker_services.h"
#include "broker/processors/client_processors.h"
#include "broker/processors/processor_table.h"
#include "broker/failover_coordinator.h"
#include "broker/permission.h"
#include "broker/processors/schedule_processors.h"
#include "broker/processors/send_pull_processors.h"
#include "broker/slave_synchronize.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "broker/processors/transaction_processors.h"
#include "env/env.h"
#include "ha/ha_client.h"
#include "ha/ha_service.h"
#include "acl/credentials_file.h"
#include "acl/plain_acl_file.h"
#include "protocol/perm_name.h"
#include "remoting/executor.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "store/message_store.h"

namespace apogee::broker {
namespace {

std::shared_ptr<spdlog::logger> Log() { return GetLogger("broker"); }

constexpr int64_t kPersistIntervalMs = 10000;
constexpr std::chrono::milliseconds kUnregisterTimeout{3000};
// Java reads haMasterAddress only when it is at least this long ("a:1" is no address).
constexpr size_t kMinHaMasterAddressLength = 6;
// The first metadata copy runs this soon after start (4.9.8: 3 s), then every
// slaveSynchronizeInterval.
constexpr int64_t kFirstSlaveSyncDelayMs = 3000;

ha::HaOptions MakeHaOptions(const BrokerSettings& s) {
  ha::HaOptions o;
  o.listen_host = s.bind_address;
  o.listen_port = static_cast<uint16_t>(s.EffectiveHaListenPort());
  o.heartbeat_interval_ms = s.ha_send_heartbeat_interval;
  o.housekeeping_interval_ms = s.ha_housekeeping_interval;
  o.transfer_batch_size = s.ha_transfer_batch_size;
  o.slave_fallbehind_max = s.ha_slave_fallbehind_max;
  o.slave_timeout_ms = s.slave_timeout;
  o.commit_log_file_size = s.store.mapped_file_size_commit_log;
  o.new_slave_full_copy = s.ha_new_slave_full_copy;
  o.max_connections = s.ha_max_connections;
  return o;
}

}  // namespace

class BrokerController::Impl {
 public:
  Impl(BrokerConfig* config, env::Env* env, const Clock* clock, Scheduler* scheduler)
      : config_(config),
        env_(env != nullptr ? env : env::Env::Default()),
        clock_(clock),
        own_scheduler_(scheduler == nullptr ? std::make_unique<Scheduler>() : nullptr),
        scheduler_(scheduler != nullptr ? scheduler : own_scheduler_.get()) {}

  Status Initialize();
  Status Start();
  void Shutdown();
  Status RegisterBrokerAll();
  Status InitializeAcl(const BrokerSettings& s);
  void InitializeHa(const BrokerSettings& s);
  Status StartHa();
  void ShutdownHa();
  // A slave learns its master's addresses from a registration answer.
  void OnMasterAddresses(const std::optional<std::string>& master_addr,
                         const std::optional<std::string>& ha_server_addr);

  // The periodic jobs (base/scheduler.h says which lane and why).
  void StartRegisterJob() {
    // REGISTER_BROKER waits for every NameServer's answer (registerBrokerTimeoutMills):
    // blocking lane. registerNameServerPeriod is read after every round.
    ScheduledJob job = scheduler_->Every(
        "BrokerRegister", Scheduler::LaneKind::kBlocking,
        config_->Get()->EffectiveRegisterPeriodMs(),
        [this] { return static_cast<int64_t>(config_->Get()->EffectiveRegisterPeriodMs()); },
        [this] { return RegisterBrokerAll().Prefixed("register broker to name servers failed"); });
    std::lock_guard<std::mutex> lock(register_job_mu_);
    register_job_ = std::move(job);
  }
  void RequestRegisterNow() {
    std::lock_guard<std::mutex> lock(register_job_mu_);
    register_job_.RunNow();
  }
  void StopRegisterJob() {
    ScheduledJob job;
    {
      std::lock_guard<std::mutex> lock(register_job_mu_);
      job = std::move(register_job_);
    }
    job.Cancel();  // outside the lock: a running registration may ask for another
  }

  // Topic and group changes are persisted as they happen; this job rewrites a table whose
  // version moved since its last successful write, so a failed write (disk full, IO error)
  // is retried instead of lost. A small local write: quick lane.
  void StartPersistJob() {
    persist_job_ = scheduler_->Every("BrokerPersist", Scheduler::LaneKind::kQuick,
                                     kPersistIntervalMs, [this] {
                                       PersistIfChanged();
                                       return Status::OK();
                                     });
  }

  // Slave: copies the master's topics, offsets, delay offsets and groups (SlaveSynchronize),
  // first after a few seconds, then every slaveSynchronizeInterval. Remote calls: blocking
  // lane.
  void StartSlaveSyncJob() {
    const int64_t interval = config_->Get()->slave_synchronize_interval;
    slave_sync_job_ = scheduler_->Every(
        "SlaveSynchronize", Scheduler::LaneKind::kBlocking,
        std::min<int64_t>(kFirstSlaveSyncDelayMs, interval),
        [this] { return static_cast<int64_t>(config_->Get()->slave_synchronize_interval); },
        [this] { return slave_sync_->SyncAll(); });
  }

  void PersistIfChanged() {
    auto topics_version = topics_->data_version();
    if (!(topics_version == persisted_topics_version_)) {
      Status s = topics_->Persist();
      if (s.ok()) {
        persisted_topics_version_ = topics_version;
      } else {
        Log()->error("persist topics failed: {}", s.ToString());
      }
    }
    auto groups_version = groups_->data_version();
    if (!(groups_version == persisted_groups_version_)) {
      Status s = groups_->Persist();
      if (s.ok()) {
        persisted_groups_version_ = groups_version;
      } else {
        Log()->error("persist subscription groups failed: {}", s.ToString());
      }
    }
  }

  std::shared_ptr<remoting::ThreadPoolExecutor> NewExecutor(const std::string& name,
                                                            int32_t threads, int32_t capacity) {
    auto executor = std::make_shared<remoting::ThreadPoolExecutor>(
        name, static_cast<size_t>(std::max(1, threads)),
        static_cast<size_t>(std::max(1, capacity)));
    executors_.push_back(executor);
    return executor;
  }

  // The wiring in one place: the statistics and every service once, in dependency order
  // (broker_services.h); who hears of new messages; then each request family builds its
  // processors from them, and the one table (processor_table.cc) says which code each port
  // serves with which executor.
  Status BuildProcessors() {
    // One statistics object for the whole broker, counted by the send and pull paths and
    // read by the admin family and the metrics exporter.
    context_.stats = std::make_shared<BrokerStatsManager>(Clock::Real());
    APOGEE_RETURN_IF_ERROR(services_.Build(context_, env_));
    // In this order: long polling answers parked pulls first, then delay and timer delivery.
    services_.AddArrivalObservers(&context_.arrival_observers);
    BrokerProcessors processors;
    CreateClientProcessors(context_, services_, &processors);
    CreateSendPullProcessors(context_, services_, &processors);
    CreateAdminProcessors(context_, &processors, env_);
    CreateScheduleProcessors(context_, &processors);
    CreateTransactionProcessors(context_, services_, &processors);
    processor_table_ = BuildProcessorTable(processors, context_.executors);
    return Status::OK();
  }

  // Prometheus: HA lag per slave (the master's view) joins the broker's families.
  void RegisterMetrics() {
    if (config_->Get()->metrics_exporter_type == "PROM") {
      // rocketmq_rpc_latency: both remoting ports report their responses.
      auto rpc = std::make_shared<RpcLatencyRecorder>();
      server_->SetResponseObserver(rpc);
      fast_server_->SetResponseObserver(rpc);
      context_.metrics_sources.push_back([this, rpc](metrics::PromWriter& w) {
        const auto s = config_->Get();
        rpc->Write(w, s->broker_cluster_name, s->broker_name);
      });
    }
    context_.metrics_sources.push_back([this](metrics::PromWriter& w) {
      // Set in Initialize, before the exporter's thread starts; stopped after it stops.
      ha::HaService* ha = ha_service_.get();
      if (ha == nullptr) return;
      const auto s = config_->Get();
      const int64_t max = store_->MaxPhyOffset();
      w.Family("apogee_ha_slave_lag_bytes", "gauge",
               "CommitLog bytes the slave has not acknowledged yet (master's view)");
      for (const ha::SlaveInfo& slave : ha->Slaves()) {
        w.Sample("apogee_ha_slave_lag_bytes",
                 {{"cluster", s->broker_cluster_name}, {"node_type", "broker"},
                  {"node_id", s->broker_name}, {"slave", slave.address}},
                 std::max<int64_t>(0, max - std::max<int64_t>(0, slave.ack_offset)));
      }
    });
    RegisterMetricsExporter(context_, context_.stats, env_);
  }

  BrokerConfig* config_;
  env::Env* env_;
  const Clock* clock_;
  std::unique_ptr<Scheduler> own_scheduler_;  // when the caller gave none
  Scheduler* scheduler_;

  std::unique_ptr<store::MessageStore> store_;
  std::unique_ptr<TopicConfigManager> topics_;
  std::unique_ptr<SubscriptionGroupManager> groups_;
  // Built by BuildProcessors; started after the store, shut down before it.
  BrokerServices services_;
  std::vector<std::shared_ptr<remoting::ThreadPoolExecutor>> executors_;
  ProcessorTable processor_table_;
  std::unique_ptr<remoting::RemotingServer> server_;
  std::unique_ptr<remoting::RemotingServer> fast_server_;
  std::unique_ptr<BrokerOuterAPI> outer_api_;
  std::mutex register_job_mu_;  // register_job_ is replaced while processors may ask for a run
  ScheduledJob register_job_;    // guarded by register_job_mu_
  ScheduledJob persist_job_;
  // HA: the master's service, or the slave's client and metadata copier.
  std::unique_ptr<ha::HaService> ha_service_;
  // aclEnable: the plain ACL every request passes; the credentials this broker signs with.
  std::shared_ptr<acl::PlainAclFile> acl_;  // shared with the servers' guards
  acl::Credentials credentials_;
  std::unique_ptr<ha::HaClient> ha_client_;
  std::unique_ptr<remoting::RemotingClient> sync_client_;
  // tls.* after tls.config.file; tls.enable makes the broker's own connections use TLS.
  TlsConfig tls_;
  ha::HaOptions HaOptionsWithTls(const BrokerSettings& s) const {
    ha::HaOptions o = MakeHaOptions(s);
    o.tls = tls_;
    return o;
  }
  // The broker's own client connections: TLS when tls.enable, every request signed with
  // credentials_ (empty unless aclEnable).
  remoting::RemotingClientOptions ClientOptions() const {
    remoting::RemotingClientOptions options;
    options.before_request = acl::SigningHook(credentials_);
    options.use_tls = tls_.enable;
    options.tls = tls_;
    options.tls_handshake_timeout = std::chrono::milliseconds(tls_.handshake_timeout_ms);
    return options;
  }
  std::unique_ptr<SlaveSynchronize> slave_sync_;
  ScheduledJob slave_sync_job_;
  // Failover coordinated by etcd (etcdEndpoints); null without it.
  std::unique_ptr<FailoverCoordinator> failover_;
  std::function<void(const std::string&)> restart_handler_;
  std::atomic<bool> stopping_{false};
  BrokerContext context_;

  protocol::DataVersion persisted_topics_version_;  // persist job only (after Start)
  protocol::DataVersion persisted_groups_version_;

  std::mutex register_mu_;  // one registration at a time
  mutable std::mutex result_mu_;
  std::optional<std::string> master_addr_;     // guarded by result_mu_
  std::optional<std::string> master_ha_addr_;  // guarded by result_mu_

  bool initialized_ = false;
  bool started_ = false;
  bool shut_down_ = false;
};

Status BrokerController::Impl::Initialize() {
  std::shared_ptr<const BrokerSettings> s = config_->Get();
  APOGEE_RETURN_IF_ERROR(BrokerConfig::Validate(*s));
  if (!s->etcd_endpoints.empty()) {
    // etcd decides this broker's role; broker.conf's is only the starting point.
    APOGEE_ASSIGN_OR_RETURN(failover_, FailoverCoordinator::Create(*s, env_));
    APOGEE_ASSIGN_OR_RETURN(StartupPlan plan, failover_->PlanStartup(stopping_));
    Log()->info("failover: starting as {} (brokerId {}): {}", plan.broker_role, plan.broker_id,
                plan.reason);
    APOGEE_RETURN_IF_ERROR(config_->ApplyProperties(
        {{"brokerRole", plan.broker_role},
         {"brokerId", std::to_string(plan.broker_id)},
         {"haMasterAddress", plan.ha_master_address}}));
    s = config_->Get();
    APOGEE_RETURN_IF_ERROR(BrokerConfig::Validate(*s));
    context_.may_acknowledge = [f = failover_.get()] { return f->CanAcknowledge(); };
    context_.failover = failover_.get();
  }

  Result<std::unique_ptr<store::MessageStore>> store =
      store::MessageStore::Open(s->store, env_, clock_);
  if (!store.ok()) return store.status().Prefixed("open message store");
  store_ = std::move(store).value();
  store_->SetScheduler(scheduler_);
  if (failover_) APOGEE_RETURN_IF_ERROR(failover_->AfterStoreOpened(store_.get()));
  const store::RecoveryReport& recovery = store_->recovery_report();
  Log()->info("message store opened at {} ({} exit, CommitLog recovered to {} in {} ms)",
              s->store.RootDir(), recovery.last_exit_ok ? "clean" : "abnormal",
              recovery.commit_log_end, recovery.elapsed_ms);

  const std::string config_dir = s->ConfigDir();
  topics_ =
      std::make_unique<TopicConfigManager>(config_, env_, config_dir + "/topics.json", clock_);
  groups_ = std::make_unique<SubscriptionGroupManager>(
      config_, env_, config_dir + "/subscriptionGroup.json", clock_);
  APOGEE_RETURN_IF_ERROR(topics_->Load());
  APOGEE_RETURN_IF_ERROR(groups_->Load());
  persisted_topics_version_ = topics_->data_version();
  persisted_groups_version_ = groups_->data_version();

  context_.config = config_;
  context_.scheduler = scheduler_;
  context_.store = store_.get();
  context_.topic_config_manager = topics_.get();
  context_.subscription_group_manager = groups_.get();
  context_.broker_addr = s->BrokerAddr();
  context_.ha_server_addr = s->HaServerAddr();

  BrokerExecutors& ex = context_.executors;
  ex.send = NewExecutor("SendMessageThread", s->send_message_thread_pool_nums,
                        s->send_thread_pool_queue_capacity);
  ex.pull = NewExecutor("PullMessageThread", s->pull_message_thread_pool_nums,
                        s->pull_thread_pool_queue_capacity);
  ex.query_message = NewExecutor("QueryMessageThread", s->query_message_thread_pool_nums,
                                 s->query_thread_pool_queue_capacity);
  ex.admin = NewExecutor("AdminBrokerThread", s->admin_broker_thread_pool_nums,
                         s->admin_broker_thread_pool_queue_capacity);
  ex.client_manage = NewExecutor("ClientManageThread", s->client_manage_thread_pool_nums,
                                 s->client_manager_thread_pool_queue_capacity);
  ex.heartbeat = NewExecutor("HeartbeatThread", s->heartbeat_thread_pool_nums,
                             s->heartbeat_thread_pool_queue_capacity);
  ex.consumer_manage = NewExecutor("ConsumerManageThread", s->consumer_manage_thread_pool_nums,
                                   s->consumer_manager_thread_pool_queue_capacity);

  remoting::RemotingServerOptions options;
  options.listen_host = s->bind_address;
  options.listen_port = static_cast<uint16_t>(s->listen_port);
  options.io_threads = static_cast<size_t>(s->server_selector_threads);
  options.channel_max_idle = std::chrono::seconds(s->server_channel_max_idle_time_seconds);
  remoting::ApplyServerLimits(s->server_limits, &options);
  APOGEE_ASSIGN_OR_RETURN(tls_, ResolveTlsConfig(s->tls, true, "broker"));
  options.tls = tls_;
  server_ = std::make_unique<remoting::RemotingServer>(options);
  options.listen_port = static_cast<uint16_t>(s->listen_port - 2);
  // The fast ("VIP") port serves only clients that still enable the VIP channel (Java <= 4.4,
  // docs/protocol/remoting.md §1.1): its connections share the main port's IO threads
  // (serverSelectorThreads, one per core by default) instead of idling on threads of their own.
  options.share_io_threads_with = server_.get();
  fast_server_ = std::make_unique<remoting::RemotingServer>(options);
  APOGEE_RETURN_IF_ERROR(InitializeAcl(*s));

  context_.register_broker_all_now = [this] { RequestRegisterNow(); };
  topics_->SetChangeListener([this] { context_.RequestRegisterBrokerAll(); });
  config_->SetUpdateListener([this](const std::vector<std::string>& keys) {
    if (std::find(keys.begin(), keys.end(), "brokerPermission") != keys.end()) {
      Log()->info("brokerPermission changed to {}; registering now",
                  protocol::PermToString(config_->Get()->broker_permission));
      context_.RequestRegisterBrokerAll();
    }
  });

  // One table for both ports: the fast one serves every row but the main-only ones.
  APOGEE_RETURN_IF_ERROR(BuildProcessors());
  processor_table_.ApplyTo(*server_, ServerPort::kMain);
  processor_table_.ApplyTo(*fast_server_, ServerPort::kFast);
  RegisterMetrics();

  // The store reports arrivals on its reput thread; the observers (the long-polling hold
  // service, the delay and timer services, added with the processors above) hear them in
  // the order added.
  store_->SetMessageArrivingListener(
      [this](std::string_view topic, int32_t queue_id, int64_t next_offset) {
        context_.arrival_observers.Notify(topic, queue_id, next_offset);
        // New records: wake the HA writers instead of letting them sleep out their 100 ms.
        if (ha_service_) ha_service_->NotifyTransfer();
      });

  InitializeHa(*s);

  outer_api_ = std::make_unique<BrokerOuterAPI>(ClientOptions());
  outer_api_->UpdateNameServerAddressList(s->NamesrvAddrList());
  initialized_ = true;
  return Status::OK();
}

Status BrokerController::Impl::Start() {
  if (!initialized_) return Status::Aborted("BrokerController::Start before Initialize");
  APOGEE_RETURN_IF_ERROR(store_->Start());
  context_.stats->Start(scheduler_);
  APOGEE_RETURN_IF_ERROR(services_.Start(scheduler_, config_->Get()->IsSlave()));
  for (const auto& hook : context_.start_hooks) APOGEE_RETURN_IF_ERROR(hook());

  Status s = server_->Start();
  if (!s.ok()) return s.Prefixed("start remoting server");
  s = fast_server_->Start();
  if (!s.ok()) return s.Prefixed("start fast remoting server (listenPort - 2)");
  // HA after the client ports, so a busy listenPort is the error reported first.
  APOGEE_RETURN_IF_ERROR(StartHa());
  started_ = true;

  outer_api_->Start();
  s = RegisterBrokerAll();
  if (!s.ok()) Log()->warn("first registration with the name servers failed: {}", s.ToString());
  // A processor that asked for a registration before this had it served by the one above.
  StartRegisterJob();
  StartPersistJob();
  if (failover_) {
    failover_->Start(store_.get(), [this](const std::string& why) {
      if (restart_handler_) {
        restart_handler_(why);
      } else {
        Log()->error("failover needs a restart ({}), but no restart handler is set", why);
      }
    }, [this] { context_.RequestRegisterBrokerAll(); });
  }
  return Status::OK();
}

Status BrokerController::Impl::RegisterBrokerAll() {
  std::lock_guard<std::mutex> serial(register_mu_);
  std::shared_ptr<const BrokerSettings> s = config_->Get();
  // A fenced master (its etcd lease unconfirmed) does not claim brokerId 0: a newer master
  // may hold it. It registers as soon as the lease is renewed.
  if (failover_ && !s->IsSlave() && !failover_->CanAcknowledge()) return Status::OK();
  RegisterBrokerRequest request;
  request.cluster_name = s->broker_cluster_name;
  request.broker_addr = s->BrokerAddr();
  request.broker_name = s->broker_name;
  request.broker_id = s->broker_id;
  request.ha_server_addr = s->HaServerAddr();
  request.compressed = s->compressed_register;
  request.timeout = std::chrono::milliseconds(s->register_broker_timeout_mills);
  request.topic_config_wrapper = topics_->BuildSerializeWrapper();
  // A broker whose read or write permission is wiped advertises every topic that way, so
  // producers (or consumers) move elsewhere.
  for (auto& [name, topic] : request.topic_config_wrapper.topic_config_table) {
    topic.perm = EffectiveTopicPerm(s->broker_permission, topic.perm);
  }

  std::vector<RegisterOutcome> outcomes = outer_api_->RegisterBrokerAll(request);
  if (outcomes.empty()) return Status::OK();
  std::vector<std::string> failures;
  const RegisterOutcome* first_ok = nullptr;
  for (const RegisterOutcome& o : outcomes) {
    if (o.status.ok()) {
      if (first_ok == nullptr) first_ok = &o;
    } else {
      failures.push_back(o.status.ToString());
    }
  }
  if (first_ok != nullptr) {
    {
      std::lock_guard<std::mutex> lock(result_mu_);
      if (first_ok->result.master_addr) master_addr_ = first_ok->result.master_addr;
      if (first_ok->result.ha_server_addr) master_ha_addr_ = first_ok->result.ha_server_addr;
    }
    OnMasterAddresses(first_ok->result.master_addr, first_ok->result.ha_server_addr);
    // checkOrderConfig: the NameServer's ORDER_TOPIC_CONFIG marks order topics.
    topics_->UpdateOrderTopicConfig(first_ok->result.kv_table);
  }
  for (const std::string& f : failures) Log()->warn("{}", f);
  if (first_ok == nullptr) {
    return Status::Unavailable(
        fmt::format("no name server accepted the registration: {}", fmt::join(failures, "; ")));
  }
  return Status::OK();
}

Status BrokerController::Impl::InitializeAcl(const BrokerSettings& s) {
  if (!s.acl_credentials_file.empty()) {
    auto credentials = acl::ReadCredentialsFile(s.acl_credentials_file);
    if (!credentials.ok()) return credentials.status().Prefixed("aclCredentialsFile");
    credentials_ = std::move(*credentials);
  }
  if (!s.acl_enable) return Status::OK();
  if (s.IsSlave() && credentials_.empty()) {
    return Status::InvalidArgument(
        "aclEnable=true on a slave needs aclCredentialsFile: an admin account of the master's "
        "ACL file, for the HA handshake and the requests to the master");
  }
  auto file = acl::PlainAclFile::Open(acl::AclFilePath(s.acl_file_path, s.rocketmq_home),
                                      acl::AclScope::kBroker);
  if (!file.ok()) return file.status().Prefixed("aclEnable=true");
  acl_ = std::move(*file);
  acl_->StartWatching();
  auto guard = [acl = acl_](const remoting::Channel& channel,
                                  const protocol::RemotingCommand& request) {
    return acl->Check(channel.RemoteAddress(), request);
  };
  server_->SetRequestGuard(guard);
  fast_server_->SetRequestGuard(guard);
  Log()->info("ACL on: every request is checked against {}", acl_->path());
  if (credentials_.empty()) {
    Log()->warn("aclEnable=true without aclCredentialsFile: NameServers with aclEnable will "
                "refuse this broker's registrations (docs/security.md)");
  }
  return Status::OK();
}

void BrokerController::Impl::InitializeHa(const BrokerSettings& s) {
  if (!s.IsSlave()) {
    ha::HaOptions options = HaOptionsWithTls(s);
    if (acl_) {
      options.auth.verify = [acl = acl_](std::string_view access_key, std::string_view challenge,
                                         std::string_view signature) {
        return acl::VerifyHaChallenge(*acl->config(), access_key, challenge, signature);
      };
    }
    ha_service_ = std::make_unique<ha::HaService>(store_.get(), options, clock_);
    // SYNC_MASTER puts wait for a slave's ack (the store asks only in that role).
    store_->SetReplicaWaiter(
        [ha = ha_service_.get()](int64_t next_offset, std::function<void(store::PutStatus)> done) {
          ha->WaitForReplica(next_offset, std::move(done));
        });
    return;
  }
  ha::HaOptions options = HaOptionsWithTls(s);
  if (s.acl_enable) {
    options.auth.sign = [credentials = credentials_](std::string_view challenge) {
      return std::make_pair(credentials.access_key,
                            acl::CalSignature(challenge, credentials.secret_key));
    };
  }
  ha_client_ = std::make_unique<ha::HaClient>(store_.get(), options, clock_);
  sync_client_ = std::make_unique<remoting::RemotingClient>(ClientOptions());
  slave_sync_ = std::make_unique<SlaveSynchronize>(&context_, env_, sync_client_.get());
  if (s.ha_master_address.size() >= kMinHaMasterAddressLength) {
    ha_client_->UpdateMasterAddress(s.ha_master_address);
    // Until a registration names the master's remoting address, derive it.
    Result<std::string> addr = SlaveSynchronize::RemotingAddrFromHaAddr(s.ha_master_address);
    if (addr.ok()) {
      slave_sync_->SetMasterAddr(*addr);
    } else {
      Log()->warn("{}", addr.status().ToString());
    }
  }
}

Status BrokerController::Impl::StartHa() {
  if (ha_service_) {
    Status s = ha_service_->Start();
    if (!s.ok()) return s;
  }
  if (ha_client_) {
    ha_client_->Start();
    sync_client_->Start();
    StartSlaveSyncJob();
  }
  return Status::OK();
}

void BrokerController::Impl::ShutdownHa() {
  // The client first: a metadata copy waiting on a master that stopped answering (e.g. a
  // SIGSTOP'ed one during a failover) fails at once instead of after each call's timeout.
  if (sync_client_) sync_client_->Shutdown();
  slave_sync_job_.Cancel();
  if (ha_client_) ha_client_->Stop();
  if (ha_service_) ha_service_->Shutdown();
}

void BrokerController::Impl::OnMasterAddresses(const std::optional<std::string>& master_addr,
                                                const std::optional<std::string>& ha_server_addr) {
  if (!ha_client_) return;
  // A configured haMasterAddress is never replaced (Java's updateHaMasterAddress rule).
  if (ha_server_addr && !ha_server_addr->empty() &&
      config_->Get()->ha_master_address.size() < kMinHaMasterAddressLength) {
    ha_client_->UpdateMasterAddress(*ha_server_addr);
  }
  if (master_addr && !master_addr->empty()) slave_sync_->SetMasterAddr(*master_addr);
}

void BrokerController::Impl::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  stopping_.store(true);
  // First: a master stops acknowledging and hands its lease over.
  if (failover_) failover_->Shutdown();
  // The config outlives this controller; its listener must not call into a dead one.
  if (initialized_) config_->SetUpdateListener(nullptr);
  StopRegisterJob();
  persist_job_.Cancel();
  // Stop accepting and close every connection.
  if (server_) server_->Shutdown();
  if (fast_server_) fast_server_->Shutdown();
  // Run what is queued; nothing new can arrive.
  for (const auto& executor : executors_) executor->Shutdown();
  for (auto it = context_.shutdown_hooks.rbegin(); it != context_.shutdown_hooks.rend(); ++it) {
    (*it)();
  }
  // Transaction check, delay and timer offsets written, long polling stopped, consumer
  // offsets written, housekeeping stopped (broker_services.h): all before the store closes.
  services_.Shutdown();
  if (context_.stats) context_.stats->Shutdown();
  if (topics_ && initialized_) {
    Status s = topics_->Persist();
    if (!s.ok()) Log()->error("persist topics at shutdown failed: {}", s.ToString());
  }
  if (groups_ && initialized_) {
    Status s = groups_->Persist();
    if (!s.ok()) Log()->error("persist subscription groups at shutdown failed: {}", s.ToString());
  }
  ShutdownHa();
  if (store_) store_->Shutdown();
  if (outer_api_ && started_) {
    std::shared_ptr<const BrokerSettings> s = config_->Get();
    std::vector<Status> results = outer_api_->UnregisterBrokerAll(
        s->broker_cluster_name, s->BrokerAddr(), s->broker_name, s->broker_id, kUnregisterTimeout);
    for (const Status& r : results) {
      if (!r.ok()) Log()->warn("{}", r.ToString());
    }
  }
  if (outer_api_) outer_api_->Shutdown();
  // Every job was cancelled by its owner above; a scheduler of our own has nothing left.
  if (own_scheduler_) own_scheduler_->Stop();
}

BrokerController::BrokerController(BrokerConfig* config, env::Env* env, const Clock* clock,
                                   Scheduler* scheduler)
    : impl_(std::make_unique<Impl>(config, env, clock, scheduler)) {}

BrokerController::~BrokerController() { Shutdown(); }

Status BrokerController::Initialize() { return impl_->Initialize(); }

Status BrokerController::Start() { return impl_->Start(); }

void BrokerController::Shutdown() { impl_->Shutdown(); }

uint16_t BrokerController::port() const { return impl_->server_ ? impl_->server_->port() : 0; }

const ProcessorTable& BrokerController::processor_table() const { return impl_->processor_table_; }

uint16_t BrokerController::fast_port() const {
  return impl_->fast_server_ ? impl_->fast_server_->port() : 0;
}

BrokerContext& BrokerController::context() { return impl_->context_; }

void BrokerController::SetRestartHandler(std::function<void(const std::string&)> handler) {
  impl_->restart_handler_ = std::move(handler);
}

void BrokerController::RequestStop() { impl_->stopping_.store(true); }

FailoverCoordinator* BrokerController::failover() { return impl_->failover_.get(); }

Status BrokerController::RegisterBrokerAll() {
  if (!impl_->started_) return Status::Aborted("the broker is not started");
  return impl_->RegisterBrokerAll();
}

std::optional<std::string> BrokerController::master_addr() const {
  std::lock_guard<std::mutex> lock(impl_->result_mu_);
  return impl_->master_addr_;
}

std::optional<std::string> BrokerController::master_ha_server_addr() const {
  std::lock_guard<std::mutex> lock(impl_->result_mu_);
  return impl_->master_ha_addr_;
}

}  // namespace apogee::broker
