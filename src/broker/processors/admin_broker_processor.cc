#include "broker/processors/admin_broker_processor.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/config_table.h"
#include "base/logging.h"
#include "base/runtime_config_keys.h"
#include "base/string_util.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/stats/broker_runtime_info.h"
#include "broker/stats/broker_stats_manager.h"
#include "broker/client/broker_to_client.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/failover_coordinator.h"
#include "broker/client/producer_manager.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "env/env.h"
#include "protocol/admin_bodies.h"
#include "protocol/broker_stats_data.h"
#include "protocol/consume_stats_list.h"
#include "protocol/admin_headers.h"
#include "protocol/client_headers.h"
#include "protocol/custom_header.h"
#include "protocol/epoch_entry_cache.h"
#include "protocol/kv_table.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/topic_config.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;

namespace {

RemotingCommand Reply(const RemotingCommand& request, int32_t code, std::string remark = "") {
  if (remark.empty()) return RemotingCommand::MakeResponse(request, code);
  return RemotingCommand::MakeResponse(request, code, std::move(remark));
}

RemotingCommand Ok(const RemotingCommand& request, std::string body = "") {
  RemotingCommand response = RemotingCommand::MakeResponse(request, rc::kSuccess);
  response.body = std::move(body);
  return response;
}

// Java's decodeCommandCustomHeader throws; the remoting layer answers SYSTEM_ERROR with
// the exception text.
RemotingCommand Malformed(const RemotingCommand& request, const Status& status) {
  return Reply(request, rc::kSystemError,
               fmt::format("malformed {} request header: {}", req::Name(request.code),
                           status.message()));
}

// Java's validateSlave: a slave copies topics and groups from its master.
std::optional<RemotingCommand> RefuseOnSlave(const BrokerContext& context,
                                             const RemotingCommand& request) {
  if (!context.config->Get()->IsSlave()) return std::nullopt;
  return Reply(request, rc::kSystemError,
               "Can't modify topic or subscription group from slave broker, please execute it "
               "from master broker.");
}

// Java checks the topic name and refuses system topics with SYSTEM_ERROR (4.9.7 and 5.x).
std::optional<RemotingCommand> RefuseTopicName(const BrokerContext& context,
                                               const RemotingCommand& request,
                                               const std::string& topic) {
  if (Status s = ValidateTopicName(topic); !s.ok()) {
    return Reply(request, rc::kSystemError, s.message());
  }
  if (context.topic_config_manager->IsSystemTopic(topic)) {
    return Reply(request, rc::kSystemError,
                 fmt::format("The topic[{}] is conflict with system topic.", topic));
  }
  return std::nullopt;
}

// TopicAttributes modifications of 5.x ("+key=value,-key"), applied to `attributes`.
Status ApplyAttributeModification(std::string_view text, std::map<std::string, std::string>* attributes) {
  for (const std::string& raw : SplitString(text, ',')) {
    const std::string entry(TrimWhitespace(raw));
    if (entry.empty()) continue;
    if (entry[0] == '+') {
      const size_t eq = entry.find('=');
      if (eq == std::string::npos || eq == 1 || eq + 1 == entry.size()) {
        return Status::InvalidArgument(
            fmt::format("attribute \"{}\" is not +key=value", entry));
      }
      (*attributes)[entry.substr(1, eq - 1)] = entry.substr(eq + 1);
    } else if (entry[0] == '-' && entry.size() > 1 && entry.find('=') == std::string::npos) {
      attributes->erase(entry.substr(1));
    } else {
      return Status::InvalidArgument(
          fmt::format("attribute \"{}\" must start with + (add) or - (delete)", entry));
    }
  }
  return Status::OK();
}

int64_t StoreTimeAt(const store::MessageStore& store, const std::string& topic, int32_t queue_id,
                    int64_t queue_offset) {
  if (queue_offset < 0) return 0;
  return std::max<int64_t>(0, store.GetMessageStoreTimestamp(topic, queue_id, queue_offset));
}

protocol::Connection ToConnection(const ClientChannelInfo& info) {
  return protocol::Connection{info.client_id, info.ClientAddress(), info.language, info.version};
}

}  // namespace

