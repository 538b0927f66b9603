#include "broker/subscription_group_manager.h"

#include <fmt/format.h>

#include <utility>

#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/config_file.h"
// The protocol module's lenient fastjson-style JSON helpers (RapidJSON underneath).
#include "protocol/json_util.h"
#include "protocol/mix_all.h"

namespace apogee::broker {
namespace {

namespace json = protocol::json;

std::shared_ptr<spdlog::logger> Log() { return GetLogger("broker"); }

bool IsGroupChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '%' ||
         c == '-' || c == '_' || c == '|';
}

void WriteConfig(json::Writer& w, const SubscriptionGroupConfig& c) {
  // fastjson writes keys in alphabetical order.
  w.StartObject();
  if (!c.attributes.empty()) {
    json::Key(w, "attributes");
    w.StartObject();
    for (const auto& [k, v] : c.attributes) {
      json::Key(w, k);
      json::String(w, v);
    }
    w.EndObject();
  }
  json::Key(w, "brokerId");
  w.Int64(c.broker_id);
  json::Key(w, "consumeBroadcastEnable");
  w.Bool(c.consume_broadcast_enable);
  json::Key(w, "consumeEnable");
  w.Bool(c.consume_enable);
  json::Key(w, "consumeFromMinEnable");
  w.Bool(c.consume_from_min_enable);
  json::Key(w, "consumeMessageOrderly");
  w.Bool(c.consume_message_orderly);
  json::Key(w, "consumeTimeoutMinute");
  w.Int(c.consume_timeout_minute);
  json::Key(w, "groupName");
  json::String(w, c.group_name);
  json::Key(w, "groupSysFlag");
  w.Int(c.group_sys_flag);
  json::Key(w, "notifyConsumerIdsChangedEnable");
  w.Bool(c.notify_consumer_ids_changed_enable);
  json::Key(w, "retryMaxTimes");
  w.Int(c.retry_max_times);
  json::Key(w, "retryQueueNums");
  w.Int(c.retry_queue_nums);
  json::Key(w, "whichBrokerWhenConsumeSlowly");
  w.Int64(c.which_broker_when_consume_slowly);
  w.EndObject();
}

Status ReadConfig(const json::Value& v, std::string_view path, SubscriptionGroupConfig* c) {
  if (!v.IsObject()) return Status::Corruption(fmt::format("{} is not an object", path));
  auto field = [&](std::string_view key) { return fmt::format("{}.{}", path, key); };
  APOGEE_RETURN_IF_ERROR(
      json::ReadString(v, "groupName", field("groupName"), &c->group_name, true));
  APOGEE_RETURN_IF_ERROR(
      json::ReadBool(v, "consumeEnable", field("consumeEnable"), &c->consume_enable));
  APOGEE_RETURN_IF_ERROR(json::ReadBool(v, "consumeFromMinEnable", field("consumeFromMinEnable"),
                                        &c->consume_from_min_enable));
  APOGEE_RETURN_IF_ERROR(json::ReadBool(
      v, "consumeBroadcastEnable", field("consumeBroadcastEnable"), &c->consume_broadcast_enable));
  APOGEE_RETURN_IF_ERROR(json::ReadBool(v, "consumeMessageOrderly", field("consumeMessageOrderly"),
                                        &c->consume_message_orderly));
  APOGEE_RETURN_IF_ERROR(
      json::ReadInt32(v, "retryQueueNums", field("retryQueueNums"), &c->retry_queue_nums));
  APOGEE_RETURN_IF_ERROR(
      json::ReadInt32(v, "retryMaxTimes", field("retryMaxTimes"), &c->retry_max_times));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "brokerId", field("brokerId"), &c->broker_id));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "whichBrokerWhenConsumeSlowly",
                                         field("whichBrokerWhenConsumeSlowly"),
                                         &c->which_broker_when_consume_slowly));
  APOGEE_RETURN_IF_ERROR(json::ReadBool(v, "notifyConsumerIdsChangedEnable",
                                        field("notifyConsumerIdsChangedEnable"),
                                        &c->notify_consumer_ids_changed_enable));
  APOGEE_RETURN_IF_ERROR(
      json::ReadInt32(v, "groupSysFlag", field("groupSysFlag"), &c->group_sys_flag));
  APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "consumeTimeoutMinute", field("consumeTimeoutMinute"),
                                         &c->consume_timeout_minute));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* attributes,
                          json::FindObject(v, "attributes", field("attributes")));
  if (attributes != nullptr) {
    for (auto it = attributes->MemberBegin(); it != attributes->MemberEnd(); ++it) {
      std::string key(json::KeyOf(it->name));
      APOGEE_ASSIGN_OR_RETURN(c->attributes[key],
                              json::AsString(it->value, field("attributes." + key)));
    }
  }
  return Status::OK();
}

}  // namespace

