#include "broker/topic_config_manager.h"

#include <fmt/format.h>

#include <utility>

#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/config_file.h"
#include "broker/permission.h"
#include "broker/subscription_group_manager.h"
#include "protocol/mix_all.h"
#include "protocol/perm_name.h"
#include "protocol/system_topics.h"

namespace apogee::broker {
namespace {

std::shared_ptr<spdlog::logger> Log() { return GetLogger("broker"); }

bool IsTopicChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '%' ||
         c == '-' || c == '_' || c == '|';
}

std::string Describe(const protocol::TopicConfig& c) {
  return fmt::format("{{topicName={}, readQueueNums={}, writeQueueNums={}, perm={}, order={}}}",
                     c.topic_name, c.read_queue_nums, c.write_queue_nums,
                     protocol::PermToString(c.perm), c.order);
}

}  // namespace

Status ValidateTopicName(std::string_view topic) {
  if (topic.empty()) return Status::InvalidArgument("the topic name is empty");
  if (topic.size() > protocol::kTopicMaxLength) {
    return Status::InvalidArgument(fmt::format("the topic name '{}' is longer than {} characters",
                                               topic, protocol::kTopicMaxLength));
  }
  for (char c : topic) {
    if (!IsTopicChar(c)) {
      return Status::InvalidArgument(fmt::format(
          "the topic name '{}' contains illegal characters; allowed are ^[%|a-zA-Z0-9_-]+$",
          topic));
    }
  }
  if (topic == protocol::kAutoCreateTopicKeyTopic) {
    return Status::InvalidArgument(
        fmt::format("the topic name '{}' is reserved for automatic topic creation", topic));
  }
  return Status::OK();
}

Status ValidateMessageTopicName(std::string_view topic) {
  const bool group_topic = protocol::IsRetryTopic(topic) || protocol::IsDlqTopic(topic);
  return group_topic ? ValidateGroupName(topic) : ValidateTopicName(topic);
}

TopicConfigManager::TopicConfigManager(const BrokerConfig* config, env::Env* env, std::string path,
                                       const Clock* clock)
    : config_(config), clock_(clock), file_(std::make_unique<ConfigFile>(env, std::move(path))) {
  AddSystemTopics();
}

TopicConfigManager::~TopicConfigManager() = default;

void TopicConfigManager::PutSystemTopic(protocol::TopicConfig config) {
  system_topics_.insert(config.topic_name);
  std::string name = config.topic_name;
  table_[name] = std::move(config);
}

void TopicConfigManager::AddSystemTopics() {
  std::shared_ptr<const BrokerSettings> s = config_->Get();
  auto topic = [](std::string_view name, int32_t queues,
                  int32_t perm = protocol::kPermRead | protocol::kPermWrite) {
    protocol::TopicConfig c;
    c.topic_name = std::string(name);
    c.read_queue_nums = queues;
    c.write_queue_nums = queues;
    c.perm = perm;
    return c;
  };
  constexpr int32_t kRW = protocol::kPermRead | protocol::kPermWrite;
  std::lock_guard<std::mutex> lock(mu_);
  PutSystemTopic(topic(protocol::kSelfTestTopic, 1));
  if (s->auto_create_topic_enable) {
    PutSystemTopic(topic(protocol::kAutoCreateTopicKeyTopic, s->default_topic_queue_nums,
                         protocol::kPermInherit | kRW));
  }
  PutSystemTopic(topic(protocol::kBenchmarkTopic, 1024));
  // Java leaves the cluster topic at TopicConfig's default 16 queues.
  PutSystemTopic(topic(s->broker_cluster_name, 16,
                       protocol::kPermInherit | (s->cluster_topic_enable ? kRW : 0)));
  PutSystemTopic(
      topic(s->broker_name, 1, protocol::kPermInherit | (s->broker_topic_enable ? kRW : 0)));
  PutSystemTopic(topic(protocol::kOffsetMovedEventTopic, 1));
  PutSystemTopic(topic(protocol::kScheduleTopic, protocol::kScheduleTopicQueueNums));
  if (s->trace_topic_enable) PutSystemTopic(topic(s->msg_trace_topic_name, 1));
  PutSystemTopic(topic(protocol::ReplyTopic(s->broker_cluster_name), 1));
  PutSystemTopic(topic(protocol::kTransHalfTopic, 1));
  PutSystemTopic(topic(protocol::kTransOpHalfTopic, 1));
}

void TopicConfigManager::NextVersionLocked() {
  data_version_.timestamp = clock_->NowMillis();
  ++data_version_.counter;
}

