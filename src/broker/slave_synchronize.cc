#include "broker/slave_synchronize.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <set>
#include <vector>

#include "base/logging.h"
#include "base/string_util.h"
#include "broker/broker_config.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "env/env.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"

namespace apogee::broker {
namespace {

std::shared_ptr<spdlog::logger> Log() { return GetLogger("broker"); }

constexpr auto kSyncTimeout = std::chrono::milliseconds(3000);

}  // namespace

SlaveSynchronize::SlaveSynchronize(BrokerContext* context, env::Env* env,
                                   remoting::RemotingClient* client)
    : context_(context), env_(env), client_(client) {}

void SlaveSynchronize::SetMasterAddr(const std::string& addr) {
  std::lock_guard<std::mutex> lock(mu_);
  if (addr != master_addr_) {
    Log()->info("slave synchronize: master address {} -> {}",
                master_addr_.empty() ? "(none)" : master_addr_, addr);
    master_addr_ = addr;
  }
}

std::string SlaveSynchronize::master_addr() const {
  std::lock_guard<std::mutex> lock(mu_);
  return master_addr_;
}

Result<std::string> SlaveSynchronize::RemotingAddrFromHaAddr(const std::string& ha_addr) {
  const size_t colon = ha_addr.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Status::InvalidArgument(
        fmt::format("haMasterAddress \"{}\" is not host:port", ha_addr));
  }
  std::optional<int64_t> port = ParseInt64(std::string_view(ha_addr).substr(colon + 1));
  if (!port || *port < 2 || *port > 65535) {
    return Status::InvalidArgument(
        fmt::format("haMasterAddress \"{}\" has no valid port", ha_addr));
  }
  return fmt::format("{}:{}", ha_addr.substr(0, colon), *port - 1);
}

Result<std::string> SlaveSynchronize::Fetch(int32_t code, const char* what) {
  const std::string addr = master_addr();
  Result<protocol::RemotingCommand> response =
      client_->InvokeSync(addr, protocol::RemotingCommand::MakeRequest(code), kSyncTimeout);
  if (!response.ok()) {
    return response.status().Prefixed(fmt::format("{} from master {}", what, addr));
  }
  if (response->code != protocol::response_code::kSuccess) {
    // The master answered, but with an error (NotFound: the caller decides if that is one).
    return Status::NotFound(fmt::format("{} from master {}: code {} ({})", what, addr,
                                           response->code, response->remark.value_or("")));
  }
  return std::move(response->body);
}

Status SlaveSynchronize::SyncTopicConfig() {
  APOGEE_ASSIGN_OR_RETURN(std::string body,
                          Fetch(protocol::request_code::kGetAllTopicConfig, "topic configs"));
  Result<protocol::TopicConfigSerializeWrapper> wrapper =
      protocol::DecodeTopicConfigSerializeWrapper(body);
  if (!wrapper.ok()) return wrapper.status().Prefixed("master's topic configs");
  if (topics_version_ && *topics_version_ == wrapper->data_version) return Status::OK();
  TopicConfigManager* topics = context_->topic_config_manager;
  int changed_count = 0;
  for (const auto& [name, config] : wrapper->topic_config_table) {
    bool changed = false;
    Status s = topics->UpdateTopicConfig(config, &changed);
    if (!s.ok()) {
      Log()->warn("slave synchronize: topic {} from the master not taken: {}", name, s.ToString());
      continue;
    }
    changed_count += changed ? 1 : 0;
  }
  // Java replaces the whole table: topics the master no longer has go too.
  for (const std::string& name : topics->TopicNames()) {
    if (wrapper->topic_config_table.count(name) == 0 && !topics->IsSystemTopic(name)) {
      if (topics->DeleteTopicConfig(name).ok()) ++changed_count;
    }
  }
  topics_version_ = wrapper->data_version;
  if (changed_count > 0) {
    Log()->info("slave synchronize: {} topic configs taken from the master", changed_count);
  }
  return topics->Persist();
}

Status SlaveSynchronize::SyncConsumerOffset() {
  APOGEE_ASSIGN_OR_RETURN(
      std::string body,
      Fetch(protocol::request_code::kGetAllConsumerOffset, "consumer offsets"));
  ConsumerOffsetManager* offsets = context_->consumer_offset_manager.get();
  if (offsets == nullptr) return Status::OK();
  // Decode into a scratch table, then put every (topic@group, queue) the master has:
  // Java's putAll keeps keys only the slave knows.
  ConsumerOffsetManager master(env_, "");
  Status s = master.Decode(body);
  if (!s.ok()) return s.Prefixed("master's consumer offsets");
  for (const auto& [key, queues] : master.AllOffsets()) {
    const size_t at = key.find(kTopicGroupSeparator);
    if (at == std::string::npos) continue;
    const std::string_view topic(key.data(), at);
    const std::string_view group(key.data() + at + 1, key.size() - at - 1);
    for (const auto& [queue_id, offset] : queues) {
      offsets->CommitOffset(group, topic, queue_id, offset);
    }
  }
  return offsets->Persist();
}

Status SlaveSynchronize::SyncDelayOffset() {
  Result<std::string> body = Fetch(protocol::request_code::kGetAllDelayOffset, "delay offsets");
  // A master without delayed messages answers an error: nothing to copy.
  if (!body.ok()) return body.status().code() == StatusCode::kNotFound ? Status::OK() : body.status();
  if (body->empty()) return Status::OK();
  const std::string path = context_->config->Get()->ConfigDir() + "/delayOffset.json";
  Status s = env::WriteFileAtomically(env_, path, *body);
  return s.ok() ? s : s.Prefixed("write " + path);
}

Status SlaveSynchronize::SyncSubscriptionGroupConfig() {
  APOGEE_ASSIGN_OR_RETURN(
      std::string body,
      Fetch(protocol::request_code::kGetAllSubscriptiongroupConfig, "subscription groups"));
  if (body == groups_text_) return Status::OK();
  SubscriptionGroupManager* groups = context_->subscription_group_manager;
  Status s = groups->Decode(body);
  if (!s.ok()) return s.Prefixed("master's subscription groups");
  groups_text_ = std::move(body);
  Log()->info("slave synchronize: subscription groups taken from the master");
  return groups->Persist();
}

Status SlaveSynchronize::SyncAll() {
  const std::string addr = master_addr();
  if (addr.empty() || addr == context_->broker_addr) return Status::OK();
  std::vector<std::string> failures;
  for (Status s : {SyncTopicConfig(), SyncConsumerOffset(), SyncDelayOffset(),
                   SyncSubscriptionGroupConfig()}) {
    if (!s.ok()) failures.push_back(s.ToString());
  }
  if (failures.empty()) return Status::OK();
  return Status::Unavailable(
      fmt::format("slave synchronize with {}: {}", addr, fmt::join(failures, "; ")));
}

}  // namespace apogee::broker
