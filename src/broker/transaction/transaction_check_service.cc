#include "broker/transaction/transaction_check_service.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "base/logging.h"
#include "base/string_util.h"
#include "broker/broker_config.h"
#include "broker/client/broker_to_client.h"
#include "broker/schedule/message_redirect.h"
#include "broker/client/producer_manager.h"
#include "broker/topic_config_manager.h"
#include "message/message_format.h"
#include "message/message_record.h"
#include "protocol/client_headers.h"
#include "protocol/system_topics.h"
#include "protocol/topic_config.h"
#include "store/put_status.h"

namespace apogee::broker {

namespace {

// Java's TCMT_QUEUE_NUMS.
constexpr int32_t kTransCheckMaxTimeQueueNums = 1;

}  // namespace

DefaultTransactionCheckListener::DefaultTransactionCheckListener(
    TransactionalMessageService* service, ProducerManager* producers, TopicConfigManager* topics)
    : service_(service), producers_(producers), topics_(topics) {}

Result<std::string> DefaultTransactionCheckListener::EncodeCheckBody(
    const message::MessageExt& half) {
  Result<RealTarget> target = ParseRealTarget(half.properties, protocol::kTransHalfTopic);
  if (!target.ok()) {
    return Status::InvalidArgument(fmt::format("half message at commitLogOffset {}: {}",
                                               half.commit_log_offset, target.status().message()));
  }
  message::MessageExt msg = half;
  msg.topic = std::string(target->topic);
  msg.queue_id = target->queue_id;
  std::string properties;
  return message::EncodeRecordToString(message::RecordFieldsFromMessageExt(msg, &properties));
}

void DefaultTransactionCheckListener::ResolveHalfMessage(const message::MessageExt& half) {
  auto logger = GetLogger("transaction");
  const std::string group(half.properties.Get(message::kPropertyProducerGroup).value_or(""));
  Result<std::string> body = EncodeCheckBody(half);
  if (!body.ok()) {
    logger->error("no transaction check for {}: {}", half.offset_msg_id,
                  body.status().message());
    return;
  }
  remoting::ChannelPtr channel = producers_->GetAvailableChannel(group);
  if (channel == nullptr) {
    ++checks_without_producer_;
    logger->warn("no live producer of group '{}' to check transaction {} (half offset {}); "
                 "checked again next round",
                 group, half.msg_id(), half.queue_offset);
    return;
  }
  protocol::CheckTransactionStateRequestHeader header;
  header.tran_state_table_offset = half.queue_offset;
  header.commit_log_offset = half.commit_log_offset;
  header.offset_msg_id = half.offset_msg_id;
  std::optional<std::string_view> uniq =
      half.properties.Get(message::kPropertyUniqClientMessageIdKeyIdx);
  if (uniq) {
    header.msg_id = std::string(*uniq);
    header.transaction_id = std::string(*uniq);
  }
  CheckProducerTransactionState(channel, header, std::move(*body));
  ++checks_sent_;
}

Status DefaultTransactionCheckListener::ResolveDiscardMessage(const message::MessageExt& half) {
  GetLogger("transaction")
      ->error(
          "half message {} (transaction {}, producer group '{}', {} checks) was checked "
          "too many times or is too old: moved to {}",
          half.offset_msg_id, half.msg_id(),
          half.properties.Get(message::kPropertyProducerGroup).value_or(""),
          half.properties.Get(message::kPropertyTransactionCheckTimes).value_or("0"),
          protocol::kTransCheckMaxTimeTopic);
  Result<protocol::TopicConfig> topic = topics_->CreateTopicInSendMessageBackMethod(
      protocol::kTransCheckMaxTimeTopic, kTransCheckMaxTimeQueueNums,
      protocol::kPermRead | protocol::kPermWrite, false, 0);
  if (!topic.ok()) return topic.status();
  message::MessageExt msg = half;
  msg.topic = std::string(protocol::kTransCheckMaxTimeTopic);
  msg.queue_id = 0;
  (void)msg.properties.Set(message::kPropertyWaitStoreMsgOk, "false");
  store::PutResult put = service_->PutAndWait(msg);
  if (!store::PutStatusStored(put.status)) {
    return Status::Unavailable(fmt::format("put into {} failed: {}",
                                           protocol::kTransCheckMaxTimeTopic,
                                           store::PutStatusName(put.status)));
  }
  return Status::OK();
}

TransactionCheckService::TransactionCheckService(const BrokerConfig* config,
                                                 TransactionalMessageService* service,
                                                 TransactionCheckListener* listener)
    : config_(config),
      service_(service),
      listener_(listener) {}

TransactionCheckService::~TransactionCheckService() { Shutdown(); }

TransactionCheckRoundStats TransactionCheckService::CheckOnce() {
  const std::shared_ptr<const BrokerSettings> settings = config_->Get();
  if (settings->store.role() == store::BrokerRole::kSlave) return {};
  const int64_t file_reserved_ms =
      static_cast<int64_t>(settings->store.file_reserved_time) * 3600 * 1000;
  TransactionCheckRoundStats stats =
      service_->Check(settings->transaction_timeout, settings->transaction_check_max,
                      file_reserved_ms, listener_);
  if (stats.checked + stats.discarded + stats.decided > 0) {
    GetLogger("transaction")
        ->info("transaction check round: {} checked, {} discarded, {} decided; half offset {}, "
               "op offset {}",
               stats.checked, stats.discarded, stats.decided, stats.half_offset, stats.op_offset);
  }
  return stats;
}

void TransactionCheckService::Start(Scheduler* scheduler) {
  if (job_) return;
  auto interval = [this] { return std::max<int64_t>(config_->Get()->transaction_check_interval, 1); };
  job_ = scheduler->Every("TransactionalMessageCheck", Scheduler::LaneKind::kBlocking, interval(),
                          interval, [this] {
                            CheckOnce();
                            return Status::OK();
                          });
}

void TransactionCheckService::Shutdown() { job_.Cancel(); }

}  // namespace apogee::broker
