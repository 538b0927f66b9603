// SubscriptionGroupManager: the broker's consumer-group table (Java's
// SubscriptionGroupManager), persisted as <storePathRootDir>/config/subscriptionGroup.json
// ({"dataVersion":..,"forbiddenTable":{},"subscriptionGroupTable":..}).
//
// Built-in groups are Java's (TOOLS_CONSUMER, FILTERSRV_CONSUMER, SELF_TEST_C_GROUP,
// CID_ONS-HTTP-PROXY, CID_ONSAPI_PULL, CID_ONSAPI_PERMISSION, CID_ONSAPI_OWNER,
// CID_SYS_RMQ_TRANS). A lookup of an unknown group creates it with the defaults when
// autoCreateSubscriptionGroup is on, or when it is a system group (CID_RMQ_SYS_*).
// Every change advances the data version and is persisted at once.
//
// Also home of SubscriptionGroupConfig's JSON form (docs/protocol/remoting.md §7.10), which is
// both this file's format and the body of UPDATE_AND_CREATE_SUBSCRIPTIONGROUP /
// GET_ALL_SUBSCRIPTIONGROUP_CONFIG (Encode() is that body, as in Java).
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "protocol/topic_config.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

class BrokerConfig;
class ConfigFile;

// RQ:rp/subscription/SubscriptionGroupConfig.java with Java's defaults.
struct SubscriptionGroupConfig {
  std::string group_name;
  bool consume_enable = true;
  bool consume_from_min_enable = true;
  bool consume_broadcast_enable = true;
  bool consume_message_orderly = false;  // 5.x
  int32_t retry_queue_nums = 1;
  int32_t retry_max_times = 16;
  int64_t broker_id = 0;
  int64_t which_broker_when_consume_slowly = 1;
  bool notify_consumer_ids_changed_enable = true;
  int32_t group_sys_flag = 0;                     // 5.x
  int32_t consume_timeout_minute = 15;            // 5.x
  std::map<std::string, std::string> attributes;  // 5.x; written only when not empty

  bool operator==(const SubscriptionGroupConfig&) const = default;
};

// Compact JSON with fastjson's (sorted) key order.
std::string EncodeSubscriptionGroupConfig(const SubscriptionGroupConfig& config);
// Lenient as fastjson: unknown keys ignored (groupRetryPolicy, subscriptionDataSet),
// numbers as strings accepted. Corruption naming the field otherwise; groupName required.
Result<SubscriptionGroupConfig> DecodeSubscriptionGroupConfig(std::string_view json);

inline constexpr size_t kGroupMaxLength = 255;

// Group names follow the topic character rules ([A-Za-z0-9%_|-]) with at most 255
// characters. InvalidArgument naming the group and the rule.
Status ValidateGroupName(std::string_view group);

class SubscriptionGroupManager {
 public:
  // `config`, `env` and `clock` must outlive this; `path` is subscriptionGroup.json.
  SubscriptionGroupManager(const BrokerConfig* config, env::Env* env, std::string path,
                           const Clock* clock = Clock::Real());
  ~SubscriptionGroupManager();
  SubscriptionGroupManager(const SubscriptionGroupManager&) = delete;
  SubscriptionGroupManager& operator=(const SubscriptionGroupManager&) = delete;

  Status Load();
  Status Persist();

  // Java's findSubscriptionGroupConfig: the group, auto-created with the defaults when
  // allowed (see above); nullopt when it does not exist and may not be created.
  std::optional<SubscriptionGroupConfig> FindSubscriptionGroupConfig(std::string_view group);
  // The group if it exists; never creates.
  std::optional<SubscriptionGroupConfig> SelectSubscriptionGroupConfig(
      std::string_view group) const;
  bool ContainsSubscriptionGroup(std::string_view group) const;

  // UPDATE_AND_CREATE_SUBSCRIPTIONGROUP: validates the name and numbers, stores, persists.
  Status UpdateSubscriptionGroupConfig(const SubscriptionGroupConfig& config);
  // DELETE_SUBSCRIPTIONGROUP. NotFound naming the group when it does not exist.
  Status DeleteSubscriptionGroupConfig(std::string_view group);

  protocol::DataVersion data_version() const;
  std::map<std::string, SubscriptionGroupConfig> AllSubscriptionGroups() const;
  // subscriptionGroup.json content and the GET_ALL_SUBSCRIPTIONGROUP_CONFIG body.
  std::string Encode() const;
  // Replaces the whole table from an Encode()d text (Load, and a slave copying its master).
  Status Decode(std::string_view json);

 private:
  void AddSystemGroup(std::string_view name, bool broadcast);
  void NextVersionLocked();
  void PersistLogged();

  const BrokerConfig* config_;
  const Clock* clock_;
  std::unique_ptr<ConfigFile> file_;
  // Serializes Encode + write, so the last write always carries the newest table.
  std::mutex persist_mu_;
  mutable std::mutex mu_;
  std::map<std::string, SubscriptionGroupConfig, std::less<>> table_;  // guarded by mu_
  protocol::DataVersion data_version_;                                 // guarded by mu_
};

}  // namespace apogee::broker
