// BrokerConfig: every setting of mqbroker under RocketMQ's broker.conf key names
// (docs/protocol/store_ha.md §6.2-§6.5): Java's BrokerConfig, the NettyServerConfig keys a
// broker uses, the HA keys of MessageStoreConfig, and the store's own StoreConfig table
// (store/store_config.h), all read from one Java properties file.
//
// Unlike Java, an unknown key is reported by name (the caller warns) and a value that does
// not parse stops loading with an error naming the key and the value; nothing is applied
// then. Keys Java accepts but Apogee does not act on are listed as such in their
// description (conf/broker.conf says the same).
//
// Settings are read as an immutable snapshot (Get()), replaced as a whole by
// UpdateAtRuntime, so a processor never sees half an update.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/config_table.h"
#include "base/status.h"
#include "base/tls_config.h"
#include "protocol/system_topics.h"
#include "protocol/topic_config.h"
#include "remoting/server_limits_config.h"
#include "store/store_config.h"

namespace apogee::broker {

struct BrokerSettings {
  // ---- BrokerConfig (BrokerIdentity in 5.x) ----
  std::string rocketmq_home;  // $ROCKETMQ_HOME
  std::string namesrv_addr;   // "a:9876;b:9876"; $NAMESRV_ADDR
  std::string broker_ip1;     // remoting address, store host of msgIds; local address
  std::string broker_ip2;     // HA address; defaults to brokerIP1
  std::string broker_name;    // local host name
  std::string broker_cluster_name = "DefaultCluster";
  int64_t broker_id = 0;  // 0 = master; > 0 for a SLAVE
  int32_t broker_permission = protocol::kPermRead | protocol::kPermWrite;
  int32_t default_topic_queue_nums = 8;
  bool auto_create_topic_enable = true;
  bool cluster_topic_enable = true;
  bool broker_topic_enable = true;
  bool auto_create_subscription_group = true;
  bool trace_topic_enable = false;
  std::string msg_trace_topic_name = std::string(protocol::kTraceTopic);
  std::string region_id = "DefaultRegion";
  bool trace_on = true;

  // Pool maximums. The defaults come from the core count (set by BrokerConfig(), the
  // values here are for 2 cores), not Java's counts: no processor here blocks on a lock
  // held across IO, so more threads than cores only add context switches (issue 13).
  // Threads start on demand (remoting::ThreadPoolExecutor); a key given in broker.conf
  // sets the maximum as in Java.
  int32_t send_message_thread_pool_nums = 2;     // cores
  int32_t pull_message_thread_pool_nums = 4;     // 2 x cores (a pull may fault pages in)
  int32_t query_message_thread_pool_nums = 2;    // cores
  int32_t admin_broker_thread_pool_nums = 2;     // cores
  int32_t client_manage_thread_pool_nums = 2;    // cores
  int32_t consumer_manage_thread_pool_nums = 2;  // cores
  int32_t heartbeat_thread_pool_nums = 2;        // cores
  int32_t send_thread_pool_queue_capacity = 10000;
  int32_t pull_thread_pool_queue_capacity = 100000;
  int32_t query_thread_pool_queue_capacity = 20000;
  int32_t client_manager_thread_pool_queue_capacity = 1000000;
  int32_t consumer_manager_thread_pool_queue_capacity = 1000000;
  int32_t heartbeat_thread_pool_queue_capacity = 50000;
  int32_t admin_broker_thread_pool_queue_capacity = 10000;

