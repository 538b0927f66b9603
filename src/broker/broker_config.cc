#include "broker/broker_config.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <thread>
#include <utility>

#include "base/clock.h"
#include "base/string_util.h"
#include "broker/permission.h"
#include "protocol/perm_name.h"

namespace apogee::broker {
namespace {

// Java marks these @ImportantField; -m prints only them.
const std::set<std::string>& ImportantKeys() {
  static const std::set<std::string> kKeys = {
      "rocketmqHome",
      "namesrvAddr",
      "brokerIP1",
      "brokerIP2",
      "brokerName",
      "brokerClusterName",
      "brokerId",
      "brokerRole",
      "flushDiskType",
      "listenPort",
      "haListenPort",
      "haMasterAddress",
      "storePathRootDir",
      "storePathCommitLog",
      "deleteWhen",
      "fileReservedTime",
      "diskMaxUsedSpaceRatio",
      "autoCreateTopicEnable",
      "autoCreateSubscriptionGroup",
      "rejectTransactionMessage",
      "slaveReadEnable",
      "aclEnable",
      "brokerPermission",
      "mappedFileSizeCommitLog",
      "maxMessageSize",
  };
  return kKeys;
}

std::string GetEnv(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string LocalHostName() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof(buf) - 1) != 0 || buf[0] == '\0') return "localhost";
  return buf;
}

// Java's RemotingUtil.getLocalAddress, simplified: the first non-loopback IPv4 address,
// else the loopback one.
std::string LocalIPv4Address() {
  struct ifaddrs* list = nullptr;
  std::string found;
  if (::getifaddrs(&list) == 0) {
    for (struct ifaddrs* it = list; it != nullptr; it = it->ifa_next) {
      if (it->ifa_addr == nullptr || it->ifa_addr->sa_family != AF_INET) continue;
      auto* in = reinterpret_cast<struct sockaddr_in*>(it->ifa_addr);
      char text[INET_ADDRSTRLEN] = {};
      if (::inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text)) == nullptr) continue;
      std::string addr = text;
      if (addr.rfind("127.", 0) == 0) continue;
      found = addr;
      break;
    }
    ::freeifaddrs(list);
  }
  return found.empty() ? "127.0.0.1" : found;
}

// Adds every entry of `from` to `to`, keeping types and bounds. Store settings are copied
// into the store when it opens, so none of them may change at run time here.
void AppendTable(const ConfigTable& from, ConfigTable* to) {
  for (ConfigTable::Entry e : from.entries()) {
    e.reloadable = false;
    to->AddEntry(std::move(e));
  }
}

}  // namespace

int32_t BrokerSettings::EffectiveHaListenPort() const {
  constexpr int32_t kDefaultHaListenPort = 10912;
  if (ha_listen_port > 0 && ha_listen_port != kDefaultHaListenPort) return ha_listen_port;
  return listen_port + 1;
}

int32_t BrokerSettings::EffectiveRegisterPeriodMs() const {
  return std::clamp(register_name_server_period, 10000, 60000);
}

std::vector<std::string> BrokerSettings::NamesrvAddrList() const {
  std::vector<std::string> out;
  for (const std::string& piece : SplitString(namesrv_addr, ';', true)) {
    std::string_view addr = TrimWhitespace(piece);
    if (!addr.empty()) out.emplace_back(addr);
  }
  return out;
}

std::string BrokerSettings::BrokerAddr() const {
  return fmt::format("{}:{}", broker_ip1, listen_port);
}

std::string BrokerSettings::HaServerAddr() const {
  return fmt::format("{}:{}", broker_ip2.empty() ? broker_ip1 : broker_ip2,
                     EffectiveHaListenPort());
}