AdminBrokerProcessor::AdminBrokerProcessor(BrokerContext* context, env::Env* env,
                                           std::shared_ptr<const BrokerStatsManager> stats)
    : context_(context), env_(env), stats_(std::move(stats)) {}

void AdminBrokerProcessor::ProcessRequest(RemotingCommand request, remoting::Responder responder) {
  // The other families create these in their Register* calls, which the controller makes
  // before this family's; a broker wired otherwise answers instead of crashing.
  if (!context_->consumer_offset_manager || !context_->consumer_manager ||
      !context_->producer_manager) {
    responder.SendCode(rc::kSystemError,
                       "broker not ready: the client and consumer-offset managers are not "
                       "registered");
    return;
  }
  RemotingCommand response;
  switch (request.code) {
    case req::kUpdateAndCreateTopic:
      response = UpdateAndCreateTopic(request);
      break;
    case req::kDeleteTopicInBroker:
      response = DeleteTopic(request);
      break;
    case req::kGetAllTopicConfig:
      response = GetAllTopicConfig(request);
      break;
    case req::kUpdateBrokerConfig:
      response = UpdateBrokerConfig(request);
      break;
    case req::kGetBrokerConfig:
      response = GetBrokerConfig(request);
      break;
    case req::kGetBrokerRuntimeInfo:
      response = GetBrokerRuntimeInfo(request);
      break;
    case req::kGetBrokerEpochCache:
      response = GetBrokerEpochCache(request);
      break;
    case req::kUpdateAndCreateSubscriptiongroup:
      response = UpdateAndCreateSubscriptionGroup(request);
      break;
    case req::kGetAllSubscriptiongroupConfig:
      response = GetAllSubscriptionGroup(request);
      break;
    case req::kDeleteSubscriptiongroup:
      response = DeleteSubscriptionGroup(request);
      break;
    case req::kGetTopicStatsInfo:
      response = GetTopicStatsInfo(request);
      break;
    case req::kGetConsumeStats:
      response = GetConsumeStats(request);
      break;
    case req::kGetConsumerConnectionList:
      response = GetConsumerConnectionList(request);
      break;
    case req::kGetProducerConnectionList:
      response = GetProducerConnectionList(request);
      break;
    case req::kGetAllConsumerOffset:
      response = GetAllConsumerOffset(request);
      break;
    case req::kGetAllDelayOffset:
      response = GetAllDelayOffset(request);
      break;
    case req::kQueryTopicConsumeByWho:
      response = QueryTopicConsumeByWho(request);
      break;
    case req::kInvokeBrokerToResetOffset:
      response = ResetOffset(request);
      break;
    case req::kCloneGroupOffset:
      response = CloneGroupOffset(request);
      break;
    case req::kViewBrokerStatsData:
      response = ViewBrokerStatsData(request);
      break;
    case req::kGetBrokerConsumeStats:
      response = GetBrokerConsumeStats(request);
      break;
    default:
      response = Reply(request, rc::kRequestCodeNotSupported,
                       fmt::format(" request type {} not supported", request.code));
  }
  responder.Send(std::move(response));
}

// ---- topics ------------------------------------------------------------------------

RemotingCommand AdminBrokerProcessor::UpdateAndCreateTopic(const RemotingCommand& request) {
  if (auto refused = RefuseOnSlave(*context_, request)) return *refused;
  auto header = protocol::DecodeCustomHeader<protocol::CreateTopicRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  if (auto refused = RefuseTopicName(*context_, request, header->topic)) return *refused;

  protocol::TopicConfig config;
  config.topic_name = header->topic;
  config.read_queue_nums = header->read_queue_nums;
  config.write_queue_nums = header->write_queue_nums;
  config.perm = header->perm;
  if (!header->topic_filter_type.empty()) config.topic_filter_type = header->topic_filter_type;
  config.topic_sys_flag = header->topic_sys_flag.value_or(0);
  config.order = header->order;
  if (header->attributes && !header->attributes->empty()) {
    if (auto existing = context_->topic_config_manager->SelectTopicConfig(header->topic)) {
      config.attributes = existing->attributes;
    }
    if (Status s = ApplyAttributeModification(*header->attributes, &config.attributes); !s.ok()) {
      return Reply(request, rc::kSystemError,
                   fmt::format("topic[{}]: {}", header->topic, s.message()));
    }
  }
  // The manager persists, bumps the data version and (through the controller's change
  // listener) registers with the NameServers at once.
  if (Status s = context_->topic_config_manager->UpdateTopicConfig(config); !s.ok()) {
    return Reply(request, rc::kSystemError, s.message());
  }
  return Ok(request);
}