std::string EncodeSubscriptionGroupConfig(const SubscriptionGroupConfig& config) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  WriteConfig(w, config);
  return out;
}

Result<SubscriptionGroupConfig> DecodeSubscriptionGroupConfig(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "SubscriptionGroupConfig", &doc));
  SubscriptionGroupConfig config;
  APOGEE_RETURN_IF_ERROR(ReadConfig(doc, "SubscriptionGroupConfig", &config));
  return config;
}

Status ValidateGroupName(std::string_view group) {
  if (group.empty()) return Status::InvalidArgument("the consumer group name is empty");
  if (group.size() > kGroupMaxLength) {
    return Status::InvalidArgument(fmt::format(
        "the consumer group name '{}' is longer than {} characters", group, kGroupMaxLength));
  }
  for (char c : group) {
    if (!IsGroupChar(c)) {
      return Status::InvalidArgument(
          fmt::format("the consumer group name '{}' contains illegal characters; allowed are "
                      "^[%|a-zA-Z0-9_-]+$",
                      group));
    }
  }
  return Status::OK();
}

SubscriptionGroupManager::SubscriptionGroupManager(const BrokerConfig* config, env::Env* env,
                                                   std::string path, const Clock* clock)
    : config_(config), clock_(clock), file_(std::make_unique<ConfigFile>(env, std::move(path))) {
  AddSystemGroup(protocol::kToolsConsumerGroup, false);
  AddSystemGroup(protocol::kFilterServerConsumerGroup, false);
  AddSystemGroup(protocol::kSelfTestConsumerGroup, false);
  AddSystemGroup(protocol::kOnsHttpProxyGroup, true);
  AddSystemGroup(protocol::kCidOnsapiPullGroup, true);
  AddSystemGroup(protocol::kCidOnsapiPermissionGroup, true);
  AddSystemGroup(protocol::kCidOnsapiOwnerGroup, true);
  AddSystemGroup(protocol::kCidSysRmqTransGroup, true);
}

SubscriptionGroupManager::~SubscriptionGroupManager() = default;

void SubscriptionGroupManager::AddSystemGroup(std::string_view name, bool broadcast) {
  SubscriptionGroupConfig c;
  c.group_name = std::string(name);
  c.consume_broadcast_enable = broadcast;
  std::lock_guard<std::mutex> lock(mu_);
  table_[c.group_name] = std::move(c);
}

void SubscriptionGroupManager::NextVersionLocked() {
  data_version_.timestamp = clock_->NowMillis();
  ++data_version_.counter;
}

Status SubscriptionGroupManager::Decode(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "subscription group table", &doc));
  std::map<std::string, SubscriptionGroupConfig, std::less<>> table;
  APOGEE_ASSIGN_OR_RETURN(const json::Value* groups, json::FindObject(doc, "subscriptionGroupTable",
                                                                      "subscriptionGroupTable"));
  if (groups != nullptr) {
    for (auto it = groups->MemberBegin(); it != groups->MemberEnd(); ++it) {
      std::string name(json::KeyOf(it->name));
      SubscriptionGroupConfig c;
      c.group_name = name;
      APOGEE_RETURN_IF_ERROR(ReadConfig(it->value, "subscriptionGroupTable." + name, &c));
      c.group_name = name;
      table[name] = std::move(c);
    }
  }
  protocol::DataVersion version;
  APOGEE_ASSIGN_OR_RETURN(const json::Value* dv,
                          json::FindObject(doc, "dataVersion", "dataVersion"));
  if (dv != nullptr) {
    APOGEE_RETURN_IF_ERROR(
        json::ReadInt64(*dv, "timestamp", "dataVersion.timestamp", &version.timestamp));
    APOGEE_RETURN_IF_ERROR(
        json::ReadInt64(*dv, "counter", "dataVersion.counter", &version.counter));
    APOGEE_RETURN_IF_ERROR(
        json::ReadInt64(*dv, "stateVersion", "dataVersion.stateVersion", &version.state_version));
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [name, c] : table) table_[name] = std::move(c);
  data_version_ = version;
  return Status::OK();
}