  int32_t flush_consumer_offset_interval = 5000;
  int32_t flush_consumer_offset_history_interval = 60000;
  bool reject_transaction_message = false;
  bool long_polling_enable = true;
  int64_t short_polling_time_mills = 1000;
  // Apogee: caps on held (long-polling) pulls; past them a pull is answered SYSTEM_BUSY.
  int64_t pull_hold_max_requests = 100000;
  int64_t pull_hold_max_bytes = 256ll * 1024 * 1024;
  bool notify_consumer_ids_changed_enable = true;
  bool transfer_msg_by_heap = true;
  bool slave_read_enable = false;
  bool disable_consume_if_consumer_read_slowly = false;
  int64_t consumer_fallbehind_threshold = 17179869184LL;
  bool broker_fast_failure_enable = true;
  int64_t wait_time_mills_in_send_queue = 200;
  int64_t wait_time_mills_in_pull_queue = 5000;
  bool enable_property_filter = false;
  bool filter_support_retry = false;
  int32_t register_name_server_period = 30000;  // clamped to [10000, 60000]
  int32_t register_broker_timeout_mills = 6000;
  bool force_register = true;
  bool compressed_register = false;
  int64_t transaction_timeout = 6000;  // transactionTimeOut
  int32_t transaction_check_max = 15;
  int64_t transaction_check_interval = 60000;
  bool acl_enable = false;
  // The plain_acl.yml checked when aclEnable (default <rocketmqHome>/conf/plain_acl.yml).
  std::string acl_file_path;
  // Apogee: tools.yml-style file with the accessKey/secretKey this broker signs its
  // NameServer registrations and slave requests with (docs/security.md).
  std::string acl_credentials_file;
  bool store_reply_message_enable = true;

  // ---- NettyServerConfig ----
  int32_t listen_port = 10911;  // BrokerStartup's value, not Netty's 8888
  std::string bind_address = "0.0.0.0";
  int32_t server_worker_threads = 8;
  int32_t server_selector_threads = 2;  // IO threads of the main port: cores (BrokerConfig())
  int32_t server_channel_max_idle_time_seconds = 120;
  // writeBufferHighWaterMark & co. (docs/security.md, "Resource limits").
  remoting::ServerLimitSettings server_limits;
  // tls.* (Java's TlsSystemConfig; docs/security.md, "TLS"): every listening port and,
  // with tls.enable, registration, the slave's HA link and its metadata sync.
  TlsConfig tls;

  // ---- Apogee: the NameServer `mqbroker --with-namesrv` embeds ----
  int32_t namesrv_listen_port = 9876;
  // Its Prometheus port (metricsPromExporterPort of the embedded NameServer).
  int32_t namesrv_metrics_prom_exporter_port = 5558;

  // ---- metrics (RocketMQ 5.1's BrokerConfig keys); only DISABLE and PROM exist ----
  std::string metrics_exporter_type = "DISABLE";
  std::string metrics_prom_exporter_host;  // empty: brokerIP1, as Java
  int32_t metrics_prom_exporter_port = 5557;

  // ---- MessageStoreConfig keys the store module does not own (HA, schedule) ----
  int32_t ha_listen_port = 10912;  // always listenPort + 1, as 4.9.8 (see EffectiveHaListenPort)
  std::string ha_master_address;
  int32_t ha_send_heartbeat_interval = 5000;
  int32_t ha_housekeeping_interval = 20000;
  int32_t ha_transfer_batch_size = 32768;
  int64_t ha_slave_fallbehind_max = 268435456;
  int64_t slave_timeout = 3000;
  // ---- Apogee HA keys (src/ha/README.md) ----
  bool ha_new_slave_full_copy = false;      // a fresh slave gets every file, not only the last
  int32_t ha_max_connections = 16;          // Apogee: HA connections served at once
  int64_t slave_synchronize_interval = 60000;  // ms between a slave's metadata copies
  // An unmet flush or replica policy answers SYSTEM_ERROR (retried by Java producers)
  // instead of Java's "sent" FLUSH_DISK_TIMEOUT / FLUSH_SLAVE_TIMEOUT / SLAVE_NOT_AVAILABLE.
  bool strict_ack_enable = false;
  int64_t flush_delay_offset_interval = 10000;
  // ---- Apogee failover coordinated by etcd (docs/failover.md); off when empty ----
  std::string etcd_endpoints;            // "http://127.0.0.1:2379[,http://...]"
  int32_t etcd_lease_ttl_seconds = 3;    // the master record's lease
  int32_t etcd_renew_interval_ms = 1000;  // keep-alive period of that lease
  int64_t ha_max_gap_not_in_sync = 256 * 1024;  // RocketMQ 5: bytes behind still "in sync"
  // Timer messages (5.x TIMER_* properties, __STARTDELIVERTIME): accepted at all, and how far
  // ahead (beyond it: MESSAGE_ILLEGAL, Java's WHEEL_TIMER_MSG_ILLEGAL).
  bool timer_wheel_enable = true;
  int64_t timer_max_delay_sec = 259200;

