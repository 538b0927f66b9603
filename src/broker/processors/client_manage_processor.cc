#include "broker/processors/client_manage_processor.h"

#include <string>
#include <utility>
#include <vector>

#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/producer_manager.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "protocol/consumer_headers.h"
#include "protocol/consumer_list_body.h"
#include "protocol/custom_header.h"
#include "protocol/heartbeat_data.h"
#include "protocol/lock_batch_body.h"
#include "protocol/mix_all.h"
#include "protocol/response_code.h"
#include "protocol/topic_config.h"
#include "protocol/topic_sys_flag.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
using protocol::RemotingCommand;

// TopicSysFlag.buildSysFlag(false, true): the retry topic of a unit-mode group.

RemotingCommand Error(const RemotingCommand& request, int32_t code, std::string remark) {
  return RemotingCommand::MakeResponse(request, code, std::move(remark));
}

ClientChannelInfo MakeChannelInfo(const remoting::ChannelPtr& channel, std::string client_id,
                                  const RemotingCommand& request) {
  ClientChannelInfo info;
  info.channel = channel;
  info.client_id = std::move(client_id);
  info.language = request.language;
  info.version = request.version;
  return info;
}

}  // namespace

ClientManageProcessor::ClientManageProcessor(const BrokerConfig* config,
                                             ConsumerManager* consumer_manager,
                                             ProducerManager* producer_manager,
                                             SubscriptionGroupManager* subscription_group_manager,
                                             TopicConfigManager* topic_config_manager)
    : config_(config),
      consumer_manager_(consumer_manager),
      producer_manager_(producer_manager),
      subscription_group_manager_(subscription_group_manager),
      topic_config_manager_(topic_config_manager) {}

RemotingCommand ClientManageProcessor::HeartBeat(const RemotingCommand& request,
                                                 const remoting::ChannelPtr& channel) {
  if (request.body.empty()) return Error(request, rc::kSystemError, "HEART_BEAT without a body");
  Result<protocol::HeartbeatData> decoded = protocol::DecodeHeartbeatData(request.body);
  if (!decoded.ok()) {
    GetLogger("broker")->warn("bad HEART_BEAT body from {}: {}", channel->RemoteAddress(),
                              decoded.status().ToString());
    return Error(request, rc::kSystemError, decoded.status().message());
  }
  protocol::HeartbeatData& data = *decoded;
  if (data.client_id.empty()) {
    return Error(request, rc::kSystemError, "HeartbeatData.clientID is missing");
  }

  for (const protocol::ConsumerData& consumer : data.consumer_data_set) {
    if (consumer.group_name.empty()) {
      GetLogger("broker")->warn("HEART_BEAT from {} ({}): consumer data without groupName ignored",
                                data.client_id, channel->RemoteAddress());
      continue;
    }
    // 5.x heartbeat v2: a heartbeat "without subscriptions" only refreshes liveness.
    // Apogee never advertises v2 support, so clients should not send it; keep the
    // subscriptions known so far rather than wiping them.
    std::vector<protocol::SubscriptionData> subscriptions = consumer.subscription_data_set;
    if (data.without_sub) {
      if (std::optional<ConsumerGroupSnapshot> known =
              consumer_manager_->GetGroupSnapshot(consumer.group_name)) {
        subscriptions.clear();
        for (auto& [topic, sub] : known->subscriptions) subscriptions.push_back(std::move(sub));
      }
    }

    std::optional<SubscriptionGroupConfig> group =
        subscription_group_manager_->FindSubscriptionGroupConfig(consumer.group_name);
    if (group) {
      bool has_order_topic = false;
      for (const protocol::SubscriptionData& sub : subscriptions) {
        has_order_topic = has_order_topic || topic_config_manager_->IsOrderTopic(sub.topic);
      }
      const std::string retry_topic = protocol::RetryTopic(consumer.group_name);
      Result<protocol::TopicConfig> created =
          topic_config_manager_->CreateTopicInSendMessageBackMethod(
              retry_topic, group->retry_queue_nums, protocol::kPermRead | protocol::kPermWrite,
              has_order_topic, consumer.unit_mode ? protocol::kTopicSysFlagUnitSub : 0);
      if (!created.ok()) {
        GetLogger("broker")->warn("HEART_BEAT of group {}: cannot create {}: {}",
                                  consumer.group_name, retry_topic, created.status().ToString());
      }
    }
    consumer_manager_->RegisterConsumer(
        consumer.group_name, MakeChannelInfo(channel, data.client_id, request),
        consumer.consume_type, consumer.message_model, consumer.consume_from_where, subscriptions);
  }

  for (const protocol::ProducerData& producer : data.producer_data_set) {
    if (producer.group_name.empty()) continue;
    producer_manager_->RegisterProducer(producer.group_name,
                                        MakeChannelInfo(channel, data.client_id, request));
  }
  return RemotingCommand::MakeResponse(request, rc::kSuccess);
}

