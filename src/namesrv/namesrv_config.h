// NamesrvConfig: the NameServer's settings under RocketMQ's key names (NamesrvConfig and
// the NettyServerConfig keys a NameServer uses), read from a Java properties file
// (`mqnamesrv -c namesrv.conf`) and, for a whitelist of harmless keys, changed at run
// time by UPDATE_NAMESRV_CONFIG.
//
// Thread-safety: every method may be called from any thread; values are read as a copy
// (Snapshot()) so a concurrent update never tears a reader's view.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/config_table.h"
#include "base/status.h"
#include "base/tls_config.h"
#include "remoting/server_limits_config.h"

namespace apogee::namesrv {

struct NamesrvSettings {
  // NettyServerConfig (Java's NamesrvStartup sets listenPort 9876).
  int32_t listen_port = 9876;
  std::string bind_address = "0.0.0.0";
  int32_t server_selector_threads = 3;
  int32_t server_channel_max_idle_time_seconds = 120;
  // writeBufferHighWaterMark & co. (docs/security.md, "Resource limits").
  remoting::ServerLimitSettings server_limits;
  // tls.* (Java's TlsSystemConfig; docs/security.md, "TLS").
  TlsConfig tls;

  // NamesrvConfig.
  std::string rocketmq_home;      // $ROCKETMQ_HOME, else ""
  std::string kv_config_path;     // ~/namesrv/kvConfig.json
  std::string config_store_path;  // ~/namesrv/namesrv.properties (not written by Apogee)
  std::string product_env_name = "center";
  bool cluster_test = false;
  bool order_message_enable = false;
  bool return_order_topic_config_to_broker = true;
  int32_t client_request_thread_pool_nums = 8;
  int32_t default_thread_pool_nums = 16;
  int64_t scan_not_active_broker_interval = 5000;
  bool enable_all_topic_list = true;
  bool enable_topic_list = true;
  bool need_wait_for_service = false;
  int32_t wait_seconds_for_service = 45;
  std::string config_black_list = "configBlackList;configStorePath;kvConfigPath";

  // Apogee key: Java hard-codes 120 s (RouteInfoManager.DEFAULT_BROKER_CHANNEL_EXPIRED_TIME).
  // A REGISTER_BROKER header heartbeatTimeoutMillis overrides it per broker.
  int64_t broker_channel_expired_time = 120000;

  // Prometheus (RocketMQ 5.1's metrics key names): DISABLE or PROM.
  std::string metrics_exporter_type = "DISABLE";
  std::string metrics_prom_exporter_host = "127.0.0.1";
  int32_t metrics_prom_exporter_port = 5558;
  // Apogee (beyond 4.x): with aclEnable, REGISTER_BROKER, UNREGISTER_BROKER, permission
  // and topic changes, KV and config updates need a request signed by an admin account of
  // this plain_acl.yml (default <rocketmqHome>/conf/plain_acl.yml); docs/security.md.
  bool acl_enable = false;
  std::string acl_file_path;
};

class NamesrvConfig {
 public:
  // Defaults, with the paths resolved against $HOME and rocketmqHome from $ROCKETMQ_HOME.
  NamesrvConfig();
  NamesrvConfig(const NamesrvConfig&) = delete;
  NamesrvConfig& operator=(const NamesrvConfig&) = delete;

  // Start-up: any known key. Unknown keys are appended to `unknown` (the caller warns, as
  // Java would silently ignore them); a bad value fails naming key and value, and then
  // nothing is changed.
  Status ApplyProperties(const std::map<std::string, std::string>& props,
                         std::vector<std::string>* unknown = nullptr);
  Status LoadFile(const std::string& path, std::vector<std::string>* unknown = nullptr);

  // UPDATE_NAMESRV_CONFIG: only keys marked reloadable (RuntimeUpdatableKeys()) may change.
  // A key naming a path, a thread pool, a port or the black list itself is refused with
  // PermissionDenied naming the key; an unknown key is InvalidArgument. All or nothing.
  Status UpdateAtRuntime(const std::map<std::string, std::string>& props);

  NamesrvSettings Snapshot() const;
  // Every key and value, sorted, "key=value\n": what -p prints and GET_NAMESRV_CONFIG sends.
  std::string ToPropertiesText() const;
  std::vector<std::string> RuntimeUpdatableKeys() const;

 private:
  static ConfigTable BuildTable(NamesrvSettings* s);

  mutable std::mutex mu_;
  NamesrvSettings settings_;  // guarded by mu_
};

}  // namespace apogee::namesrv