ConfigTable BrokerConfig::BuildTable(BrokerSettings* s) {
  ConfigTable t;
  constexpr bool kReload = true;
  // BrokerConfig.
  t.Add("rocketmqHome", &s->rocketmq_home, "RocketMQ home directory ($ROCKETMQ_HOME)")
      .Add("namesrvAddr", &s->namesrv_addr, "NameServer addresses, host:port;host:port")
      .Add("brokerIP1", &s->broker_ip1, "address clients and NameServers see; store host of msgIds")
      .Add("brokerIP2", &s->broker_ip2, "address slaves use for HA (default brokerIP1)")
      .Add("brokerName", &s->broker_name, "name of the broker set (master and its slaves)")
      .Add("brokerClusterName", &s->broker_cluster_name, "cluster this broker belongs to")
      .Add("brokerId", &s->broker_id, "0 = master, > 0 = slave", false, 0, INT64_MAX)
      .Add("brokerPermission", &s->broker_permission,
           "PermName bits: 4 read, 2 write (6 = read and write)", kReload, 0, 15)
      .Add("defaultTopicQueueNums", &s->default_topic_queue_nums,
           "queues of TBW102, the auto-create template", kReload, 1, 1024)
      .Add("autoCreateTopicEnable", &s->auto_create_topic_enable,
           "create unknown topics on first send through TBW102", kReload)
      .Add("clusterTopicEnable", &s->cluster_topic_enable,
           "the cluster-name topic is readable and writable")
      .Add("brokerTopicEnable", &s->broker_topic_enable,
           "the broker-name topic is readable and writable")
      .Add("autoCreateSubscriptionGroup", &s->auto_create_subscription_group,
           "create unknown consumer groups on first use", kReload)
      .Add("traceTopicEnable", &s->trace_topic_enable, "create the message trace topic")
      .Add("msgTraceTopicName", &s->msg_trace_topic_name, "name of the message trace topic")
      .Add("regionId", &s->region_id, "region reported in send responses (MSG_REGION)")
      .Add("traceOn", &s->trace_on, "TRACE_ON reported in send responses", kReload)
      .Add("sendMessageThreadPoolNums", &s->send_message_thread_pool_nums,
           "threads of the send executor", false, 1, 1024)
      .Add("pullMessageThreadPoolNums", &s->pull_message_thread_pool_nums,
           "threads of the pull executor", false, 1, 1024)
      .Add("queryMessageThreadPoolNums", &s->query_message_thread_pool_nums,
           "threads of the query executor", false, 1, 1024)
      .Add("adminBrokerThreadPoolNums", &s->admin_broker_thread_pool_nums,
           "threads of the admin executor", false, 1, 1024)
      .Add("clientManageThreadPoolNums", &s->client_manage_thread_pool_nums,
           "threads of the client-manage executor", false, 1, 1024)
      .Add("consumerManageThreadPoolNums", &s->consumer_manage_thread_pool_nums,
           "threads of the consumer-manage executor", false, 1, 1024)
      .Add("heartbeatThreadPoolNums", &s->heartbeat_thread_pool_nums,
           "threads of the heartbeat executor", false, 1, 1024)
      .Add("sendThreadPoolQueueCapacity", &s->send_thread_pool_queue_capacity,
           "queued sends before SYSTEM_BUSY", false, 1, INT32_MAX)
      .Add("pullThreadPoolQueueCapacity", &s->pull_thread_pool_queue_capacity,
           "queued pulls before SYSTEM_BUSY", false, 1, INT32_MAX)
      .Add("queryThreadPoolQueueCapacity", &s->query_thread_pool_queue_capacity,
           "queued queries before SYSTEM_BUSY", false, 1, INT32_MAX)
      .Add("clientManagerThreadPoolQueueCapacity", &s->client_manager_thread_pool_queue_capacity,
           "queued client-manage requests before SYSTEM_BUSY", false, 1, INT32_MAX)
      .Add("consumerManagerThreadPoolQueueCapacity",
           &s->consumer_manager_thread_pool_queue_capacity,
           "queued consumer-manage requests before SYSTEM_BUSY", false, 1, INT32_MAX)
      .Add("heartbeatThreadPoolQueueCapacity", &s->heartbeat_thread_pool_queue_capacity,
           "queued heartbeats before SYSTEM_BUSY", false, 1, INT32_MAX)
      .Add("adminBrokerThreadPoolQueueCapacity", &s->admin_broker_thread_pool_queue_capacity,
           "queued admin requests before SYSTEM_BUSY", false, 1, INT32_MAX)
      .Add("flushConsumerOffsetInterval", &s->flush_consumer_offset_interval,
           "ms between consumerOffset.json writes", false, 100, INT32_MAX)
      .Add("flushConsumerOffsetHistoryInterval", &s->flush_consumer_offset_history_interval,
           "ms between consumer offset history records", false, 100, INT32_MAX)
      .Add("rejectTransactionMessage", &s->reject_transaction_message,
           "refuse transactional (half) messages", kReload)
      .Add("longPollingEnable", &s->long_polling_enable, "hold empty pulls until messages arrive",
           kReload)
      .Add("shortPollingTimeMills", &s->short_polling_time_mills,
           "hold time of an empty pull when long polling is off", kReload, 0, INT64_MAX)
      .Add("pullHoldMaxRequests", &s->pull_hold_max_requests,
           "Apogee: most pulls held for long polling at once; more are answered SYSTEM_BUSY "
           "(0 = unlimited)",
           false, 0, INT64_MAX)
      .Add("pullHoldMaxBytes", &s->pull_hold_max_bytes,
           "Apogee: estimated bytes of held pulls before more are answered SYSTEM_BUSY "
           "(0 = unlimited)",
           false, 0, INT64_MAX)
      .Add("notifyConsumerIdsChangedEnable", &s->notify_consumer_ids_changed_enable,
           "tell a group's consumers when its membership changes", kReload)
      .Add("transferMsgByHeap", &s->transfer_msg_by_heap,
           "accepted for compatibility; Apogee always sends pull bodies from mapped memory")
      .Add("slaveReadEnable", &s->slave_read_enable,
           "suggest the slave to consumers that read old data", kReload)
      .Add("disableConsumeIfConsumerReadSlowly", &s->disable_consume_if_consumer_read_slowly,
           "disable a group that falls behind consumerFallbehindThreshold", kReload)
      .Add("consumerFallbehindThreshold", &s->consumer_fallbehind_threshold,
           "bytes a group may fall behind before it is disabled", kReload, 0, INT64_MAX)
      .Add("brokerFastFailureEnable", &s->broker_fast_failure_enable,
           "answer SYSTEM_BUSY to requests queued too long", kReload)
      .Add("waitTimeMillsInSendQueue", &s->wait_time_mills_in_send_queue,
           "longest a send may wait in the queue", kReload, 0, INT64_MAX)
      .Add("waitTimeMillsInPullQueue", &s->wait_time_mills_in_pull_queue,
           "longest a pull may wait in the queue", kReload, 0, INT64_MAX)
      .Add("enablePropertyFilter", &s->enable_property_filter, "allow SQL92 subscriptions")
      .Add("filterSupportRetry", &s->filter_support_retry, "filter retry messages too", kReload)
      .Add("registerNameServerPeriod", &s->register_name_server_period,
           "ms between registrations (clamped to 10000..60000)", kReload, 1, INT32_MAX)
      .Add("registerBrokerTimeoutMills", &s->register_broker_timeout_mills,
           "timeout of one REGISTER_BROKER", kReload, 100, INT32_MAX)
      .Add("forceRegister", &s->force_register, "register every period even when nothing changed",
           kReload)
      .Add("compressedRegister", &s->compressed_register,
           "send the zlib-compressed registration body", kReload)
      .Add("transactionTimeOut", &s->transaction_timeout,
           "ms before an undecided transaction is checked", kReload, 0, INT64_MAX)
      .Add("transactionCheckMax", &s->transaction_check_max,
           "checks before a transaction is dropped", kReload, 0, INT32_MAX)
      .Add("transactionCheckInterval", &s->transaction_check_interval,
           "ms between transaction checks", kReload, 0, INT64_MAX)
      .Add("aclEnable", &s->acl_enable,
           "check every request against the plain ACL file (RocketMQ 4.x plain_acl.yml)")
      .Add("aclFilePath", &s->acl_file_path,
           "the plain ACL file (default <rocketmqHome>/conf/plain_acl.yml)")
      .Add("aclCredentialsFile", &s->acl_credentials_file,
           "Apogee: accessKey/secretKey (tools.yml format) this broker signs its NameServer "
           "registrations and requests to its master with")
      .Add("storeReplyMessageEnable", &s->store_reply_message_enable,
           "store request-reply messages", kReload);
  // NettyServerConfig.
  t.Add("listenPort", &s->listen_port, "remoting port; the fast port is listenPort - 2", false, 3,
        65534)
      .Add("bindAddress", &s->bind_address, "address the remoting servers bind to")
      .Add("serverWorkerThreads", &s->server_worker_threads,
           "accepted for compatibility (Netty worker threads)", false, 1, 1024)
      .Add("serverSelectorThreads", &s->server_selector_threads, "network IO threads", false, 1,
           1024)
      .Add("serverChannelMaxIdleTimeSeconds", &s->server_channel_max_idle_time_seconds,
           "close connections idle this long (0 = never)", false, 0, INT32_MAX);
  remoting::AddServerLimitKeys(&t, &s->server_limits);
  AddTlsKeys(&t, &s->tls);
  t.Add("namesrvListenPort", &s->namesrv_listen_port,
        "Apogee: port of the NameServer started by mqbroker --with-namesrv", false, 1, 65535)
      .Add("namesrvMetricsPromExporterPort", &s->namesrv_metrics_prom_exporter_port,
           "Apogee: Prometheus port of the embedded NameServer (with metricsExporterType=PROM)",
           false, 1, 65535);
  t.Add("metricsExporterType", &s->metrics_exporter_type,
        "DISABLE, or PROM for a Prometheus /metrics endpoint (OTLP_GRPC and LOG are refused)")
      .Add("metricsPromExporterHost", &s->metrics_prom_exporter_host,
           "address of the /metrics endpoint (default brokerIP1)")
      .Add("metricsPromExporterPort", &s->metrics_prom_exporter_port, "port of the /metrics endpoint",
           false, 1, 65535);
  // MessageStoreConfig keys outside the store module.
  t.Add("haListenPort", &s->ha_listen_port, "HA port (listenPort + 1 unless set)", false, 0, 65535)
      .Add("haMasterAddress", &s->ha_master_address,
           "slave: fixed master HA address (else learnt from the NameServer)")
      .Add("haSendHeartbeatInterval", &s->ha_send_heartbeat_interval,
           "ms between a slave's offset reports", false, 100, INT32_MAX)
      .Add("haHousekeepingInterval", &s->ha_housekeeping_interval,
           "ms of HA silence before a connection is dropped", false, 100, INT32_MAX)
      .Add("haTransferBatchSize", &s->ha_transfer_batch_size, "bytes per HA transfer", false, 1024,
           INT32_MAX)
      .Add("haSlaveFallbehindMax", &s->ha_slave_fallbehind_max,
           "bytes a slave may lag and still count as in sync", false, 0, INT64_MAX)
      .Add("slaveTimeout", &s->slave_timeout, "SYNC_MASTER wait for a slave's ack (ms)", false, 1,
           INT64_MAX)
      .Add("haNewSlaveFullCopy", &s->ha_new_slave_full_copy,
           "Apogee, master: a slave with an empty store gets every CommitLog file (Java: the "
           "last file only)")
      .Add("haMaxConnections", &s->ha_max_connections,
           "Apogee, master: HA connections served at once (each costs two threads); more are "
           "closed at accept",
           false, 1, 4096)
      .Add("slaveSynchronizeInterval", &s->slave_synchronize_interval,
           "Apogee, slave: ms between copies of topics, offsets, delay offsets and groups from "
           "the master",
           false, 100, INT64_MAX)
      .Add("strictAckEnable", &s->strict_ack_enable,
           "Apogee: a send whose flush or replica policy is not met fails with SYSTEM_ERROR "
           "(producers retry) instead of a soft FLUSH_*_TIMEOUT / SLAVE_NOT_AVAILABLE result")
      .Add("flushDelayOffsetInterval", &s->flush_delay_offset_interval,
           "ms between delayOffset.json writes", false, 100, INT64_MAX)
      .Add("etcdEndpoints", &s->etcd_endpoints,
           "Apogee: etcd endpoints (http://host:port, comma separated) that elect this broker "
           "set's master (docs/failover.md); empty = brokerRole decides, as in RocketMQ 4")
      .Add("etcdLeaseTtlSeconds", &s->etcd_lease_ttl_seconds,
           "Apogee: TTL of the master's etcd lease; a master that cannot renew stops "
           "acknowledging sends before it expires",
           false, 2, 60)
      .Add("etcdRenewIntervalMs", &s->etcd_renew_interval_ms,
           "Apogee: ms between renewals of the master's etcd lease", false, 100, 30000)
      .Add("haMaxGapNotInSync", &s->ha_max_gap_not_in_sync,
           "failover: bytes a replica may lag and stay in the in-sync replica set", false, 0,
           INT64_MAX)
      .Add("timerWheelEnable", &s->timer_wheel_enable,
           "accept timer messages (TIMER_DELIVER_MS, TIMER_DELAY_SEC/MS, __STARTDELIVERTIME)")
      .Add("timerMaxDelaySec", &s->timer_max_delay_sec,
           "longest accepted timer delay in seconds", false, 1, INT64_MAX);
  AppendTable(store::StoreConfigTable(&s->store), &t);
  return t;
}