RemotingCommand AdminBrokerProcessor::DeleteTopic(const RemotingCommand& request) {
  if (auto refused = RefuseOnSlave(*context_, request)) return *refused;
  auto header = protocol::DecodeCustomHeader<protocol::DeleteTopicRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  if (auto refused = RefuseTopicName(*context_, request, header->topic)) return *refused;

  // Java deletes whatever exists and answers SUCCESS either way.
  Status deleted = context_->topic_config_manager->DeleteTopicConfig(header->topic);
  if (!deleted.ok() && !deleted.IsNotFound()) {
    return Reply(request, rc::kSystemError, deleted.message());
  }
  // A topic created again later must not inherit old positions (5.x cleanOffsetByTopic).
  context_->consumer_offset_manager->RemoveTopic(header->topic);
  if (Status s = context_->store->DeleteTopic(header->topic); !s.ok() && !s.IsNotFound()) {
    return Reply(request, rc::kSystemError,
                 fmt::format("topic[{}] config deleted but its consume queues were not: {}",
                             header->topic, s.message()));
  }
  return Ok(request);
}

RemotingCommand AdminBrokerProcessor::GetAllTopicConfig(const RemotingCommand& request) {
  if (context_->topic_config_manager->TopicNames().empty()) {
    return Reply(request, rc::kSystemError, "No topic in this broker");
  }
  return Ok(request, context_->topic_config_manager->Encode());
}

// ---- broker config -----------------------------------------------------------------

RemotingCommand AdminBrokerProcessor::UpdateBrokerConfig(const RemotingCommand& request) {
  if (request.body.empty()) return Ok(request);  // Java: nothing to do
  auto props = ParsePropertiesText(request.body);
  if (!props.ok()) {
    return Reply(request, rc::kSystemError,
                 fmt::format("string2Properties error: {}", props.status().message()));
  }
  for (const auto& [key, value] : *props) {
    std::string reason = ForbiddenRuntimeConfigKeyReason(key);
    if (!reason.empty()) return Reply(request, rc::kNoPermission, std::move(reason));
  }
  Status s = context_->config->UpdateAtRuntime(*props);
  if (s.ok()) {
    GetLogger("broker")->info("broker config updated at runtime: {} key(s)", props->size());
    return Ok(request);
  }
  if (s.Is(StatusCode::kPermissionDenied)) return Reply(request, rc::kNoPermission, s.message());
  // An unknown key or a value that does not parse: Java would silently ignore the first
  // and fail on the second; both are refused here, naming the key.
  return Reply(request, rc::kInvalidParameter, s.message());
}

RemotingCommand AdminBrokerProcessor::GetBrokerConfig(const RemotingCommand& request) {
  RemotingCommand response = Ok(request, context_->config->ToPropertiesText());
  protocol::GetBrokerConfigResponseHeader header;
  header.version = protocol::EncodeDataVersion(context_->config->data_version());
  protocol::EncodeCustomHeader(header, &response);
  return response;
}

RemotingCommand AdminBrokerProcessor::GetBrokerRuntimeInfo(const RemotingCommand& request) {
  return Ok(request, protocol::EncodeKVTable(BuildBrokerRuntimeInfo(*context_, *stats_, env_)));
}

RemotingCommand AdminBrokerProcessor::GetBrokerEpochCache(const RemotingCommand& request) {
  if (context_->failover == nullptr) {
    return Reply(request, rc::kSystemError,
                 "this request only for failover with etcd (etcdEndpoints is not set)");
  }
  const FailoverSnapshot f = context_->failover->Snapshot();
  const auto settings = context_->config->Get();
  protocol::EpochEntryCache cache;
  cache.cluster_name = settings->broker_cluster_name;
  cache.broker_name = settings->broker_name;
  cache.broker_id = f.broker_id;
  cache.max_offset = context_->store->MaxPhyOffset();
  for (size_t i = 0; i < f.local_history.size(); ++i) {
    protocol::EpochEntryJson e;
    e.epoch = static_cast<int32_t>(f.local_history[i].epoch);
    e.start_offset = f.local_history[i].start_offset;
    if (i + 1 < f.local_history.size()) e.end_offset = f.local_history[i + 1].start_offset;
    cache.epoch_list.push_back(e);
  }
  return Ok(request, protocol::EncodeEpochEntryCache(cache));
}

