// TopicConfigManager: the broker's topic table (Java's TopicConfigManager), persisted as
// <storePathRootDir>/config/topics.json ({"dataVersion":..,"topicConfigTable":..}).
//
// At construction it holds the system topics Java creates (SELF_TEST_TOPIC, TBW102 when
// autoCreateTopicEnable, BenchmarkTest, the cluster and broker name topics,
// OFFSET_MOVED_EVENT, SCHEDULE_TOPIC_XXXX, the trace topic when enabled,
// <cluster>_REPLY_TOPIC, the transaction half/op topics); Load() adds the persisted ones.
// Every change advances the data version, is persisted at once, and calls the change
// listener (the controller registers with the NameServers right away).
//
// Thread-safety: every method may be called from any thread; changes are serialized by
// one lock, and persistence plus the listener run outside it after the change.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "protocol/kv_table.h"
#include "protocol/system_topics.h"
#include "protocol/topic_config.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

class BrokerConfig;
class ConfigFile;

// Reserved topic and group names live in protocol/system_topics.h and protocol/mix_all.h.
// Upper bound of read/write queue numbers accepted from UPDATE_AND_CREATE_TOPIC.
inline constexpr int32_t kMaxQueueNums = 65535;

// TopicValidator.validateTopic: not empty, at most 127 characters, only
// [A-Za-z0-9%_|-], not TBW102. InvalidArgument naming the topic and the rule broken.
Status ValidateTopicName(std::string_view topic);

// The name a message may be stored under: ValidateTopicName, or, for a %RETRY% / %DLQ%
// topic (it carries a group name, so up to 255 characters), ValidateGroupName.
Status ValidateMessageTopicName(std::string_view topic);

class TopicConfigManager {
 public:
  // `config`, `env` and `clock` must outlive this; `path` is the topics.json file.
  TopicConfigManager(const BrokerConfig* config, env::Env* env, std::string path,
                     const Clock* clock = Clock::Real());
  ~TopicConfigManager();
  TopicConfigManager(const TopicConfigManager&) = delete;
  TopicConfigManager& operator=(const TopicConfigManager&) = delete;

  // Reads topics.json (or its .bak): persisted topics replace the built-in ones of the
  // same name, and the persisted data version is kept. A missing file is a fresh start.
  Status Load();
  Status Persist();

  std::optional<protocol::TopicConfig> SelectTopicConfig(std::string_view topic) const;
  bool ContainsTopic(std::string_view topic) const;

  // A producer sends to an unknown `topic` naming `default_topic` (TBW102): create it from
  // the default topic when that one is inheritable (Java's createTopicInSendMessageMethod:
  // queue numbers = min(client's, default's write queues), perm = default's minus
  // INHERIT; TBW102 counts as not inheritable when autoCreateTopicEnable is false). An
  // existing topic is returned as it is. NotFound "default topic ... does not exist" or
  // PermissionDenied "... has no inherit permission" otherwise.
  Result<protocol::TopicConfig> CreateTopicInSendMessageMethod(
      std::string_view topic, std::string_view default_topic, std::string_view remote_addr,
      int32_t client_default_topic_queue_nums, int32_t topic_sys_flag);

  // Retry / DLQ topics (send-back, heartbeat): returns the topic, creating it with the
  // given queue numbers and perm when missing (Java's createTopicInSendMessageBackMethod).
  // An existing topic whose order flag differs from `is_order` gets it updated.
  Result<protocol::TopicConfig> CreateTopicInSendMessageBackMethod(std::string_view topic,
                                                                   int32_t client_queue_nums,
                                                                   int32_t perm, bool is_order,
                                                                   int32_t topic_sys_flag);

  // Creates `config` unless its topic exists; returns the stored config either way.
  Result<protocol::TopicConfig> CreateTopicIfAbsent(const protocol::TopicConfig& config);

  // UPDATE_AND_CREATE_TOPIC: validates name, perm and queue numbers, stores the config
  // (replacing any existing one), advances the version, persists. `changed` (optional)
  // tells whether anything differed; an identical config changes nothing.
  Status UpdateTopicConfig(const protocol::TopicConfig& config, bool* changed = nullptr);

  // Marks topics order / not order from the registration result's ORDER_TOPIC_CONFIG KV
  // table (topic -> "brokerName:queueNum;..."); only topics this broker has change.
  void UpdateOrderTopicConfig(const protocol::KVTable& order_kv);

  // DELETE_TOPIC_IN_BROKER. NotFound naming the topic when it does not exist.
  Status DeleteTopicConfig(std::string_view topic);

  bool IsOrderTopic(std::string_view topic) const;
  // One of this broker's built-in topics (the cluster and broker-name topics included) or a
  // TopicValidator system topic (protocol::IsSystemTopic).
  bool IsSystemTopic(std::string_view topic) const;

  protocol::DataVersion data_version() const;
  std::vector<std::string> TopicNames() const;
  std::map<std::string, protocol::TopicConfig> AllTopicConfigs() const;
  // The table with its version, as registered with the NameServers.
  protocol::TopicConfigSerializeWrapper BuildSerializeWrapper() const;
  // topics.json content and the GET_ALL_TOPIC_CONFIG body.
  std::string Encode() const;

  // Called (outside the lock) after every change; set before use.
  void SetChangeListener(std::function<void()> listener);

 private:
  void AddSystemTopics();
  void PutSystemTopic(protocol::TopicConfig config);
  void NextVersionLocked();
  // Persists (logging failures, which the caller cannot fix) and notifies.
  void AfterChange();

  const BrokerConfig* config_;
  const Clock* clock_;
  std::unique_ptr<ConfigFile> file_;
  // Serializes Encode + write, so the last write always carries the newest table.
  std::mutex persist_mu_;
  mutable std::mutex mu_;
  std::map<std::string, protocol::TopicConfig, std::less<>> table_;  // guarded by mu_
  protocol::DataVersion data_version_;                               // guarded by mu_
  std::set<std::string, std::less<>> system_topics_;                 // fixed after construction
  std::function<void()> change_listener_;
};

}  // namespace apogee::broker
