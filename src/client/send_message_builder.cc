#include "client/send_message_builder.h"

#include <fmt/format.h>

#include <string_view>

#include "client/message_convert.h"
#include "message/batch.h"
#include "message/compression.h"
#include "message/message_format.h"
#include "protocol/mix_all.h"
#include "protocol/system_topics.h"

namespace apogee::client {

namespace {

bool ValidTopicChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '%' ||
         c == '|' || c == '_' || c == '-';
}

Status CheckTopic(const std::string& topic) {
  if (topic.empty()) return Status::InvalidArgument("the specified topic is blank");
  if (topic.size() > protocol::kTopicMaxLength) {
    return Status::InvalidArgument(
        fmt::format("the specified topic {} is longer than topic max length {}", topic,
                    protocol::kTopicMaxLength));
  }
  for (char c : topic) {
    if (!ValidTopicChar(c)) {
      return Status::InvalidArgument(fmt::format(
          "the specified topic {} contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$",
          topic));
    }
  }
  if (protocol::IsNotAllowedSendTopic(topic)) {
    return Status::InvalidArgument(fmt::format("sending message to topic {} is forbidden", topic));
  }
  return Status::OK();
}

}  // namespace

Status CheckMessage(const Message& msg, int32_t max_message_size) {
  APOGEE_RETURN_IF_ERROR(CheckTopic(msg.topic()));
  if (msg.body().empty()) {
    return Status::InvalidArgument(fmt::format("the message body length is zero (topic {})", msg.topic()));
  }
  if (msg.body().size() > static_cast<size_t>(max_message_size)) {
    return Status::InvalidArgument(
        fmt::format("the message body size {} over max value, MAX: {} (topic {})", msg.body().size(),
                    max_message_size, msg.topic()));
  }
  return Status::OK();
}

Result<PreparedMessage> PrepareMessage(const Message& msg, const ProducerConfig& config,
                                       message::UniqKeyGenerator& ids) {
  PreparedMessage prepared;
  APOGEE_RETURN_IF_ERROR(PrepareMessageInto(msg, config, ids, &prepared));
  return prepared;
}

Status PrepareMessageInto(const Message& msg, const ProducerConfig& config,
                          message::UniqKeyGenerator& ids, PreparedMessage* out) {
  APOGEE_RETURN_IF_ERROR(CheckMessage(msg, config.max_message_size));
  // The body is read in place: copied once, into `out` (or compressed from here).
  APOGEE_ASSIGN_OR_RETURN(message::MessageProperties properties, ToWireProperties(msg));
  out->topic = msg.topic();
  out->flag = msg.flag();
  out->sys_flag = 0;
  out->batch = false;
  out->reconsume_times.reset();
  out->max_reconsume_times.reset();
  std::optional<std::string_view> uniq =
      properties.Get(message::kPropertyUniqClientMessageIdKeyIdx);
  // A new UNIQ_KEY is not set in the map: a new key goes last, and erasing others keeps the
  // order, so it is appended to the encoded text below (the same bytes, without its pair).
  const bool append_uniq = !uniq;
  if (uniq) {
    out->client_msg_id.assign(*uniq);
  } else {
    ids.NextTo(&out->client_msg_id);  // hex digits: never a separator
  }
  if (protocol::IsRetryTopic(msg.topic())) {
    if (auto times = properties.Get(message::kPropertyReconsumeTime)) {
      out->reconsume_times = std::atoi(std::string(*times).c_str());
      properties.Erase(message::kPropertyReconsumeTime);
    }
    if (auto max = properties.Get(message::kPropertyMaxReconsumeTimes)) {
      out->max_reconsume_times = std::atoi(std::string(*max).c_str());
      properties.Erase(message::kPropertyMaxReconsumeTimes);
    }
  }
  bool compressed = false;
  if (config.compress_msg_body_over_howmuch > 0 &&
      msg.body().size() >= static_cast<size_t>(config.compress_msg_body_over_howmuch)) {
    Result<std::string> zipped = message::CompressBody(msg.body(), config.compress_level);
    if (zipped.ok()) {
      out->body = std::move(zipped).value();
      out->sys_flag = message::MarkZlibCompressed(out->sys_flag);
      compressed = true;
    }  // else sent uncompressed, as Java does when compression fails
  }
  if (!compressed) out->body.assign(msg.body());
  std::optional<std::string_view> tran = properties.Get(message::kPropertyTransactionPrepared);
  if (tran && *tran == "true") out->sys_flag |= message::kTransactionPreparedType;
  const std::string_view uniq_key = message::kPropertyUniqClientMessageIdKeyIdx;
  out->properties.clear();
  out->properties.reserve(properties.EncodedSize() +
                          (append_uniq ? uniq_key.size() + out->client_msg_id.size() + 2 : 0));
  properties.EncodeTo(&out->properties);
  if (append_uniq) {
    out->properties.append(uniq_key);
    out->properties.push_back(message::kNameValueSeparator);
    out->properties.append(out->client_msg_id);
    out->properties.push_back(message::kPropertySeparator);
  }
  return Status::OK();
}