Status SubscriptionGroupManager::Load() {
  Result<bool> loaded = file_->Load([this](std::string_view content) { return Decode(content); });
  if (!loaded.ok()) return loaded.status();
  Log()->info("load {} {}", file_->path(), *loaded ? "OK" : "(not found, fresh start)");
  return Status::OK();
}

Status SubscriptionGroupManager::Persist() {
  std::lock_guard<std::mutex> lock(persist_mu_);
  return file_->Persist(Encode());
}

void SubscriptionGroupManager::PersistLogged() {
  Status s = Persist();
  if (!s.ok()) Log()->error("persist subscription groups failed: {}", s.ToString());
}

std::optional<SubscriptionGroupConfig> SubscriptionGroupManager::FindSubscriptionGroupConfig(
    std::string_view group) {
  SubscriptionGroupConfig created;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(group);
    if (it != table_.end()) return it->second;
    const bool system = group.rfind(protocol::kSysConsumerGroupPrefix, 0) == 0;
    if (!config_->Get()->auto_create_subscription_group && !system) return std::nullopt;
    if (!ValidateGroupName(group).ok()) return std::nullopt;
    created.group_name = std::string(group);
    table_[created.group_name] = created;
    NextVersionLocked();
  }
  Log()->info("auto create a subscription group, {}", EncodeSubscriptionGroupConfig(created));
  PersistLogged();
  return created;
}

std::optional<SubscriptionGroupConfig> SubscriptionGroupManager::SelectSubscriptionGroupConfig(
    std::string_view group) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = table_.find(group);
  if (it == table_.end()) return std::nullopt;
  return it->second;
}

bool SubscriptionGroupManager::ContainsSubscriptionGroup(std::string_view group) const {
  std::lock_guard<std::mutex> lock(mu_);
  return table_.find(group) != table_.end();
}

Status SubscriptionGroupManager::UpdateSubscriptionGroupConfig(
    const SubscriptionGroupConfig& config) {
  APOGEE_RETURN_IF_ERROR(ValidateGroupName(config.group_name));
  if (config.retry_queue_nums < 0 || config.retry_max_times < -1) {
    return Status::InvalidArgument(fmt::format(
        "invalid subscription group {}: retryQueueNums={} retryMaxTimes={} must not be negative",
        config.group_name, config.retry_queue_nums, config.retry_max_times));
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(config.group_name);
    if (it != table_.end()) {
      Log()->info("update subscription group config, old: {} new: {}",
                  EncodeSubscriptionGroupConfig(it->second), EncodeSubscriptionGroupConfig(config));
    } else {
      Log()->info("create new subscription group, {}", EncodeSubscriptionGroupConfig(config));
    }
    table_[config.group_name] = config;
    NextVersionLocked();
  }
  PersistLogged();
  return Status::OK();
}

Status SubscriptionGroupManager::DeleteSubscriptionGroupConfig(std::string_view group) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(group);
    if (it == table_.end()) {
      return Status::NotFound(
          fmt::format("subscription group[{}] does not exist on this broker", group));
    }
    table_.erase(it);
    NextVersionLocked();
  }
  Log()->info("delete subscription group OK, group: {}", group);
  PersistLogged();
  return Status::OK();
}

protocol::DataVersion SubscriptionGroupManager::data_version() const {
  std::lock_guard<std::mutex> lock(mu_);
  return data_version_;
}

std::map<std::string, SubscriptionGroupConfig> SubscriptionGroupManager::AllSubscriptionGroups()
    const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::map<std::string, SubscriptionGroupConfig>(table_.begin(), table_.end());
}

std::string SubscriptionGroupManager::Encode() const {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  std::lock_guard<std::mutex> lock(mu_);
  w.StartObject();
  json::Key(w, "dataVersion");
  w.StartObject();
  json::Key(w, "counter");
  w.Int64(data_version_.counter);
  json::Key(w, "stateVersion");
  w.Int64(data_version_.state_version);
  json::Key(w, "timestamp");
  w.Int64(data_version_.timestamp);
  w.EndObject();
  json::Key(w, "forbiddenTable");
  w.StartObject();
  w.EndObject();
  json::Key(w, "subscriptionGroupTable");
  w.StartObject();
  for (const auto& [name, config] : table_) {
    json::Key(w, name);
    WriteConfig(w, config);
  }
  w.EndObject();
  w.EndObject();
  return out;
}

}  // namespace apogee::broker