Status TopicConfigManager::Load() {
  Result<bool> loaded = file_->Load([this](std::string_view content) -> Status {
    Result<protocol::TopicConfigSerializeWrapper> wrapper =
        protocol::DecodeTopicConfigSerializeWrapper(content);
    if (!wrapper.ok()) return wrapper.status();
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [name, config] : wrapper->topic_config_table) {
      config.topic_name = name;  // the key is authoritative, as in Java's table
      table_[name] = config;
    }
    data_version_ = wrapper->data_version;
    return Status::OK();
  });
  if (!loaded.ok()) return loaded.status();
  Log()->info("load {} {}, {} topics", file_->path(), *loaded ? "OK" : "(not found, fresh start)",
              TopicNames().size());
  return Status::OK();
}

Status TopicConfigManager::Persist() {
  std::lock_guard<std::mutex> lock(persist_mu_);
  return file_->Persist(Encode());
}

void TopicConfigManager::AfterChange() {
  Status s = Persist();
  if (!s.ok()) Log()->error("persist topic config failed: {}", s.ToString());
  std::function<void()> listener;
  {
    std::lock_guard<std::mutex> lock(mu_);
    listener = change_listener_;
  }
  if (listener) listener();
}

std::optional<protocol::TopicConfig> TopicConfigManager::SelectTopicConfig(
    std::string_view topic) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = table_.find(topic);
  if (it == table_.end()) return std::nullopt;
  return it->second;
}

bool TopicConfigManager::ContainsTopic(std::string_view topic) const {
  std::lock_guard<std::mutex> lock(mu_);
  return table_.find(topic) != table_.end();
}

Result<protocol::TopicConfig> TopicConfigManager::CreateTopicInSendMessageMethod(
    std::string_view topic, std::string_view default_topic, std::string_view remote_addr,
    int32_t client_default_topic_queue_nums, int32_t topic_sys_flag) {
  const bool auto_create = config_->Get()->auto_create_topic_enable;
  protocol::TopicConfig created;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(topic);
    if (it != table_.end()) return it->second;
    auto def = table_.find(default_topic);
    if (def == table_.end()) {
      Log()->warn("create new topic {} failed: the default topic[{}] does not exist, producer {}",
                  topic, default_topic, remote_addr);
      return Status::NotFound(fmt::format(
          "topic[{}] not exist, and the default topic[{}] to create it from does not exist "
          "on this broker",
          topic, default_topic));
    }
    int32_t default_perm = def->second.perm;
    // With autoCreateTopicEnable off, TBW102 no longer lends its inherit bit (Java resets
    // its perm to read|write).
    if (default_topic == protocol::kAutoCreateTopicKeyTopic && !auto_create) {
      default_perm = protocol::kPermRead | protocol::kPermWrite;
    }
    if (!protocol::IsInherited(default_perm)) {
      Log()->warn(
          "create new topic {} failed: the default topic[{}] has no inherit perm [{}], "
          "producer {}",
          topic, default_topic, protocol::PermToString(default_perm), remote_addr);
      return Status::PermissionDenied(fmt::format(
          "topic[{}] not exist, and the default topic[{}] has no inherit permission ({}){}", topic,
          default_topic, protocol::PermToString(default_perm),
          default_topic == protocol::kAutoCreateTopicKeyTopic && !auto_create
              ? "; autoCreateTopicEnable is false"
              : ""));
    }
    APOGEE_RETURN_IF_ERROR(ValidateTopicName(topic));
    created.topic_name = std::string(topic);
    int32_t queues = std::min(client_default_topic_queue_nums, def->second.write_queue_nums);
    if (queues < 0) queues = 0;
    created.read_queue_nums = queues;
    created.write_queue_nums = queues;
    created.perm = default_perm & ~protocol::kPermInherit;
    created.topic_sys_flag = topic_sys_flag;
    created.topic_filter_type = def->second.topic_filter_type;
    table_[created.topic_name] = created;
    NextVersionLocked();
  }
  Log()->info("create new topic by default topic:[{}] config:{} producer:[{}]", default_topic,
              Describe(created), remote_addr);
  AfterChange();
  return created;
}

Result<protocol::TopicConfig> TopicConfigManager::CreateTopicInSendMessageBackMethod(
    std::string_view topic, int32_t client_queue_nums, int32_t perm, bool is_order,
    int32_t topic_sys_flag) {
  protocol::TopicConfig result;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(topic);
    if (it != table_.end()) {
      if (it->second.order == is_order) return it->second;
      it->second.order = is_order;
      NextVersionLocked();
      result = it->second;
    } else {
      if (topic.empty() || topic.size() > protocol::kGroupTopicMaxLength) {
        return Status::InvalidArgument(fmt::format("cannot create topic '{}': length must be 1..{}",
                                                   topic, protocol::kGroupTopicMaxLength));
      }
      result.topic_name = std::string(topic);
      result.read_queue_nums = client_queue_nums;
      result.write_queue_nums = client_queue_nums;
      result.perm = perm;
      result.order = is_order;
      result.topic_sys_flag = topic_sys_flag;
      table_[result.topic_name] = result;
      NextVersionLocked();
      Log()->info("create new topic {}", Describe(result));
    }
  }
  AfterChange();
  return result;
}