RemotingCommand ClientManageProcessor::UnregisterClient(const RemotingCommand& request,
                                                        const remoting::ChannelPtr& channel) {
  Result<protocol::UnregisterClientRequestHeader> header =
      protocol::DecodeCustomHeader<protocol::UnregisterClientRequestHeader>(request);
  if (!header.ok()) return Error(request, rc::kSystemError, header.status().message());
  if (header->producer_group && !header->producer_group->empty()) {
    producer_manager_->UnregisterProducer(*header->producer_group, channel->id());
  }
  if (header->consumer_group && !header->consumer_group->empty()) {
    consumer_manager_->UnregisterConsumer(*header->consumer_group, channel->id());
  }
  return RemotingCommand::MakeResponse(request, rc::kSuccess);
}

RemotingCommand ClientManageProcessor::CheckClientConfig(const RemotingCommand& request) {
  if (request.body.empty()) {
    return Error(request, rc::kSystemError, "CHECK_CLIENT_CONFIG without a body");
  }
  Result<protocol::CheckClientRequestBody> body =
      protocol::DecodeCheckClientRequestBody(request.body);
  if (!body.ok()) return Error(request, rc::kSystemError, body.status().message());
  if (!body->subscription_data) {
    return Error(request, rc::kSystemError, "CheckClientRequestBody.subscriptionData is missing");
  }
  const std::string& type = body->subscription_data->expression_type;
  if (protocol::IsTagExpressionType(type))
    return RemotingCommand::MakeResponse(request, rc::kSuccess);
  if (!config_->Get()->enable_property_filter) {
    return Error(request, rc::kSystemError,
                 "The broker does not support consumer to filter message by " + type);
  }
  if (type == protocol::kExpressionTypeSql92) {
    // Accepting it would let the consumer believe the broker filters by SQL92 while
    // pulls are filtered by tag only; refuse clearly instead.
    return Error(request, rc::kSystemError,
                 "SQL92 filtering is not implemented by this broker (group " + body->group + ")");
  }
  return Error(request, rc::kSubscriptionParseFailed, "unknown expression type \"" + type + "\"");
}

RemotingCommand ClientManageProcessor::GetConsumerListByGroup(const RemotingCommand& request) {
  Result<protocol::GetConsumerListByGroupRequestHeader> header =
      protocol::DecodeCustomHeader<protocol::GetConsumerListByGroupRequestHeader>(request);
  if (!header.ok()) return Error(request, rc::kSystemError, header.status().message());
  protocol::GetConsumerListByGroupResponseBody body;
  body.consumer_id_list = consumer_manager_->GetAllClientIds(header->consumer_group);
  if (body.consumer_id_list.empty()) {
    return Error(request, rc::kSystemError,
                 "no consumer for this group, " + header->consumer_group);
  }
  RemotingCommand response = RemotingCommand::MakeResponse(request, rc::kSuccess);
  response.body = protocol::EncodeConsumerListBody(body);
  return response;
}

RemotingCommand ClientManageProcessor::LockBatchMq(const RemotingCommand& request) {
  Result<protocol::LockBatchRequestBody> body = protocol::DecodeLockBatchRequestBody(request.body);
  if (!body.ok()) return Error(request, rc::kSystemError, body.status().message());
  protocol::LockBatchResponseBody answer;
  answer.lock_ok_mq_set = consumer_manager_->rebalance_lock_manager().TryLockBatch(
      body->consumer_group, body->mq_set, body->client_id);
  RemotingCommand response = RemotingCommand::MakeResponse(request, rc::kSuccess);
  response.body = protocol::EncodeLockBatchResponseBody(answer);
  return response;
}

RemotingCommand ClientManageProcessor::UnlockBatchMq(const RemotingCommand& request) {
  Result<protocol::UnlockBatchRequestBody> body =
      protocol::DecodeLockBatchRequestBody(request.body);
  if (!body.ok()) return Error(request, rc::kSystemError, body.status().message());
  consumer_manager_->rebalance_lock_manager().UnlockBatch(body->consumer_group, body->mq_set,
                                                          body->client_id);
  return RemotingCommand::MakeResponse(request, rc::kSuccess);
}

}  // namespace apogee::broker