BrokerConfig::BrokerConfig(BrokerSettings settings)
    : settings_(std::make_shared<const BrokerSettings>(std::move(settings))) {}

BrokerConfig::BrokerConfig() {
  BrokerSettings s;
  s.rocketmq_home = GetEnv("ROCKETMQ_HOME");
  s.namesrv_addr = GetEnv("NAMESRV_ADDR");
  s.broker_name = LocalHostName();
  s.broker_ip1 = LocalIPv4Address();
  s.broker_ip2 = s.broker_ip1;
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  s.send_message_thread_pool_nums = cores;
  s.pull_message_thread_pool_nums = 2 * cores;
  s.query_message_thread_pool_nums = cores;
  s.admin_broker_thread_pool_nums = cores;
  s.client_manage_thread_pool_nums = cores;
  s.consumer_manage_thread_pool_nums = cores;
  s.heartbeat_thread_pool_nums = cores;
  s.server_selector_threads = cores;
  settings_ = std::make_shared<const BrokerSettings>(std::move(s));
}

Status BrokerConfig::Validate(const BrokerSettings& s) {
  if (s.broker_name.empty()) return Status::InvalidArgument("brokerName must not be empty");
  if (s.broker_cluster_name.empty()) {
    return Status::InvalidArgument("brokerClusterName must not be empty");
  }
  if (s.broker_ip1.empty()) return Status::InvalidArgument("brokerIP1 must not be empty");
  if (!protocol::IsValidPerm(s.broker_permission)) {
    return Status::InvalidArgument(fmt::format(
        "invalid value '{}' for brokerPermission: unknown permission bits", s.broker_permission));
  }
  if (s.IsSlave() && s.broker_id <= 0) {
    return Status::InvalidArgument(
        fmt::format("brokerId must be greater than 0 for a SLAVE (brokerRole=SLAVE, brokerId={})",
                    s.broker_id));
  }
  const int32_t ha_port = s.EffectiveHaListenPort();
  if (ha_port > 65535) {
    return Status::InvalidArgument(
        fmt::format("HA port {} (listenPort + 1) is not a valid port", ha_port));
  }
  for (const std::string& addr : s.NamesrvAddrList()) {
    size_t colon = addr.rfind(':');
    std::optional<int32_t> port =
        colon == std::string::npos ? std::nullopt : ParseInt32(addr.substr(colon + 1));
    if (colon == std::string::npos || colon == 0 || !port || *port <= 0 || *port > 65535) {
      return Status::InvalidArgument(fmt::format(
          "invalid value '{}' for namesrvAddr: '{}' is not host:port", s.namesrv_addr, addr));
    }
  }
  if (!s.etcd_endpoints.empty() &&
      int64_t{s.etcd_renew_interval_ms} * 2 > int64_t{s.etcd_lease_ttl_seconds} * 1000) {
    return Status::InvalidArgument(fmt::format(
        "etcdRenewIntervalMs ({}) must be at most half of etcdLeaseTtlSeconds ({} s): the "
        "master must renew its lease well before it can expire",
        s.etcd_renew_interval_ms, s.etcd_lease_ttl_seconds));
  }
  if (s.metrics_exporter_type != "DISABLE" && s.metrics_exporter_type != "PROM") {
    return Status::InvalidArgument(fmt::format(
        "invalid value '{}' for metricsExporterType: Apogee exports DISABLE or PROM only",
        s.metrics_exporter_type));
  }
  Status st = s.store.Validate();
  if (!st.ok()) return st;
  return Status::OK();
}