// ---- subscription groups -----------------------------------------------------------

RemotingCommand AdminBrokerProcessor::UpdateAndCreateSubscriptionGroup(
    const RemotingCommand& request) {
  if (auto refused = RefuseOnSlave(*context_, request)) return *refused;
  if (request.body.empty()) {
    return Reply(request, rc::kInvalidParameter,
                 "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP needs a SubscriptionGroupConfig body");
  }
  auto config = DecodeSubscriptionGroupConfig(request.body);
  if (!config.ok()) return Reply(request, rc::kInvalidParameter, config.status().message());
  if (Status s = ValidateGroupName(config->group_name); !s.ok()) {
    return Reply(request, rc::kInvalidParameter, s.message());
  }
  Status s = context_->subscription_group_manager->UpdateSubscriptionGroupConfig(*config);
  if (!s.ok()) {
    return Reply(request,
                 s.Is(StatusCode::kInvalidArgument) ? rc::kInvalidParameter : rc::kSystemError,
                 s.message());
  }
  return Ok(request);
}

RemotingCommand AdminBrokerProcessor::GetAllSubscriptionGroup(const RemotingCommand& request) {
  return Ok(request, context_->subscription_group_manager->Encode());
}

RemotingCommand AdminBrokerProcessor::DeleteSubscriptionGroup(const RemotingCommand& request) {
  if (auto refused = RefuseOnSlave(*context_, request)) return *refused;
  auto header = protocol::DecodeCustomHeader<protocol::DeleteSubscriptionGroupRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  // Java deletes whatever exists and answers SUCCESS either way.
  Status deleted =
      context_->subscription_group_manager->DeleteSubscriptionGroupConfig(header->group_name);
  if (!deleted.ok() && !deleted.IsNotFound()) {
    return Reply(request, rc::kSystemError, deleted.message());
  }
  if (header->clean_offset || header->remove_offset.value_or(false)) {
    context_->consumer_offset_manager->RemoveGroup(header->group_name);
  }
  return Ok(request);
}

// ---- statistics and connections ----------------------------------------------------

RemotingCommand AdminBrokerProcessor::GetTopicStatsInfo(const RemotingCommand& request) {
  auto header = protocol::DecodeCustomHeader<protocol::GetTopicStatsInfoRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  auto topic_config = context_->topic_config_manager->SelectTopicConfig(header->topic);
  if (!topic_config) {
    return Reply(request, rc::kTopicNotExist, fmt::format("topic[{}] not exist", header->topic));
  }
  const std::string broker_name = context_->config->Get()->broker_name;
  const store::MessageStore& store = *context_->store;
  protocol::TopicStatsTable table;
  const int32_t queues = std::max(topic_config->read_queue_nums, topic_config->write_queue_nums);
  for (int32_t i = 0; i < queues; ++i) {
    protocol::TopicOffset offset;
    offset.min_offset = std::max<int64_t>(0, store.GetMinOffsetInQueue(header->topic, i));
    offset.max_offset = std::max<int64_t>(0, store.GetMaxOffsetInQueue(header->topic, i));
    if (offset.max_offset > 0) {
      offset.last_update_timestamp = StoreTimeAt(store, header->topic, i, offset.max_offset - 1);
    }
    table.offset_table[protocol::MessageQueue{header->topic, broker_name, i}] = offset;
  }
  return Ok(request, protocol::EncodeTopicStatsTable(table));
}

