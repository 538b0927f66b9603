#include "broker/processors/send_message_processor.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <random>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/logging.h"
#include "base/strong_types.h"
#include "broker/broker_config.h"
#include "broker/permission.h"
#include "broker/processors/plain_properties.h"
#include "broker/schedule/message_redirect.h"
#include "broker/stats/broker_stats_manager.h"
#include "broker/store_status_mapping.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "message/batch.h"
#include "message/message_format.h"
#include "message/message_id.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "message/uniq_key.h"
#include "protocol/custom_header.h"
#include "protocol/kept_buffers.h"
#include "protocol/mix_all.h"
#include "protocol/perm_name.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "protocol/system_topics.h"
#include "protocol/topic_config.h"
#include "protocol/topic_sys_flag.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace rc = protocol::response_code;
using protocol::RemotingCommand;

namespace {

// A master that cannot prove its etcd lease alive answers a retriable code, stored or not:
// a newer master may already be acknowledging in the next epoch.
ResponseCodeAndRemark FencedAnswer() {
  return {rc::kServiceNotAvailable,
          "service not available now: this master is fenced (its etcd lease could not be "
          "renewed in time; a new master may be elected); retry"};
}

// Extra response extFields Java's preSend always adds.
constexpr std::string_view kMsgRegion = "MSG_REGION";
constexpr std::string_view kTraceOn = "TRACE_ON";
// MQVersion V3_4_9: from this request version on, the header's maxReconsumeTimes counts.
constexpr int32_t kVersionHonoursMaxReconsumeTimes = 121;
// Every sysFlag bit a client may set: compression (and its type), multi tags, the
// transaction type, IPv6 hosts, 5.x's unwrap and inner-batch bits.
constexpr int32_t kClientSysFlagBits = message::kCompressedFlag | message::kMultiTagsFlag |
                                       message::kTransactionTypeMask | message::kBornHostV6Flag |
                                       message::kStoreHostV6Flag | message::kNeedUnwrapFlag |
                                       message::kInnerBatchFlag | message::kCompressionTypeMask;

// A sysFlag the store would keep but never deliver is refused: negative or unknown bits,
// or the ROLLBACK type (only END_TRANSACTION may roll back; such a record is never
// dispatched, so acknowledging it would lose it).
Status ValidateSysFlag(int32_t sys_flag) {
  if (sys_flag < 0 || (sys_flag & ~kClientSysFlagBits) != 0) {
    return Status::InvalidArgument(
        fmt::format("sysFlag {} has bits a message may not carry (allowed: 0x{:x})", sys_flag,
                    kClientSysFlagBits));
  }
  if ((sys_flag & message::kTransactionTypeMask) == message::kTransactionRollbackType) {
    return Status::InvalidArgument(fmt::format(
        "sysFlag {} marks a rolled-back transaction message; roll back with END_TRANSACTION",
        sys_flag));
  }
  return Status::OK();
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

void Refuse(RemotingCommand* response, int32_t code, std::string remark) {
  response->code = code;
  response->remark = std::move(remark);
}

int32_t RandomQueueId(int32_t write_queue_nums) {
  if (write_queue_nums <= 0) return 0;
  thread_local std::mt19937 rng(std::random_device{}());
  return static_cast<int32_t>(rng() % static_cast<uint32_t>(write_queue_nums));
}

// Java's MessageExt.isWaitStoreMsgOK: absent means true, else Boolean.parseBoolean.
// The WAIT property's value: absent means wait.
bool WaitStoreMsgOk(std::optional<std::string_view> wait) {
  if (!wait) return true;
  std::string lower(*wait);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "true";
}

std::string_view PropertiesText(const protocol::SendMessageRequestHeader& header) {
  return header.properties ? std::string_view(*header.properties) : std::string_view();
}

// The UNIQ_KEY an answer names as its transactionId, held by the put's completion: inline
// when it has the usual length (32 hex characters), so that holding it allocates nothing.
class AnswerKey {
 public:
  explicit AnswerKey(std::string_view key) {
    if (key.size() <= kInline) {
      size_ = key.copy(inline_.data(), key.size());
    } else {
      spilled_.assign(key);
    }
  }
  std::string_view view() const {
    return spilled_.empty() ? std::string_view(inline_.data(), size_) : std::string_view(spilled_);
  }

 private:
  static constexpr size_t kInline = 48;
  std::array<char, kInline> inline_{};
  size_t size_ = 0;
  std::string spilled_;
};

void FillStoredHeader(std::string_view msg_id, int32_t queue_id, int64_t queue_offset,
                      std::string_view transaction_id, RemotingCommand* response) {
  protocol::SendMessageResponseHeaderView header;
  header.msg_id = msg_id;
  header.queue_id = queue_id;
  header.queue_offset = queue_offset;
  header.transaction_id = transaction_id;
  protocol::EncodeCustomHeaderToSend(header, response);
}

}  // namespace

struct SendMessageProcessor::Target {
  protocol::TopicConfig topic_config;
  std::string topic;  // where the message goes (a %DLQ% topic after too many retries)
  int32_t queue_id = 0;
};

SendMessageProcessor::SendMessageProcessor(Deps deps) : deps_(std::move(deps)) {
  Result<message::HostAddress> host = message::HostAddress::Parse(deps_.broker_addr);
  if (host.ok()) {
    store_host_ = *host;
  } else {
    // msgIds must name a reachable broker (pitfall 9); fall back loudly.
    const auto settings = deps_.config->Get();
    GetLogger("broker")->error("broker address '{}' is not ip:port ({}); msgIds use 127.0.0.1:{}",
                               deps_.broker_addr, host.status().ToString(),
                               settings->listen_port);
    store_host_ = message::HostAddress::IPv4(127, 0, 0, 1, settings->listen_port);
  }
  // The store refused to open with a bad table, so this parses; an empty table (no
  // level) would only disable the DELAY redirect.
  Result<store::DelayLevelTable> levels =
      store::DelayLevelTable::Parse(deps_.config->Get()->store.message_delay_level);
  if (levels.ok()) delay_levels_ = std::move(*levels);
  uniq_keys_ = std::make_unique<message::UniqKeyGenerator>(
      store_host_, static_cast<int32_t>(getpid()),
      static_cast<int32_t>(reinterpret_cast<uintptr_t>(this)));
}

SendMessageProcessor::~SendMessageProcessor() = default;

message::HostAddress SendMessageProcessor::BornHost(const remoting::Responder& responder) const {
  if (responder.channel()) {
    Result<message::HostAddress> born =
        message::HostAddress::Parse(responder.channel()->RemoteAddress());
    if (born.ok()) return *born;
  }
  return message::HostAddress::IPv4(0, 0, 0, 0, 0);
}

void SendMessageProcessor::ProcessRequest(RemotingCommand request, remoting::Responder responder) {
  Result<protocol::SendMessageRequestHeader> header =
      protocol::TakeSendMessageRequestHeader(&request);
  Serve(request, header, std::move(responder));
  // Served: the put copied the body into the CommitLog (a put still waiting for the disk or
  // a slave holds only its answer), so the request's buffers go back to this thread for the
  // next request it decodes (protocol/kept_buffers.h).
  if (header.ok()) {
    if (header->properties) protocol::KeepText(&*header->properties);
    protocol::KeepText(&header->producer_group);
    protocol::KeepText(&header->topic);
    protocol::KeepText(&header->default_topic);
  }
  protocol::RecycleCommand(&request);
}

void SendMessageProcessor::Serve(const RemotingCommand& request,
                                 const Result<protocol::SendMessageRequestHeader>& header,
                                 remoting::Responder responder) {
  const std::shared_ptr<const BrokerSettings> settings = deps_.config->Get();
  RemotingCommand response = RemotingCommand::MakeResponse(request, rc::kSystemError);
  protocol::AddExtFieldToSend(kMsgRegion, settings->region_id, &response);
  protocol::AddExtFieldToSend(kTraceOn, settings->trace_on ? "true" : "false", &response);

  if (!header.ok()) {
    Refuse(&response, rc::kSystemError,
           fmt::format("malformed send request header (code {}): {}", request.code,
                       header.status().message()));
    responder.Send(std::move(response));
    return;
  }
  if (!MayAcknowledge()) {
    ResponseCodeAndRemark fenced = FencedAnswer();
    Refuse(&response, fenced.code, std::move(fenced.remark));
    responder.Send(std::move(response));
    return;
  }
  Target target;
  if (!CheckAndResolve(*settings, request, responder, *header, &response, &target)) {
    responder.Send(std::move(response));
    return;
  }
  if (header->batch) {
    SendBatch(*settings, request, *header, std::move(target), std::move(response),
              std::move(responder));
  } else {
    SendSingle(*settings, request, *header, std::move(target), std::move(response),
               std::move(responder));
  }
}

bool SendMessageProcessor::CheckAndResolve(const BrokerSettings& settings,
                                           const RemotingCommand& request,
                                           const remoting::Responder& responder,
                                           const protocol::SendMessageRequestHeader& header,
                                           RemotingCommand* response, Target* target) {
  (void)request;
  const std::string& topic = header.topic;
  TopicConfigManager& topics = *deps_.topics;
  if (!protocol::IsWriteable(settings.broker_permission) && topics.IsOrderTopic(topic)) {
    Refuse(response, rc::kNoPermission,
           fmt::format("the broker[{}] sending message is forbidden", settings.broker_ip1));
    return false;
  }
  Status valid = ValidateMessageTopicName(topic);
  if (!valid.ok()) {
    Refuse(response, rc::kInvalidParameter, std::string(valid.message()));
    return false;
  }
  if (protocol::IsNotAllowedSendTopic(topic)) {
    // Java's remark and code (TopicValidator.isNotAllowedSendTopic).
    Refuse(response, rc::kNoPermission,
           fmt::format("Sending message to topic[{}] is forbidden.", topic));
    return false;
  }
  Status sys_flag = ValidateSysFlag(header.sys_flag);
  if (!sys_flag.ok()) {
    Refuse(response, rc::kMessageIllegal, std::string(sys_flag.message()));
    return false;
  }

  std::optional<protocol::TopicConfig> config = topics.SelectTopicConfig(topic);
  if (!config) {
    int32_t topic_sys_flag = 0;
    if (header.unit_mode) {
      topic_sys_flag = StartsWith(topic, protocol::kRetryGroupTopicPrefix)
                           ? protocol::kTopicSysFlagUnitSub
                           : protocol::kTopicSysFlagUnit;
    }
    const std::string remote = responder.channel() ? responder.channel()->RemoteAddress() : "";
    Result<protocol::TopicConfig> created = topics.CreateTopicInSendMessageMethod(
        topic, header.default_topic, remote, header.default_topic_queue_nums, topic_sys_flag);
    if (!created.ok() && StartsWith(topic, protocol::kRetryGroupTopicPrefix)) {
      created = topics.CreateTopicInSendMessageBackMethod(
          topic, 1, protocol::kPermRead | protocol::kPermWrite, false, topic_sys_flag);
    }
    if (!created.ok()) {
      Refuse(response, rc::kTopicNotExist,
             fmt::format("topic[{}] not exist, apply first please! ({})", topic,
                         created.status().message()));
      return false;
    }
    config = std::move(*created);
  }
  Status perm = CheckSendPermission(settings, *config);
  if (!perm.ok()) {
    Refuse(response, rc::kNoPermission, std::string(perm.message()));
    return false;
  }
  const int32_t valid_ids = std::max(config->read_queue_nums, config->write_queue_nums);
  if (header.queue_id >= valid_ids) {
    Refuse(response, rc::kInvalidParameter,
           fmt::format("request queueId[{}] is illegal: topic {} has {} queues "
                       "(readQueueNums {}, writeQueueNums {}), producer group {}",
                       header.queue_id, topic, valid_ids, config->read_queue_nums,
                       config->write_queue_nums, header.producer_group));
    return false;
  }
  target->topic = topic;
  target->queue_id =
      header.queue_id < 0 ? RandomQueueId(config->write_queue_nums) : header.queue_id;
  target->topic_config = std::move(*config);
  return true;
}

void SendMessageProcessor::SendSingle(const BrokerSettings& settings,
                                      const RemotingCommand& request,
                                      const protocol::SendMessageRequestHeader& header,
                                      Target target, RemotingCommand response,
                                      remoting::Responder responder) {
  const int32_t max_size = settings.store.max_message_size;
  if (request.body.size() > static_cast<size_t>(max_size)) {
    Refuse(&response, rc::kMessageIllegal,
           fmt::format("message body of {} bytes exceeds the broker's maxMessageSize of {} bytes",
                       request.body.size(), max_size));
    responder.Send(std::move(response));
    return;
  }

  // %RETRY%<group>: the group must exist; too many reconsumes go to %DLQ%<group>
  // (Java's handleRetryAndDLQ).
  bool to_dlq = false;
  if (StartsWith(target.topic, protocol::kRetryGroupTopicPrefix)) {
    const std::string group = target.topic.substr(protocol::kRetryGroupTopicPrefix.size());
    std::optional<SubscriptionGroupConfig> group_config =
        deps_.groups->FindSubscriptionGroupConfig(group);
    if (!group_config) {
      Refuse(&response, rc::kSubscriptionGroupNotExist,
             fmt::format("subscription group not exist, {} (retry topic {})", group, target.topic));
      responder.Send(std::move(response));
      return;
    }
    int32_t max_reconsume = group_config->retry_max_times;
    if (request.version >= kVersionHonoursMaxReconsumeTimes && header.max_reconsume_times) {
      max_reconsume = *header.max_reconsume_times;
    }
    if (header.reconsume_times.value_or(0) >= max_reconsume) {
      const std::string dlq = protocol::DlqTopic(group);
      Result<protocol::TopicConfig> dlq_config =
          deps_.topics->CreateTopicInSendMessageBackMethod(
              dlq, protocol::kDlqNumsPerGroup, protocol::kPermWrite, false, 0);
      if (!dlq_config.ok()) {
        Refuse(&response, rc::kSystemError,
               fmt::format("topic[{}] not exist: {}", dlq, dlq_config.status().message()));
        responder.Send(std::move(response));
        return;
      }
      target.topic = dlq;
      target.queue_id = RandomQueueId(protocol::kDlqNumsPerGroup);
      target.topic_config = std::move(*dlq_config);
      to_dlq = true;
    }
  }

  const int32_t tran_type = header.sys_flag & message::kTransactionTypeMask;
  if (tran_type == message::kTransactionPreparedType && settings.reject_transaction_message) {
    Refuse(&response, rc::kNoPermission,
           fmt::format("the broker[{}] sending transaction message is forbidden "
                       "(rejectTransactionMessage=true)",
                       settings.broker_ip1));
    responder.Send(std::move(response));
    return;
  }

  // Checked before decoding: a peer's oversized property text costs no parsing.
  const std::string_view text = PropertiesText(header);
  if (Status length = message::CheckPropertiesLength(text); !length.ok()) {
    Refuse(&response, rc::kMessageIllegal, length.message());
    responder.Send(std::move(response));
    return;
  }

  message::RecordFields fields;
  // A plain message (the usual send) is stored with the client's property text and the
  // CLUSTER piece after it; any other is decoded, routed and encoded again, as Java does.
  std::optional<PlainProperties> plain;
  if (!to_dlq && tran_type != message::kTransactionPreparedType) {
    plain = ReadPlainProperties(text, settings.broker_cluster_name);
  }
  std::optional<ClusterPiece> cluster_piece;
  message::MessageProperties props;  // the decoding path's pairs
  std::string encoded;               // the decoding path's stored text
  std::string routed_topic;          // the decoding path's topic, after a redirect
  std::optional<AnswerKey> uniq_key;
  bool wait_store_msg_ok = true;
  fields.queue_id = target.queue_id;
  fields.sys_flag = header.sys_flag;
  if (plain) {
    cluster_piece.emplace(settings.broker_cluster_name);
    fields.topic = target.topic;
    fields.properties = text;
    fields.properties_tail = cluster_piece->view();
    uniq_key.emplace(plain->uniq_key);
    wait_store_msg_ok = WaitStoreMsgOk(plain->wait);
  } else {
    props = message::MessageProperties::Decode(text);
    (void)props.Set(message::kPropertyCluster, settings.broker_cluster_name);
    std::optional<std::string_view> key = props.Get(message::kPropertyUniqClientMessageIdKeyIdx);
    if (key) {
      uniq_key.emplace(*key);
    } else {
      // 5.x gives every message an id; older clients always send one.
      const std::string generated = uniq_keys_->Next();
      (void)props.Set(message::kPropertyUniqClientMessageIdKeyIdx, generated);
      uniq_key.emplace(generated);
    }
    // Where the message is parked instead of its own queue: prepared transactions in the
    // half topic, timer messages in the timer topic, delayed ones in SCHEDULE_TOPIC_XXXX.
    // The answer still names the queue the producer asked for, as Java's does.
    routed_topic = target.topic;
    const MessageRoute route{&routed_topic, &fields.queue_id, &fields.sys_flag, &props};
    if (to_dlq) {
      props.Erase(message::kPropertyDelayTimeLevel);  // the DLQ is never delayed
    } else if (tran_type == message::kTransactionPreparedType) {
      RedirectToHalf(route);
    } else {
      Result<bool> timed = RedirectTimer(NowMillis(), settings.timer_max_delay_sec * 1000,
                                         settings.timer_wheel_enable, route);
      if (!timed.ok()) {
        Refuse(&response, rc::kMessageIllegal, std::string(timed.status().message()));
        responder.Send(std::move(response));
        return;
      }
      if (!*timed) RedirectDelayed(delay_levels_, route);
    }
    encoded = props.Encode();
    fields.topic = routed_topic;
    fields.properties = encoded;
    wait_store_msg_ok = WaitStoreMsgOk(props.Get(message::kPropertyWaitStoreMsgOk));
  }
  // The broker's own pieces can take the text over the limit.
  if (message::PropertiesSize(fields) > message::kMaxPropertiesLength) {
    Refuse(&response, rc::kMessageIllegal,
           fmt::format("message properties of {} bytes exceed the limit of {} bytes",
                       message::PropertiesSize(fields), message::kMaxPropertiesLength));
    responder.Send(std::move(response));
    return;
  }

  fields.flag = header.flag;
  fields.born_timestamp = header.born_timestamp;
  fields.born_host = BornHost(responder);
  fields.store_host = store_host_;
  fields.reconsume_times = header.reconsume_times.value_or(0);
  fields.body = request.body;

  store::MessageStore* store = deps_.store;
  deps_.store->PutMessage(
      fields, wait_store_msg_ok,
      [store, store_host = store_host_, queue_id = target.queue_id, uniq_key = *uniq_key, max_size,
       strict_ack = settings.strict_ack_enable, fence = deps_.may_acknowledge,
       response = std::move(response), put_stats = BeginPut(deps_.stats, target.topic),
       responder = std::move(responder)](const store::PutResult& result) mutable {
        put_stats.Done(result);
        ResponseCodeAndRemark mapped =
            MapPutStatus(result.status, store->unwritable_reason(), max_size, strict_ack);
        const bool fenced = fence && !fence();
        if (fenced) mapped = FencedAnswer();
        response.code = mapped.code;
        if (!fenced && store::PutStatusStored(result.status)) {
          char msg_id[message::kOffsetMsgIdLengthIPv6];
          message::CreateOffsetMsgIdTo(store_host, result.wrote_offset.value(), msg_id);
          FillStoredHeader(
              std::string_view(msg_id, store_host.ipv6 ? message::kOffsetMsgIdLengthIPv6
                                                       : message::kOffsetMsgIdLengthIPv4),
              queue_id, result.queue_offset.value(), uniq_key.view(), &response);
        }
        if (!mapped.remark.empty()) response.remark = std::move(mapped.remark);
        responder.Send(std::move(response));
      });
}

void SendMessageProcessor::SendBatch(const BrokerSettings& settings, const RemotingCommand& request,
                                     const protocol::SendMessageRequestHeader& header,
                                     Target target, RemotingCommand response,
                                     remoting::Responder responder) {
  const int32_t max_size = settings.store.max_message_size;
  auto refuse = [&](int32_t code, std::string remark) {
    Refuse(&response, code, std::move(remark));
    responder.Send(std::move(response));
  };
  if (StartsWith(target.topic, protocol::kRetryGroupTopicPrefix)) {
    return refuse(rc::kMessageIllegal,
                  fmt::format("batch request does not support retry group {}", target.topic));
  }
  if (target.topic.size() > message::kMaxTopicLengthV1) {
    return refuse(rc::kMessageIllegal,
                  fmt::format("message topic length too long {} (a batch topic may have at most "
                              "{} characters)",
                              target.topic.size(), message::kMaxTopicLengthV1));
  }
  if ((header.sys_flag & message::kTransactionTypeMask) != message::kTransactionNotType) {
    return refuse(rc::kMessageIllegal,
                  "a batch cannot carry transactional messages (sysFlag has a transaction type)");
  }
  if (request.body.size() > static_cast<size_t>(max_size)) {
    return refuse(rc::kMessageIllegal,
                  fmt::format("batch body of {} bytes exceeds the broker's maxMessageSize of {} "
                              "bytes",
                              request.body.size(), max_size));
  }
  if (Status length = message::CheckPropertiesLength(PropertiesText(header)); !length.ok()) {
    return refuse(rc::kMessageIllegal, length.message());
  }
  message::MessageProperties batch_props =
      message::MessageProperties::Decode(PropertiesText(header));
  if (batch_props.Has(message::kPropertyDelayTimeLevel) &&
      batch_props.Get(message::kPropertyDelayTimeLevel) != "0") {
    return refuse(rc::kMessageIllegal, "a batch cannot carry delayed messages (DELAY is set)");
  }
  Result<std::vector<message::BatchEntry>> entries = message::DecodeBatchBody(request.body);
  if (!entries.ok()) {
    return refuse(rc::kMessageIllegal,
                  fmt::format("malformed batch body: {}", entries.status().message()));
  }
  (void)batch_props.Set(message::kPropertyCluster, settings.broker_cluster_name);

  std::vector<std::string> properties;
  std::vector<std::string> uniq_keys;
  properties.reserve(entries->size());
  for (size_t i = 0; i < entries->size(); ++i) {
    std::string merged = message::MergeBatchProperties((*entries)[i].properties, batch_props);
    if (merged.size() > message::kMaxPropertiesLength) {
      return refuse(rc::kMessageIllegal,
                    fmt::format("properties of batch message {} are {} bytes, above the limit of "
                                "{} bytes",
                                i, merged.size(), message::kMaxPropertiesLength));
    }
    std::optional<std::string_view> key =
        message::FindProperty(merged, message::kPropertyUniqClientMessageIdKeyIdx);
    if (key) uniq_keys.emplace_back(*key);
    properties.push_back(std::move(merged));
  }
  std::string transaction_id(
      batch_props.Get(message::kPropertyUniqClientMessageIdKeyIdx).value_or(""));
  if (transaction_id.empty()) transaction_id = message::JoinMsgIds(uniq_keys);

  const message::HostAddress born_host = BornHost(responder);
  std::vector<message::RecordFields> batch;
  std::vector<int64_t> record_sizes;
  batch.reserve(entries->size());
  record_sizes.reserve(entries->size());
  for (size_t i = 0; i < entries->size(); ++i) {
    const message::BatchEntry& entry = (*entries)[i];
    message::RecordFields fields;
    fields.queue_id = target.queue_id;
    fields.flag = entry.flag;
    fields.sys_flag = header.sys_flag;
    fields.born_timestamp = header.born_timestamp;
    fields.born_host = born_host;
    fields.store_host = store_host_;
    fields.reconsume_times = header.reconsume_times.value_or(0);
    fields.body = entry.body;
    fields.topic = target.topic;
    fields.properties = properties[i];
    // The records lie back to back from the first one's offset: their sizes give each
    // message's physical offset, hence its msgId.
    Result<size_t> size = message::RecordSize(fields);
    if (!size.ok()) {
      return refuse(rc::kMessageIllegal, fmt::format("batch message {} cannot be stored: {}", i,
                                                     size.status().message()));
    }
    record_sizes.push_back(static_cast<int64_t>(*size));
    batch.push_back(fields);
  }

  store::MessageStore* store = deps_.store;
  store->PutMessages(
      std::move(batch), WaitStoreMsgOk(batch_props.Get(message::kPropertyWaitStoreMsgOk)),
      [store, store_host = store_host_, queue_id = target.queue_id, max_size,
       strict_ack = settings.strict_ack_enable, fence = deps_.may_acknowledge,
       record_sizes = std::move(record_sizes), transaction_id = std::move(transaction_id),
       response = std::move(response), put_stats = BeginPut(deps_.stats, target.topic),
       responder = std::move(responder)](const store::PutResult& result) mutable {
        put_stats.Done(result);
        ResponseCodeAndRemark mapped =
            MapPutStatus(result.status, store->unwritable_reason(), max_size, strict_ack);
        const bool fenced = fence && !fence();
        if (fenced) mapped = FencedAnswer();
        response.code = mapped.code;
        if (!fenced && store::PutStatusStored(result.status)) {
          std::vector<std::string> msg_ids;
          msg_ids.reserve(record_sizes.size());
          int64_t offset = result.wrote_offset.value();
          for (int64_t size : record_sizes) {
            msg_ids.push_back(message::CreateOffsetMsgId(store_host, offset));
            offset += size;
          }
          FillStoredHeader(message::JoinMsgIds(msg_ids), queue_id, result.queue_offset.value(),
                           transaction_id, &response);
        }
        if (!mapped.remark.empty()) response.remark = std::move(mapped.remark);
        responder.Send(std::move(response));
      });
}

}  // namespace apogee::broker