Status BrokerConfig::ApplyProperties(const std::map<std::string, std::string>& props,
                                     std::vector<std::string>* unknown) {
  std::lock_guard<std::mutex> lock(mu_);
  BrokerSettings copy = *settings_;
  ConfigTable table = BuildTable(&copy);
  APOGEE_RETURN_IF_ERROR(table.Apply(props, unknown));
  // BrokerStartup forces a master's id to 0 (ASYNC_MASTER / SYNC_MASTER).
  if (!copy.IsSlave()) copy.broker_id = 0;
  if (props.count("brokerIP1") != 0 && props.count("brokerIP2") == 0) {
    copy.broker_ip2 = copy.broker_ip1;
  }
  APOGEE_RETURN_IF_ERROR(Validate(copy));
  settings_ = std::make_shared<const BrokerSettings>(std::move(copy));
  return Status::OK();
}

Status BrokerConfig::LoadFile(const std::string& path, std::vector<std::string>* unknown) {
  Result<std::map<std::string, std::string>> props = ParsePropertiesFile(path);
  if (!props.ok()) return props.status();
  Status s = ApplyProperties(*props, unknown);
  if (!s.ok()) return s.Prefixed(path);
  return Status::OK();
}

Status BrokerConfig::UpdateAtRuntime(const std::map<std::string, std::string>& props) {
  std::vector<std::string> changed;
  std::function<void(const std::vector<std::string>&)> listener;
  {
    std::lock_guard<std::mutex> lock(mu_);
    BrokerSettings copy = *settings_;
    ConfigTable table = BuildTable(&copy);
    for (const auto& [key, value] : props) {
      const ConfigTable::Entry* entry = table.Find(key);
      if (entry == nullptr) {
        return Status::InvalidArgument(fmt::format("unknown broker config key '{}'", key));
      }
      if (!entry->reloadable) {
        return Status::PermissionDenied(
            fmt::format("broker config key '{}' cannot be changed at run time", key));
      }
      const std::string before = table.Get(key);
      APOGEE_RETURN_IF_ERROR(table.Set(key, value));
      if (table.Get(key) != before) changed.push_back(key);
    }
    APOGEE_RETURN_IF_ERROR(Validate(copy));
    settings_ = std::make_shared<const BrokerSettings>(std::move(copy));
    data_version_.timestamp = NowMillis();
    ++data_version_.counter;
    listener = update_listener_;
  }
  if (listener && !changed.empty()) listener(changed);
  return Status::OK();
}

