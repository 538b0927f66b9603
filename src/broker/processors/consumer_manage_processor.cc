#include "broker/processors/consumer_manage_processor.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "broker/broker_config.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;

namespace {

RemotingCommand Reply(const RemotingCommand& request, int32_t code, std::string remark = "") {
  RemotingCommand response = RemotingCommand::MakeResponse(request, code);
  if (!remark.empty()) response.remark = std::move(remark);
  return response;
}

RemotingCommand Malformed(const RemotingCommand& request, const Status& status) {
  return Reply(request, rc::kSystemError,
               fmt::format("malformed {} request header: {}", protocol::request_code::Name(request.code),
                           status.message()));
}

RemotingCommand BadQueueId(const RemotingCommand& request, std::string_view topic,
                           int32_t queue_id) {
  return Reply(request, rc::kInvalidParameter,
               fmt::format("queueId[{}] is illegal for topic {}: queue ids start at 0", queue_id,
                           topic));
}

template <typename H>
RemotingCommand Answer(const RemotingCommand& request, const H& header) {
  RemotingCommand response = RemotingCommand::MakeResponse(request, rc::kSuccess);
  protocol::EncodeCustomHeader(header, &response);
  return response;
}

}  // namespace

ConsumerManageProcessor::ConsumerManageProcessor(const Deps& deps) : deps_(deps) {}

void ConsumerManageProcessor::ProcessRequest(RemotingCommand request, remoting::Responder responder) {
  RemotingCommand response;
  switch (request.code) {
    case req::kQueryConsumerOffset:
      response = QueryConsumerOffset(request);
      break;
    case req::kUpdateConsumerOffset:
      response = UpdateConsumerOffset(request);
      break;
    case req::kSearchOffsetByTimestamp:
      response = SearchOffsetByTimestamp(request);
      break;
    case req::kGetMaxOffset:
      response = GetMaxOffset(request);
      break;
    case req::kGetMinOffset:
      response = GetMinOffset(request);
      break;
    case req::kGetEarliestMsgStoretime:
      response = GetEarliestMsgStoretime(request);
      break;
    default:
      response = Reply(request, rc::kRequestCodeNotSupported,
                       fmt::format(" request type {} not supported", request.code));
      break;
  }
  responder.Send(std::move(response));
}

bool ConsumerManageProcessor::FirstMessageInMemory(std::string_view topic, int32_t queue_id) const {
  const store::MessageStore& store = *deps_.store;
  if (store.GetMaxOffsetInQueue(topic, queue_id) <= 0) return true;
  const int64_t phy = store.GetCommitLogOffsetInQueue(topic, queue_id, 0);
  if (phy < 0) return false;
  return !store.CheckInDiskByCommitOffset(phy);
}

RemotingCommand ConsumerManageProcessor::QueryConsumerOffset(const RemotingCommand& request) {
  Result<protocol::QueryConsumerOffsetRequestHeader> header =
      protocol::DecodeCustomHeader<protocol::QueryConsumerOffsetRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  if (header->queue_id < 0) return BadQueueId(request, header->topic, header->queue_id);

  protocol::QueryConsumerOffsetResponseHeader answer;
  const int64_t offset = deps_.offsets->QueryOffset(
      header->consumer_group, header->topic, header->queue_id);
  if (offset >= 0) {
    answer.offset = offset;
    return Answer(request, answer);
  }
  // 5.x clients may ask not to be given 0 for a group without an offset.
  const bool zero_allowed = header->set_zero_if_not_found.value_or(true);
  const int64_t min_offset =
      deps_.store->GetMinOffsetInQueue(header->topic, header->queue_id);
  if (zero_allowed && min_offset <= 0 && FirstMessageInMemory(header->topic, header->queue_id)) {
    answer.offset = 0;
    return Answer(request, answer);
  }
  return Reply(request, rc::kQueryNotFound,
               fmt::format("Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first "
                           "(group {} has no offset for {}:{}; the consumer applies its "
                           "consumeFromWhere)",
                           header->consumer_group, header->topic, header->queue_id));
}