  // ---- MessageStoreConfig keys the store module owns ----
  store::StoreConfig store;

  bool IsSlave() const { return store.role() == store::BrokerRole::kSlave; }
  // listenPort + 1 unless haListenPort was set to a positive value other than its
  // default (5.1.4+ rule; 4.9.8 always used listenPort + 1).
  int32_t EffectiveHaListenPort() const;
  // Clamped to [10000, 60000] as BrokerController.start does.
  int32_t EffectiveRegisterPeriodMs() const;
  // The NameServer addresses of namesrvAddr, in order, blanks dropped.
  std::vector<std::string> NamesrvAddrList() const;
  // "<broker_ip1>:<listen_port>" and "<broker_ip2>:<ha port>".
  std::string BrokerAddr() const;
  std::string HaServerAddr() const;
  // <storePathRootDir>/config.
  std::string ConfigDir() const { return store.ConfigDir(); }
};

class BrokerConfig {
 public:
  // Java's defaults with the environment applied: brokerName = host name, brokerIP1/2 =
  // the first non-loopback IPv4 address (else 127.0.0.1), rocketmqHome = $ROCKETMQ_HOME,
  // namesrvAddr = $NAMESRV_ADDR, storePathRootDir = $HOME/store, thread pools from the
  // number of cores.
  BrokerConfig();
  // Exactly `settings` (tests).
  explicit BrokerConfig(BrokerSettings settings);
  BrokerConfig(const BrokerConfig&) = delete;
  BrokerConfig& operator=(const BrokerConfig&) = delete;

  // Start-up: any known key. Unknown keys are appended to `unknown`; a bad value fails
  // with InvalidArgument naming key and value and changes nothing. Validate() runs after.
  Status ApplyProperties(const std::map<std::string, std::string>& props,
                         std::vector<std::string>* unknown = nullptr);
  Status LoadFile(const std::string& path, std::vector<std::string>* unknown = nullptr);

  // Cross-key rules BrokerStartup enforces: a SLAVE needs brokerId > 0 (a master's id is
  // forced to 0), listenPort leaves room for the fast port, store values are sane.
  static Status Validate(const BrokerSettings& settings);

  // UPDATE_BROKER_CONFIG: only keys marked reloadable may change (paths, ports, names,
  // roles and thread pools never); others are refused with PermissionDenied naming the
  // key, unknown keys with InvalidArgument. All or nothing. On success the data version
  // advances and the update listener sees the changed keys.
  Status UpdateAtRuntime(const std::map<std::string, std::string>& props);

  std::shared_ptr<const BrokerSettings> Get() const;
  BrokerSettings Snapshot() const { return *Get(); }

  // "key=value\n" for every key, sorted: what -p prints and GET_BROKER_CONFIG sends.
  std::string ToPropertiesText() const;
  // Only the keys Java marks @ImportantField: what -m prints.
  std::string ImportantPropertiesText() const;
  std::vector<std::string> RuntimeUpdatableKeys() const;
  bool HasKey(const std::string& key) const;

  // The configuration's version (GET_BROKER_CONFIG header `version`).
  protocol::DataVersion data_version() const;
  // Called after a successful UpdateAtRuntime with the keys that changed (e.g. the
  // controller re-registers when brokerPermission changed). Set before start.
  void SetUpdateListener(std::function<void(const std::vector<std::string>&)> listener);

 private:
  // A table binding every key to the fields of `s`.
  static ConfigTable BuildTable(BrokerSettings* s);

  mutable std::mutex mu_;
  std::shared_ptr<const BrokerSettings> settings_;  // guarded by mu_
  protocol::DataVersion data_version_;              // guarded by mu_
  std::function<void(const std::vector<std::string>&)> update_listener_;
};

}  // namespace apogee::broker
