#include "broker/processors/send_message_back_processor.h"

#include <fmt/format.h>

#include <random>
#include <string>
#include <utility>

#include "broker/broker_config.h"
#include "broker/stats/broker_stats_manager.h"
#include "broker/schedule/message_redirect.h"
#include "broker/permission.h"
#include "broker/store_status_mapping.h"
#include "broker/schedule/stored_message.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "message/message_format.h"
#include "message/message_record.h"
#include "protocol/custom_header.h"
#include "protocol/mix_all.h"
#include "protocol/perm_name.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "protocol/topic_config.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace rc = protocol::response_code;
using protocol::RemotingCommand;

namespace {

// MQVersion V3_4_9: from this request version on, the header's maxReconsumeTimes counts.
constexpr int32_t kVersionHonoursMaxReconsumeTimes = 121;
// The first retry waits level 3 (10 s with the default table), then one level more each time.
constexpr int32_t kFirstRetryDelayLevel = 3;
// TopicSysFlag.buildSysFlag(false, true): the retry topic of a unit-mode group.
constexpr int32_t kTopicSysFlagUnitSub = 0x2;

int32_t RandomQueueId(int32_t queue_nums) {
  if (queue_nums <= 0) return 0;
  thread_local std::mt19937 rng(std::random_device{}());
  return static_cast<int32_t>(rng() % static_cast<uint32_t>(queue_nums));
}

}  // namespace

SendMessageBackProcessor::SendMessageBackProcessor(const Deps& deps) : deps_(deps) {
  Result<store::DelayLevelTable> levels =
      store::DelayLevelTable::Parse(deps_.config->Get()->store.message_delay_level);
  if (levels.ok()) delay_levels_ = std::move(*levels);
}

void SendMessageBackProcessor::ProcessRequest(RemotingCommand request,
                                              remoting::Responder responder) {
  auto header = protocol::DecodeCustomHeader<protocol::ConsumerSendMsgBackRequestHeader>(request);
  if (!header.ok()) {
    responder.SendCode(rc::kSystemError, fmt::format("malformed CONSUMER_SEND_MSG_BACK header: {}",
                                                     header.status().message()));
    return;
  }
  const std::shared_ptr<const BrokerSettings> settings = deps_.config->Get();
  std::optional<SubscriptionGroupConfig> group =
      deps_.groups->FindSubscriptionGroupConfig(header->group);
  if (!group) {
    responder.SendCode(rc::kSubscriptionGroupNotExist,
                       fmt::format("subscription group not exist, {}", header->group));
    return;
  }
  if (!protocol::IsWriteable(settings->broker_permission)) {
    responder.SendCode(rc::kNoPermission, fmt::format("the broker[{}] sending message is forbidden",
                                                      settings->broker_ip1));
    return;
  }
  if (group->retry_queue_nums <= 0) {
    responder.SendCode(rc::kSuccess);  // the group wants no retries: dropped, as Java
    return;
  }

  TopicConfigManager& topics = *deps_.topics;
  std::string new_topic = protocol::RetryTopic(header->group);
  int32_t queue_id = RandomQueueId(group->retry_queue_nums);
  Result<protocol::TopicConfig> retry_config = topics.CreateTopicInSendMessageBackMethod(
      new_topic, group->retry_queue_nums, protocol::kPermRead | protocol::kPermWrite, false,
      header->unit_mode ? kTopicSysFlagUnitSub : 0);
  if (!retry_config.ok()) {
    responder.SendCode(rc::kSystemError, fmt::format("topic[{}] not exist: {}", new_topic,
                                                     retry_config.status().message()));
    return;
  }
  if (!protocol::IsWriteable(retry_config->perm)) {
    responder.SendCode(rc::kNoPermission,
                       fmt::format("the topic[{}] sending message is forbidden", new_topic));
    return;
  }

  Result<message::MessageExt> found = LookMessageByOffset(*deps_.store, header->offset);
  if (!found.ok()) {
    responder.SendCode(rc::kSystemError, std::string(found.status().message()));
    return;
  }
  message::MessageExt msg = std::move(*found);
  if (!msg.properties.Has(message::kPropertyRetryTopic)) {
    (void)msg.properties.Set(message::kPropertyRetryTopic, msg.topic);
  }
  (void)msg.properties.Set(message::kPropertyWaitStoreMsgOk, "false");

  int32_t max_reconsume = group->retry_max_times;
  if (request.version >= kVersionHonoursMaxReconsumeTimes && header->max_reconsume_times) {
    max_reconsume = *header->max_reconsume_times;
  }
  int32_t delay_level = header->delay_level;
  if (msg.reconsume_times >= max_reconsume || delay_level < 0) {
    new_topic = protocol::DlqTopic(header->group);
    queue_id = RandomQueueId(protocol::kDlqNumsPerGroup);
    Result<protocol::TopicConfig> dlq_config = topics.CreateTopicInSendMessageBackMethod(
        new_topic, protocol::kDlqNumsPerGroup, protocol::kPermWrite, false, 0);
    if (!dlq_config.ok()) {
      responder.SendCode(rc::kSystemError, fmt::format("topic[{}] not exist: {}", new_topic,
                                                       dlq_config.status().message()));
      return;
    }
    msg.properties.Erase(message::kPropertyDelayTimeLevel);
  } else {
    if (delay_level == 0) delay_level = kFirstRetryDelayLevel + msg.reconsume_times;
    (void)msg.properties.Set(message::kPropertyDelayTimeLevel, std::to_string(delay_level));
  }

  std::optional<std::string_view> origin = msg.properties.Get(message::kPropertyOriginMessageId);
  if (!origin || origin->empty()) {
    (void)msg.properties.Set(message::kPropertyOriginMessageId, msg.offset_msg_id);
  }
  msg.topic = new_topic;
  msg.queue_id = queue_id;
  msg.reconsume_times += 1;
  RedirectDelayed(delay_levels_, RouteOf(&msg));  // a retry waits in SCHEDULE_TOPIC_XXXX

  // The store fills queue offset, physical offset and store time; the views below point
  // into `msg` and `properties`, which the callback keeps alive until the put is done.
  auto owned = std::make_shared<std::pair<message::MessageExt, std::string>>(std::move(msg), "");
  message::RecordFields fields = message::RecordFieldsFromMessageExt(owned->first, &owned->second);
  fields.queue_offset = 0;
  fields.physical_offset = 0;
  fields.store_timestamp = 0;
  fields.prepared_transaction_offset = 0;
  store::MessageStore* store = deps_.store;
  const int32_t max_size = settings->store.max_message_size;
  store->PutMessage(
      fields, /*wait_store_msg_ok=*/false,
      [owned, store, max_size, put_stats = BeginPut(deps_.stats, owned->first.topic),
       responder = std::move(responder)](const store::PutResult& result) {
        put_stats.Done(result);  // counted under the retry, schedule or %DLQ% topic it went to
        if (store::PutStatusStored(result.status)) {
          responder.SendCode(rc::kSuccess);
          return;
        }
        ResponseCodeAndRemark mapped =
            MapPutStatus(result.status, store->unwritable_reason(), max_size);
        responder.SendCode(
            rc::kSystemError,
            fmt::format("send back to {} failed: {}", owned->first.topic,
                        mapped.remark.empty() ? "store refused the message" : mapped.remark));
      });
}

}  // namespace apogee::broker