Result<PreparedMessage> PrepareBatch(const std::vector<Message>& msgs, const ProducerConfig& config,
                                     message::UniqKeyGenerator& ids) {
  if (msgs.empty()) return Status::InvalidArgument("the batch has no message");
  const Message& first = msgs.front();
  std::vector<message::Message> wires;
  wires.reserve(msgs.size());
  std::string ids_joined;
  for (size_t i = 0; i < msgs.size(); ++i) {
    const Message& msg = msgs[i];
    if (msg.delay_time_level() > 0) {
      return Status::InvalidArgument(
          fmt::format("TimeDelayLevel is not supported for batching (message {})", i));
    }
    if (protocol::IsRetryTopic(msg.topic())) {
      return Status::InvalidArgument("Retry Group is not supported for batching");
    }
    if (msg.topic() != first.topic()) {
      return Status::InvalidArgument(fmt::format(
          "The topic of the messages in one batch should be the same: {} vs {} (message {})",
          first.topic(), msg.topic(), i));
    }
    if (msg.wait_store_msg_ok() != first.wait_store_msg_ok()) {
      return Status::InvalidArgument(fmt::format(
          "The waitStoreMsgOK of the messages in one batch should be the same (message {})", i));
    }
    Status checked = CheckMessage(msg, config.max_message_size);
    if (!checked.ok()) return checked.Prefixed(fmt::format("batch message {}", i));
    APOGEE_ASSIGN_OR_RETURN(message::Message wire, ToWireMessage(msg));
    std::string id;
    if (auto uniq = wire.properties.Get(message::kPropertyUniqClientMessageIdKeyIdx)) {
      id = std::string(*uniq);
    } else {
      id = ids.Next();
      APOGEE_RETURN_IF_ERROR(wire.properties.Set(message::kPropertyUniqClientMessageIdKeyIdx, id));
    }
    if (!ids_joined.empty()) ids_joined += ',';
    ids_joined += id;
    wires.push_back(std::move(wire));
  }
  PreparedMessage prepared;
  prepared.topic = first.topic();
  prepared.batch = true;
  prepared.client_msg_id = std::move(ids_joined);
  APOGEE_ASSIGN_OR_RETURN(prepared.body, message::EncodeBatchBody(wires));
  if (prepared.body.size() > static_cast<size_t>(config.max_message_size)) {
    return Status::InvalidArgument(fmt::format("the batch body size {} over max value, MAX: {}",
                                               prepared.body.size(), config.max_message_size));
  }
  message::MessageProperties batch_properties;
  APOGEE_RETURN_IF_ERROR(batch_properties.Set(message::kPropertyWaitStoreMsgOk,
                                              first.wait_store_msg_ok() ? "true" : "false"));
  prepared.properties = batch_properties.Encode();
  return prepared;
}

namespace {

// Both BuildSendHeader: `Prepared` is PreparedMessage const& (copies) or PreparedMessage (moves).
// Every field is set, so a reused header carries nothing of its last send.
template <typename Prepared>
void SetSendHeader(Prepared&& prepared, const ProducerConfig& config, const MessageQueue& mq,
                   int64_t now_ms, protocol::SendMessageRequestHeader* header) {
  header->producer_group = config.group_name;
  header->topic = std::forward<Prepared>(prepared).topic;
  header->default_topic = config.create_topic_key;
  header->default_topic_queue_nums = config.default_topic_queue_nums;
  header->sys_flag = prepared.sys_flag;
  header->flag = prepared.flag;
  header->properties = std::forward<Prepared>(prepared).properties;
  header->reconsume_times = prepared.reconsume_times.value_or(0);
  header->unit_mode = config.unit_mode;
  header->batch = prepared.batch;
  header->max_reconsume_times = prepared.max_reconsume_times;
  SetSendAttempt(mq, now_ms, header);
}

template <typename Prepared>
protocol::SendMessageRequestHeader MakeSendHeader(Prepared&& prepared, const ProducerConfig& config,
                                                  const MessageQueue& mq, int64_t now_ms) {
  protocol::SendMessageRequestHeader header;
  SetSendHeader(std::forward<Prepared>(prepared), config, mq, now_ms, &header);
  return header;
}

}  // namespace

protocol::SendMessageRequestHeader BuildSendHeader(const PreparedMessage& prepared,
                                                   const ProducerConfig& config,
                                                   const MessageQueue& mq, int64_t now_ms) {
  return MakeSendHeader(prepared, config, mq, now_ms);
}

protocol::SendMessageRequestHeader BuildSendHeader(PreparedMessage&& prepared,
                                                   const ProducerConfig& config,
                                                   const MessageQueue& mq, int64_t now_ms) {
  return MakeSendHeader(std::move(prepared), config, mq, now_ms);
}

void FillSendHeader(const PreparedMessage& prepared, const ProducerConfig& config,
                    const MessageQueue& mq, int64_t now_ms,
                    protocol::SendMessageRequestHeader* header) {
  SetSendHeader(prepared, config, mq, now_ms, header);
}

void SetSendAttempt(const MessageQueue& mq, int64_t now_ms,
                    protocol::SendMessageRequestHeader* header) {
  header->queue_id = mq.queue_id();
  header->born_timestamp = now_ms;
  header->broker_name = mq.broker_name();
}

bool IsRetriableSendError(const Status& status) {
  switch (status.code()) {
    case StatusCode::kUnavailable:       // connection errors, SERVICE_NOT_AVAILABLE, GO_AWAY
    case StatusCode::kTimeout:           // request timed out
    case StatusCode::kNotFound:          // TOPIC_NOT_EXIST, no broker address
    case StatusCode::kInternal:          // SYSTEM_ERROR
    case StatusCode::kBusy:              // SYSTEM_BUSY
    case StatusCode::kPermissionDenied:  // NO_PERMISSION
      return true;
    default:
      return false;
  }
}

}  // namespace apogee::client