std::shared_ptr<const BrokerSettings> BrokerConfig::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  return settings_;
}

std::string BrokerConfig::ToPropertiesText() const {
  BrokerSettings copy = Snapshot();
  return MaskTlsSecrets(BuildTable(&copy).ToPropertiesText());
}

std::string BrokerConfig::ImportantPropertiesText() const {
  BrokerSettings copy = Snapshot();
  std::string out;
  for (const auto& [key, value] : BuildTable(&copy).Snapshot()) {
    if (ImportantKeys().count(key) != 0) out += key + "=" + value + "\n";
  }
  return out;
}

std::vector<std::string> BrokerConfig::RuntimeUpdatableKeys() const {
  BrokerSettings copy = Snapshot();
  const ConfigTable table = BuildTable(&copy);
  std::vector<std::string> out;
  for (const ConfigTable::Entry& e : table.entries()) {
    if (e.reloadable) out.emplace_back(e.key);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool BrokerConfig::HasKey(const std::string& key) const {
  BrokerSettings copy = Snapshot();
  return BuildTable(&copy).Has(key);
}

protocol::DataVersion BrokerConfig::data_version() const {
  std::lock_guard<std::mutex> lock(mu_);
  return data_version_;
}

void BrokerConfig::SetUpdateListener(
    std::function<void(const std::vector<std::string>&)> listener) {
  std::lock_guard<std::mutex> lock(mu_);
  update_listener_ = std::move(listener);
}

}  // namespace apogee::broker