Result<protocol::TopicConfig> TopicConfigManager::CreateTopicIfAbsent(
    const protocol::TopicConfig& config) {
  if (config.topic_name.empty()) return Status::InvalidArgument("the topic name is empty");
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(config.topic_name);
    if (it != table_.end()) return it->second;
    table_[config.topic_name] = config;
    NextVersionLocked();
  }
  Log()->info("create new topic {}", Describe(config));
  AfterChange();
  return config;
}

Status TopicConfigManager::UpdateTopicConfig(const protocol::TopicConfig& config, bool* changed) {
  if (changed != nullptr) *changed = false;
  APOGEE_RETURN_IF_ERROR(ValidateTopicName(config.topic_name));
  if (!protocol::IsValidPerm(config.perm)) {
    return Status::InvalidArgument(
        fmt::format("invalid perm {} for topic {}", config.perm, config.topic_name));
  }
  if (config.read_queue_nums < 0 || config.write_queue_nums < 0 ||
      config.read_queue_nums > kMaxQueueNums || config.write_queue_nums > kMaxQueueNums) {
    return Status::InvalidArgument(fmt::format(
        "invalid queue numbers for topic {}: readQueueNums={}, writeQueueNums={} (0..{})",
        config.topic_name, config.read_queue_nums, config.write_queue_nums, kMaxQueueNums));
  }
  if (config.topic_filter_type != "SINGLE_TAG" && config.topic_filter_type != "MULTI_TAG") {
    return Status::InvalidArgument(
        fmt::format("invalid topicFilterType '{}' for topic {} (SINGLE_TAG or MULTI_TAG)",
                    config.topic_filter_type, config.topic_name));
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(config.topic_name);
    if (it != table_.end() && it->second == config) return Status::OK();
    if (it != table_.end()) {
      Log()->info("update topic config, old:{} new:{}", Describe(it->second), Describe(config));
    } else {
      Log()->info("create new topic {}", Describe(config));
    }
    table_[config.topic_name] = config;
    NextVersionLocked();
  }
  if (changed != nullptr) *changed = true;
  AfterChange();
  return Status::OK();
}

void TopicConfigManager::UpdateOrderTopicConfig(const protocol::KVTable& order_kv) {
  // A registration answer without a KV body says nothing about order topics (Java skips
  // a null table); an empty table is read the same way.
  if (order_kv.table.empty()) return;
  bool change = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [name, config] : table_) {
      const bool order = order_kv.table.count(name) != 0;
      if (config.order != order) {
        config.order = order;
        change = true;
      }
    }
    if (change) NextVersionLocked();
  }
  // Persisted, not re-registered: the NameServer is where this came from.
  if (change) {
    Status s = Persist();
    if (!s.ok()) Log()->error("persist topic config failed: {}", s.ToString());
  }
}

Status TopicConfigManager::DeleteTopicConfig(std::string_view topic) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(topic);
    if (it == table_.end()) {
      return Status::NotFound(fmt::format("topic[{}] does not exist on this broker", topic));
    }
    Log()->info("delete topic config OK, topic: {}", Describe(it->second));
    table_.erase(it);
    NextVersionLocked();
  }
  AfterChange();
  return Status::OK();
}

bool TopicConfigManager::IsOrderTopic(std::string_view topic) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = table_.find(topic);
  return it != table_.end() && it->second.order;
}

bool TopicConfigManager::IsSystemTopic(std::string_view topic) const {
  return system_topics_.find(topic) != system_topics_.end() || protocol::IsSystemTopic(topic);
}

protocol::DataVersion TopicConfigManager::data_version() const {
  std::lock_guard<std::mutex> lock(mu_);
  return data_version_;
}

std::vector<std::string> TopicConfigManager::TopicNames() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  out.reserve(table_.size());
  for (const auto& [name, config] : table_) out.push_back(name);
  return out;
}

std::map<std::string, protocol::TopicConfig> TopicConfigManager::AllTopicConfigs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::map<std::string, protocol::TopicConfig>(table_.begin(), table_.end());
}

protocol::TopicConfigSerializeWrapper TopicConfigManager::BuildSerializeWrapper() const {
  protocol::TopicConfigSerializeWrapper wrapper;
  std::lock_guard<std::mutex> lock(mu_);
  wrapper.topic_config_table.insert(table_.begin(), table_.end());
  wrapper.data_version = data_version_;
  return wrapper;
}

std::string TopicConfigManager::Encode() const {
  return protocol::EncodeTopicConfigSerializeWrapper(BuildSerializeWrapper());
}

void TopicConfigManager::SetChangeListener(std::function<void()> listener) {
  std::lock_guard<std::mutex> lock(mu_);
  change_listener_ = std::move(listener);
}

}  // namespace apogee::broker
