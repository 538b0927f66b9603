#include "namesrv/namesrv_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "base/runtime_config_keys.h"
#include "base/string_util.h"

namespace apogee::namesrv {
namespace {

std::string HomeDir() {
  const char* home = std::getenv("HOME");
  return home != nullptr ? home : "";
}

}  // namespace

NamesrvConfig::NamesrvConfig() {
  const char* rocketmq_home = std::getenv("ROCKETMQ_HOME");
  settings_.rocketmq_home = rocketmq_home != nullptr ? rocketmq_home : "";
  settings_.kv_config_path = HomeDir() + "/namesrv/kvConfig.json";
  settings_.config_store_path = HomeDir() + "/namesrv/namesrv.properties";
  // Sized from the core count, not Java's 3 / 8 / 16 (issue 13); the keys still set them.
  // The processor pools start their threads on demand, so these are caps.
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  settings_.server_selector_threads = cores;
  settings_.client_request_thread_pool_nums = cores;
  settings_.default_thread_pool_nums = cores;
}

// The one place every key is declared. "reloadable" is the UPDATE_NAMESRV_CONFIG
// whitelist: switches that change answers but can neither point the server at a file or
// command nor resize what is already running.
ConfigTable NamesrvConfig::BuildTable(NamesrvSettings* s) {
  ConfigTable t;
  t.Add("metricsExporterType", &s->metrics_exporter_type,
        "DISABLE, or PROM for a Prometheus /metrics endpoint")
      .Add("metricsPromExporterHost", &s->metrics_prom_exporter_host, "address of /metrics")
      .Add("metricsPromExporterPort", &s->metrics_prom_exporter_port, "port of /metrics (0: any)",
           false, 0, 65535);
  t.Add("listenPort", &s->listen_port, "TCP port of the remoting server", false, 0, 65535)
      .Add("bindAddress", &s->bind_address, "address the remoting server binds to")
      .Add("serverSelectorThreads", &s->server_selector_threads, "network IO threads", false, 1,
           256)
      .Add("serverChannelMaxIdleTimeSeconds", &s->server_channel_max_idle_time_seconds,
           "close a connection idle (no read, no write) this long", false, 0, INT32_MAX)
      .Add("rocketmqHome", &s->rocketmq_home, "RocketMQ home directory ($ROCKETMQ_HOME)")
      .Add("kvConfigPath", &s->kv_config_path, "where KV config is persisted")
      .Add("configStorePath", &s->config_store_path, "Java's runtime-config file (not written)")
      .Add("productEnvName", &s->product_env_name, "environment name (informational)")
      .Add("clusterTest", &s->cluster_test, "cluster test mode (informational)", true)
      .Add("orderMessageEnable", &s->order_message_enable,
           "add orderTopicConf from KV namespace ORDER_TOPIC_CONFIG to routes", true)
      .Add("returnOrderTopicConfigToBroker", &s->return_order_topic_config_to_broker,
           "send the ORDER_TOPIC_CONFIG KV table in REGISTER_BROKER responses", true)
      .Add("clientRequestThreadPoolNums", &s->client_request_thread_pool_nums,
           "threads for GET_ROUTEINFO_BY_TOPIC", false, 1, 1024)
      .Add("defaultThreadPoolNums", &s->default_thread_pool_nums,
           "threads for every other request", false, 1, 1024)
      .Add("scanNotActiveBrokerInterval", &s->scan_not_active_broker_interval,
           "ms between broker liveness scans", false, 10, INT64_MAX)
      .Add("brokerChannelExpiredTime", &s->broker_channel_expired_time,
           "ms without registration after which a broker is removed (Apogee key)", true, 1,
           INT64_MAX)
      .Add("enableAllTopicList", &s->enable_all_topic_list,
           "answer GET_ALL_TOPIC_LIST_FROM_NAMESERVER", true)
      .Add("enableTopicList", &s->enable_topic_list,
           "answer GET_TOPICS_BY_CLUSTER and the unit topic lists", true)
      // Start-up only: changed at run time they made every route query fail (issue 16).
      .Add("needWaitForService", &s->need_wait_for_service,
           "refuse route queries until waitSecondsForService after start")
      .Add("waitSecondsForService", &s->wait_seconds_for_service,
           "seconds of start-up grace when needWaitForService", false, 0, 3600)
      .Add("aclEnable", &s->acl_enable,
           "membership, route, KV and config changes need an admin account of the ACL file")
      .Add("aclFilePath", &s->acl_file_path,
           "the plain ACL file (default <rocketmqHome>/conf/plain_acl.yml)")
      .Add("configBlackList", &s->config_black_list,
           "keys UPDATE_NAMESRV_CONFIG refuses, ';'-separated (beyond the built-in whitelist)");
  remoting::AddServerLimitKeys(&t, &s->server_limits);
  AddTlsKeys(&t, &s->tls);
  return t;
}

Status NamesrvConfig::ApplyProperties(const std::map<std::string, std::string>& props,
                                      std::vector<std::string>* unknown) {
  std::lock_guard<std::mutex> lock(mu_);
  NamesrvSettings scratch = settings_;
  ConfigTable table = BuildTable(&scratch);
  APOGEE_RETURN_IF_ERROR(table.Apply(props, unknown));
  settings_ = std::move(scratch);
  return Status::OK();
}

Status NamesrvConfig::LoadFile(const std::string& path, std::vector<std::string>* unknown) {
  APOGEE_ASSIGN_OR_RETURN(auto props, ParsePropertiesFile(path));
  Status s = ApplyProperties(props, unknown);
  return s.ok() ? s : s.Prefixed(path);
}

Status NamesrvConfig::UpdateAtRuntime(const std::map<std::string, std::string>& props) {
  std::lock_guard<std::mutex> lock(mu_);
  NamesrvSettings scratch = settings_;
  ConfigTable table = BuildTable(&scratch);
  std::vector<std::string> black_list = SplitString(settings_.config_black_list, ';', true);
  for (const auto& [key, value] : props) {
    const ConfigTable::Entry* e = table.Find(key);
    if (e == nullptr) {
      return Status::InvalidArgument(fmt::format("unknown config key '{}'", key));
    }
    bool black_listed = false;
    for (const std::string& b : black_list) {
      if (TrimWhitespace(b) == key) black_listed = true;
    }
    if (std::string reason = ForbiddenRuntimeConfigKeyReason(key); !reason.empty()) {
      return Status::PermissionDenied(reason);
    }
    if (!e->reloadable || black_listed) {
      return Status::PermissionDenied(
          fmt::format("config key '{}' cannot be changed at run time", key));
    }
    APOGEE_RETURN_IF_ERROR(table.Set(key, value));
  }
  settings_ = std::move(scratch);
  return Status::OK();
}

NamesrvSettings NamesrvConfig::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return settings_;
}

std::string NamesrvConfig::ToPropertiesText() const {
  std::lock_guard<std::mutex> lock(mu_);
  NamesrvSettings copy = settings_;
  return MaskTlsSecrets(BuildTable(&copy).ToPropertiesText());
}

std::vector<std::string> NamesrvConfig::RuntimeUpdatableKeys() const {
  NamesrvSettings dummy;
  ConfigTable table = BuildTable(&dummy);
  std::vector<std::string> keys;
  for (const auto& e : table.entries()) {
    if (e.reloadable) keys.emplace_back(e.key);
  }
  return keys;
}

}  // namespace apogee::namesrv