RemotingCommand AdminBrokerProcessor::GetConsumeStats(const RemotingCommand& request) {
  auto header = protocol::DecodeCustomHeader<protocol::GetConsumeStatsRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  const std::string& group = header->consumer_group;
  std::set<std::string> topics;
  if (header->topic && !header->topic->empty()) {
    topics.insert(*header->topic);
  } else if (header->topic_list && !header->topic_list->empty()) {
    for (const std::string& t : SplitString(*header->topic_list, ',')) {
      if (!TrimWhitespace(t).empty()) topics.insert(std::string(TrimWhitespace(t)));
    }
  } else {
    topics = context_->consumer_offset_manager->WhichTopicByConsumer(group);
  }

  return Ok(request, protocol::EncodeConsumeStats(GroupConsumeStats(group, topics, false).first));
}

// GET_CONSUME_STATS's table for `group` over `topics` (topics this broker does not have,
// or that an online group no longer subscribes to, are skipped, as Java does; with
// `order_only` so are topics that are not ordered). Also returns one ConsumeStats per topic
// kept (GET_BROKER_CONSUME_STATS lists them apart).
std::pair<protocol::ConsumeStats, std::vector<protocol::ConsumeStats>>
AdminBrokerProcessor::GroupConsumeStats(const std::string& group,
                                        const std::set<std::string>& topics,
                                        bool order_only) const {
  std::optional<ConsumerGroupSnapshot> online;
  online = context_->consumer_manager->GetGroupSnapshot(group);
  const std::string broker_name = context_->config->Get()->broker_name;
  const store::MessageStore& store = *context_->store;
  const ConsumerOffsetManager& offsets = *context_->consumer_offset_manager;
  protocol::ConsumeStats stats;
  std::vector<protocol::ConsumeStats> per_topic;
  for (const std::string& topic : topics) {
    auto topic_config = context_->topic_config_manager->SelectTopicConfig(topic);
    if (!topic_config) continue;  // Java skips topics it does not have
    if (order_only && !topic_config->order) continue;
    // An online group that does not subscribe to the topic (any more) is not reported.
    if (online && !online->subscriptions.empty() && online->subscriptions.count(topic) == 0) {
      continue;
    }
    protocol::ConsumeStats one;
    for (int32_t i = 0; i < topic_config->read_queue_nums; ++i) {
      protocol::OffsetWrapper w;
      w.broker_offset = std::max<int64_t>(0, store.GetMaxOffsetInQueue(topic, i));
      w.consumer_offset = std::max<int64_t>(0, offsets.QueryOffset(group, topic, i));
      // Where the group's pulls have got to (5.x), never behind what it committed.
      w.pull_offset = std::max(w.consumer_offset, offsets.QueryPullOffset(group, topic, i));
      if (w.consumer_offset > 0) {
        w.last_timestamp = StoreTimeAt(store, topic, i, w.consumer_offset - 1);
      }
      one.offset_table[protocol::MessageQueue{topic, broker_name, i}] = w;
    }
    // Java adds each topic's GROUP_GET_NUMS minute rate (tpsGroupGetNums).
    if (stats_) one.consume_tps = stats_->GroupGetTps(topic, group);
    stats.offset_table.insert(one.offset_table.begin(), one.offset_table.end());
    stats.consume_tps += one.consume_tps;
    per_topic.push_back(std::move(one));
  }
  return {std::move(stats), std::move(per_topic)};
}

// GET_BROKER_CONSUME_STATS (fetchAllConsumeStatsInBroker): every subscription group with
// the topics it has offsets for, and the broker's total lag.
RemotingCommand AdminBrokerProcessor::GetBrokerConsumeStats(const RemotingCommand& request) {
  auto header = protocol::DecodeCustomHeader<protocol::GetConsumeStatsInBrokerHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  protocol::ConsumeStatsList list;
  list.broker_addr = context_->broker_addr;
  for (const auto& [group, config] : context_->subscription_group_manager->AllSubscriptionGroups()) {
    auto [all, per_topic] = GroupConsumeStats(
        group, context_->consumer_offset_manager->WhichTopicByConsumer(group), header->is_order);
    for (const protocol::ConsumeStats& one : per_topic) {
      list.total_diff += protocol::ComputeTotalDiff(one);
      list.total_inflight_diff += protocol::ComputeInflightTotalDiff(one);
    }
    list.groups.emplace_back(group, std::move(per_topic));
  }
  return Ok(request, protocol::EncodeConsumeStatsList(list));
}


