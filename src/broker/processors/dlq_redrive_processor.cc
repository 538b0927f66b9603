#include "broker/processors/dlq_redrive_processor.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/permission.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "message/message_format.h"
#include "message/message_record.h"
#include "protocol/admin_headers.h"
#include "protocol/custom_header.h"
#include "protocol/mix_all.h"
#include "protocol/perm_name.h"
#include "protocol/response_code.h"
#include "protocol/topic_config.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace rc = protocol::response_code;
using protocol::RemotingCommand;

namespace {

constexpr int32_t kDlqQueueId = 0;  // Java's DLQ_NUMS_PER_GROUP = 1
constexpr int32_t kPageSize = 32;
constexpr int64_t kReadMaxBytes = 4 * 1024 * 1024;

// Properties that describe the failed delivery, not the message: dropped on the way back.
constexpr std::string_view kDeliveryProperties[] = {
    message::kPropertyRetryTopic,       message::kPropertyRealTopic,
    message::kPropertyRealQueueId,      message::kPropertyDelayTimeLevel,
    message::kPropertyReconsumeTime,    message::kPropertyMaxReconsumeTimes,
    message::kPropertyTimerOutMs,       message::kPropertyTimerDeliverMs,
    message::kPropertyTimerDelayMs,     message::kPropertyTimerDelaySec,
    message::kPropertyStartDeliverTime,
};

}  // namespace

DlqRedriveProcessor::DlqRedriveProcessor(const Deps& deps, message::HostAddress store_host)
    : deps_(deps), store_host_(std::move(store_host)) {}

void DlqRedriveProcessor::ProcessRequest(RemotingCommand request, remoting::Responder responder) {
  responder.Send(Redrive(request));
}