RemotingCommand ConsumerManageProcessor::UpdateConsumerOffset(const RemotingCommand& request) {
  Result<protocol::UpdateConsumerOffsetRequestHeader> header =
      protocol::DecodeCustomHeader<protocol::UpdateConsumerOffsetRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  // Find, not Contains: a group that may be auto-created is created here as on a pull.
  if (!deps_.groups->FindSubscriptionGroupConfig(header->consumer_group)) {
    return Reply(request, rc::kSubscriptionGroupNotExist,
                 fmt::format("subscription group {} does not exist (autoCreateSubscriptionGroup "
                             "is off); its offset of {}:{} was not stored",
                             header->consumer_group, header->topic, header->queue_id));
  }
  std::optional<protocol::TopicConfig> topic =
      deps_.topics->SelectTopicConfig(header->topic);
  if (!topic) {
    return Reply(request, rc::kTopicNotExist,
                 fmt::format("topic {} does not exist; the offset of group {} was not stored",
                             header->topic, header->consumer_group));
  }
  if (header->queue_id < 0) return BadQueueId(request, header->topic, header->queue_id);
  // Every offset stored is a line of consumerOffset.json: a queue the topic does not have
  // is refused, as the pull path refuses it.
  const int32_t queues = std::max(topic->read_queue_nums, topic->write_queue_nums);
  if (header->queue_id >= queues) {
    return Reply(request, rc::kInvalidParameter,
                 fmt::format("queueId[{}] is illegal for topic {}: it has {} queues; the offset "
                             "of group {} was not stored",
                             header->queue_id, header->topic, queues, header->consumer_group));
  }
  // -1 is what clients send for "no offset yet" (ali-ons persists it so); anything lower
  // is not an offset.
  if (header->commit_offset < -1) {
    return Reply(request, rc::kInvalidParameter,
                 fmt::format("commitOffset {} is not a queue offset (>= 0, or -1 for none); the "
                             "offset of group {} on {}:{} was not stored",
                             header->commit_offset, header->consumer_group, header->topic,
                             header->queue_id));
  }
  deps_.offsets->CommitOffset(header->consumer_group, header->topic,
                                                  header->queue_id, header->commit_offset);
  return Reply(request, rc::kSuccess);
}

RemotingCommand ConsumerManageProcessor::SearchOffsetByTimestamp(const RemotingCommand& request) {
  Result<protocol::SearchOffsetRequestHeader> header =
      protocol::DecodeCustomHeader<protocol::SearchOffsetRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  if (header->queue_id < 0) return BadQueueId(request, header->topic, header->queue_id);
  protocol::SearchOffsetResponseHeader answer;
  answer.offset = deps_.store->GetOffsetInQueueByTime(header->topic, header->queue_id,
                                                          header->timestamp);
  return Answer(request, answer);
}

RemotingCommand ConsumerManageProcessor::GetMaxOffset(const RemotingCommand& request) {
  Result<protocol::GetMaxOffsetRequestHeader> header =
      protocol::DecodeCustomHeader<protocol::GetMaxOffsetRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  if (header->queue_id < 0) return BadQueueId(request, header->topic, header->queue_id);
  protocol::GetMaxOffsetResponseHeader answer;
  answer.offset = deps_.store->GetMaxOffsetInQueue(header->topic, header->queue_id);
  return Answer(request, answer);
}

RemotingCommand ConsumerManageProcessor::GetMinOffset(const RemotingCommand& request) {
  Result<protocol::GetMinOffsetRequestHeader> header =
      protocol::DecodeCustomHeader<protocol::GetMinOffsetRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  if (header->queue_id < 0) return BadQueueId(request, header->topic, header->queue_id);
  protocol::GetMinOffsetResponseHeader answer;
  answer.offset = deps_.store->GetMinOffsetInQueue(header->topic, header->queue_id);
  return Answer(request, answer);
}

RemotingCommand ConsumerManageProcessor::GetEarliestMsgStoretime(const RemotingCommand& request) {
  Result<protocol::GetEarliestMsgStoretimeRequestHeader> header =
      protocol::DecodeCustomHeader<protocol::GetEarliestMsgStoretimeRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());
  if (header->queue_id < 0) return BadQueueId(request, header->topic, header->queue_id);
  protocol::GetEarliestMsgStoretimeResponseHeader answer;
  answer.timestamp = deps_.store->GetEarliestMessageTime(header->topic, header->queue_id);
  return Answer(request, answer);
}

}  // namespace apogee::broker