RemotingCommand AdminBrokerProcessor::GetConsumerConnectionList(const RemotingCommand& request) {
  auto header =
      protocol::DecodeCustomHeader<protocol::GetConsumerConnectionListRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  std::optional<ConsumerGroupSnapshot> snapshot =
      context_->consumer_manager->GetGroupSnapshot(header->consumer_group);
  if (!snapshot || snapshot->connections.empty()) {
    return Reply(request, rc::kConsumerNotOnline,
                 fmt::format("the consumer group[{}] not online", header->consumer_group));
  }
  protocol::ConsumerConnection body;
  for (const ClientChannelInfo& info : snapshot->connections) {
    body.connection_set.push_back(ToConnection(info));
  }
  body.subscription_table = snapshot->subscriptions;
  body.consume_type = snapshot->consume_type;
  body.message_model = snapshot->message_model;
  body.consume_from_where = snapshot->consume_from_where;
  return Ok(request, protocol::EncodeConsumerConnection(body));
}

RemotingCommand AdminBrokerProcessor::GetProducerConnectionList(const RemotingCommand& request) {
  auto header =
      protocol::DecodeCustomHeader<protocol::GetProducerConnectionListRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  auto members = context_->producer_manager->GetConnections(header->producer_group);
  if (!members) {
    return Reply(request, rc::kSystemError,
                 fmt::format("the producer group[{}] not exist", header->producer_group));
  }
  protocol::ProducerConnection body;
  for (const ClientChannelInfo& info : *members) body.connection_set.push_back(ToConnection(info));
  return Ok(request, protocol::EncodeProducerConnection(body));
}

// ---- offsets -----------------------------------------------------------------------

RemotingCommand AdminBrokerProcessor::GetAllConsumerOffset(const RemotingCommand& request) {
  // The consumerOffset.json shape; slaves replace their copy with it.
  return Ok(request, context_->consumer_offset_manager->Encode());
}

RemotingCommand AdminBrokerProcessor::GetAllDelayOffset(const RemotingCommand& request) {
  // There is no schedule service yet: the delay offsets are what delayOffset.json holds
  // (written by a Java broker on the same store, or copied from a master).
  const std::string path = context_->config->Get()->ConfigDir() + "/delayOffset.json";
  auto content = env::ReadFileToString(env_, path);
  if (!content.ok() || content->empty()) {
    return Reply(request, rc::kSystemError, "No delay offset in this broker");
  }
  return Ok(request, std::move(*content));
}

RemotingCommand AdminBrokerProcessor::QueryTopicConsumeByWho(const RemotingCommand& request) {
  auto header = protocol::DecodeCustomHeader<protocol::QueryTopicConsumeByWhoRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  protocol::GroupList body;
  body.group_list = context_->consumer_manager->GroupsOfTopic(header->topic);
  for (const std::string& g : context_->consumer_offset_manager->WhichGroupByTopic(header->topic)) {
    body.group_list.insert(g);
  }
  return Ok(request, protocol::EncodeGroupList(body));
}