RemotingCommand DlqRedriveProcessor::Redrive(const RemotingCommand& request) {
  auto logger = GetLogger("dlq");
  auto answer = [&](int32_t code, std::string remark) {
    RemotingCommand response = RemotingCommand::MakeResponse(request, code, std::move(remark));
    return response;
  };
  Result<protocol::RedriveDlqMessageRequestHeader> header =
      protocol::DecodeCustomHeader<protocol::RedriveDlqMessageRequestHeader>(request);
  if (!header.ok()) return answer(rc::kSystemError, header.status().message());
  const std::shared_ptr<const BrokerSettings> settings = deps_.config->Get();
  if (!protocol::IsWriteable(settings->broker_permission) ||
      settings->store.role() == store::BrokerRole::kSlave) {
    return answer(
        rc::kNoPermission,
        fmt::format("the broker[{}] is not writable (brokerPermission {}, role {}): "
                    "redrive the DLQ on a writable master",
                    settings->broker_ip1, protocol::PermToString(settings->broker_permission),
                    settings->store.broker_role));
  }
  const std::string& group = header->consumer_group;
  if (group.empty()) {
    // A request without extFields passes the decoder's required checks.
    return answer(rc::kSystemError, "the custom field consumerGroup is null");
  }
  const std::string dlq = protocol::DlqTopic(group);
  // Never auto-creates the group: a typo must not answer "0 redriven" as if all was well.
  if (!deps_.groups->ContainsSubscriptionGroup(group) &&
      !deps_.topics->ContainsTopic(dlq)) {
    return answer(rc::kSubscriptionGroupNotExist,
                  fmt::format("subscription group not exist, {}", group));
  }
  if (header->max_count && *header->max_count <= 0) {
    return answer(rc::kSystemError,
                  fmt::format("maxCount must be positive, got {}", *header->max_count));
  }

  std::lock_guard<std::mutex> lock(mu_);
  store::MessageStore* store = deps_.store;
  ConsumerOffsetManager* offsets = deps_.offsets;
  int64_t offset = offsets->QueryOffset(kDlqRedriveConsumerGroup, dlq, kDlqQueueId);
  const int64_t min_offset = store->GetMinOffsetInQueue(dlq, kDlqQueueId);
  if (offset < min_offset) offset = min_offset;
  const int64_t max_offset = store->GetMaxOffsetInQueue(dlq, kDlqQueueId);
  const int64_t limit = header->max_count.value_or(INT32_MAX);

  protocol::RedriveDlqMessageResponseHeader counts;
  std::string stop_reason;
  int64_t looked = 0;
  while (offset < max_offset && looked < limit && stop_reason.empty()) {
    const int32_t page = static_cast<int32_t>(std::min<int64_t>(kPageSize, limit - looked));
    store::GetMessageResult got = store->GetMessages(dlq, kDlqQueueId, offset, page, kReadMaxBytes);
    if (got.status == store::GetStatus::kOffsetTooSmall) {
      offset = got.next_begin_offset;
      continue;
    }
    if (got.status != store::GetStatus::kFound || got.messages.empty()) break;
    for (const store::MessageRef& ref : got.messages) {
      message::RecordDecodeResult decoded = message::DecodeRecord(ref.data, ref.size);
      Result<message::MessageExt> msg =
          decoded.status == message::RecordStatus::kMessage
              ? message::ToMessageExt(decoded.record, /*decompress=*/false)
              : Result<message::MessageExt>(Status::Corruption(decoded.reason));
      ++looked;
      if (!msg.ok()) {
        logger->error("{} offset {}: unreadable record ({}), skipped", dlq, ref.queue_offset,
                      msg.status().message());
        ++counts.failed;
        offset = ref.queue_offset + 1;
        continue;
      }
      std::string original(msg->properties.Get(message::kPropertyRetryTopic).value_or(""));
      if (original.empty()) {
        original = std::string(msg->properties.Get(message::kPropertyRealTopic).value_or(""));
      }
      if (header->topic && original != *header->topic) {
        ++counts.skipped;
        offset = ref.queue_offset + 1;
        continue;
      }
      std::optional<protocol::TopicConfig> topic_config =
          original.empty() ? std::nullopt
                           : deps_.topics->SelectTopicConfig(original);
      if (!topic_config || topic_config->write_queue_nums <= 0) {
        logger->error("{} offset {} (msgId {}): original topic '{}' {}; not redriven", dlq,
                      ref.queue_offset, msg->msg_id(), original,
                      original.empty() ? "unknown (no RETRY_TOPIC/REAL_TOPIC)"
                                       : "does not exist on this broker");
        ++counts.failed;
        offset = ref.queue_offset + 1;
        continue;
      }
      message::MessageExt back = *msg;
      back.topic = original;
      back.queue_id =
          static_cast<int32_t>(round_robin_++ % static_cast<uint64_t>(topic_config->write_queue_nums));
      back.reconsume_times = 0;
      back.sys_flag &= ~message::kTransactionTypeMask;
      for (std::string_view key : kDeliveryProperties) back.properties.Erase(key);
      if (!back.properties.Has(message::kPropertyOriginMessageId)) {
        (void)back.properties.Set(message::kPropertyOriginMessageId, msg->offset_msg_id);
      }
      (void)back.properties.Set(message::kPropertyWaitStoreMsgOk, "false");
      std::string properties;
      message::RecordFields fields = message::RecordFieldsFromMessageExt(back, &properties);
      fields.store_host = store_host_;
      store::PutResult put = store->PutMessage(fields, /*wait_store_msg_ok=*/false).get();
      if (!store::PutStatusStored(put.status)) {
        // The store refuses writes: stop before this message so that a later redrive
        // picks it up again.
        --looked;
        stop_reason = fmt::format("put into {} refused ({}, {}) at {} offset {}", original,
                                  store::PutStatusName(put.status), store->unwritable_reason(),
                                  dlq, ref.queue_offset);
        break;
      }
      ++counts.redriven;
      offset = ref.queue_offset + 1;
    }
  }

  offsets->CommitOffset(kDlqRedriveConsumerGroup, dlq, kDlqQueueId, offset);
  counts.next_offset = offset;
  logger->info("redrive of {}: {} redriven, {} failed, {} skipped, next offset {}{}", dlq,
               counts.redriven, counts.failed, counts.skipped, offset,
               stop_reason.empty() ? "" : "; stopped: " + stop_reason);
  RemotingCommand response = stop_reason.empty() ? answer(rc::kSuccess, "")
                                                 : answer(rc::kSystemError, stop_reason);
  if (stop_reason.empty()) response.remark.reset();
  protocol::EncodeCustomHeader(counts, &response);
  return response;
}

}  // namespace apogee::broker