RemotingCommand AdminBrokerProcessor::ResetOffset(const RemotingCommand& request) {
  auto header = protocol::DecodeCustomHeader<protocol::ResetOffsetRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  const std::string& group = header->group;
  const std::string& topic = header->topic;
  auto topic_config = context_->topic_config_manager->SelectTopicConfig(topic);
  if (!topic_config) {
    return Reply(request, rc::kTopicNotExist,
                 fmt::format("[reset-offset] resetOffset failed, topic in broker not exist, "
                             "topic={}",
                             topic));
  }
  const std::string broker_name = context_->config->Get()->broker_name;
  const store::MessageStore& store = *context_->store;
  ConsumerOffsetManager& offsets = *context_->consumer_offset_manager;

  protocol::ResetOffsetBody body;
  for (int32_t i = 0; i < topic_config->write_queue_nums; ++i) {
    if (header->queue_id >= 0 && header->queue_id != i) continue;  // 5.x: one queue only
    const int64_t consumer_offset = offsets.QueryOffset(group, topic, i);
    if (consumer_offset == -1) {
      return Reply(request, rc::kSystemError,
                   fmt::format("THe consumer group <{}> not exist", group));
    }
    int64_t target;
    if (header->offset) {
      target = *header->offset;
    } else if (header->timestamp == -1) {
      target = store.GetMaxOffsetInQueue(topic, i);
    } else {
      target = store.GetOffsetInQueueByTime(topic, i, header->timestamp);
    }
    target = std::max<int64_t>(0, target);
    // Without force, only move back: a group already behind the time keeps its offset.
    body.offset_table[protocol::MessageQueue{topic, broker_name, i}] =
        header->is_force || target < consumer_offset ? target : consumer_offset;
  }

  // The stored offsets are rewritten in every case (Java 4.9 leaves that to the clients and
  // refuses an offline group with CONSUMER_NOT_ONLINE): an offline group then resumes from
  // the reset position when it next starts, and members that ignore the push (ali-ons)
  // read it when they next query their offset.
  for (const auto& [mq, offset] : body.offset_table) {
    offsets.CommitOffset(group, topic, mq.queue_id, offset);
  }
  const std::string java_body = protocol::EncodeResetOffsetBody(body);
  std::optional<ConsumerGroupSnapshot> snapshot = context_->consumer_manager->GetGroupSnapshot(group);
  if (!snapshot || snapshot->connections.empty()) {
    GetLogger("broker")->info("[reset-offset] group {} topic {} timestamp {} force {}: {} queue(s) "
                              "rewritten, no member online",
                              group, topic, header->timestamp, header->is_force,
                              body.offset_table.size());
    return Ok(request, java_body);
  }
  const std::string cpp_body = protocol::EncodeResetOffsetBodyForC(body);
  for (const ClientChannelInfo& member : snapshot->connections) {
    const bool cpp = member.language == protocol::LanguageCode::kCpp;
    ResetConsumerClientOffset(member.channel, *header, cpp ? cpp_body : java_body);
  }
  GetLogger("broker")->info("[reset-offset] group {} topic {} timestamp {} force {}: {} queue(s), "
                            "{} member(s) told",
                            group, topic, header->timestamp, header->is_force,
                            body.offset_table.size(), snapshot->connections.size());
  return Ok(request, java_body);
}

RemotingCommand AdminBrokerProcessor::CloneGroupOffset(const RemotingCommand& request) {
  auto header = protocol::DecodeCustomHeader<protocol::CloneGroupOffsetRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  ConsumerOffsetManager& offsets = *context_->consumer_offset_manager;
  std::set<std::string> topics;
  if (header->topic && !header->topic->empty()) {
    topics.insert(*header->topic);
  } else {
    topics = offsets.WhichTopicByConsumer(header->src_group);
  }
  std::optional<ConsumerGroupSnapshot> online;
  if (!header->offline) online = context_->consumer_manager->GetGroupSnapshot(header->src_group);
  for (const std::string& topic : topics) {
    if (!context_->topic_config_manager->ContainsTopic(topic)) continue;  // as Java
    // An online source group that no longer subscribes to the topic is not cloned.
    if (online && !online->subscriptions.empty() && online->subscriptions.count(topic) == 0) {
      continue;
    }
    for (const auto& [queue_id, offset] : offsets.QueryOffsets(header->src_group, topic)) {
      offsets.CommitOffset(header->dest_group, topic, queue_id, offset);
    }
  }
  return Ok(request);
}

// ---- statistics ---------------------------------------------------------------------

RemotingCommand AdminBrokerProcessor::ViewBrokerStatsData(const RemotingCommand& request) {
  auto header =
      protocol::DecodeCustomHeader<protocol::ViewBrokerStatsDataRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  const StatsItemSet* set = stats_ ? stats_->Set(header->stats_name) : nullptr;
  const StatsItem* item = set != nullptr ? set->Find(header->stats_key) : nullptr;
  if (item == nullptr) {
    // Java's remark, word for word.
    return Reply(request, rc::kSystemError,
                 fmt::format("The stats <{}> <{}> not exist", header->stats_name,
                             header->stats_key));
  }
  auto convert = [](const StatsSnapshot& s) {
    return protocol::BrokerStatsItem{s.sum, s.tps, s.avgpt};
  };
  protocol::BrokerStatsData data;
  data.stats_minute = convert(item->Minute());
  data.stats_hour = convert(item->Hour());
  data.stats_day = convert(item->Day());
  return Ok(request, protocol::EncodeBrokerStatsData(data));
}

}  // namespace apogee::broker
