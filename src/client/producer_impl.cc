#include "client/producer_impl.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>

#include "base/clock.h"
#include "base/logging.h"
#include "client/async_send_call.h"
#include "client/message_convert.h"
#include "message/message_format.h"
#include "message/message_id.h"
#include "protocol/mix_all.h"

namespace apogee::client {

using std::chrono::milliseconds;

namespace {

// Java's MixAll.DEFAULT_PRODUCER_GROUP: rejected so that every application names its group.
// MessageConst.PROPERTY_TRANSACTION_ID ("__transactionId__").
constexpr std::string_view kPropertyTransactionId = "__transactionId__";

int32_t TransactionType(LocalTransactionState state) {
  switch (state) {
    case LocalTransactionState::kCommitMessage:
      return message::kTransactionCommitType;
    case LocalTransactionState::kRollbackMessage:
      return message::kTransactionRollbackType;
    case LocalTransactionState::kUnknow:
      return message::kTransactionNotType;
  }
  return message::kTransactionNotType;
}

}  // namespace

// One async send, all its attempts: the call object MQClientAPI hands back with each
// attempt's result (one allocation per send; client/async_send_call.h).
struct ProducerImpl::AsyncSend final : AsyncSendCall {
  std::shared_ptr<ProducerImpl> producer;
  // Its topic and properties moved into `header`, its client_msg_id into AsyncSendCall's.
  PreparedMessage prepared;
  // Built once; SetSendAttempt per attempt.
  protocol::SendMessageRequestHeader header;
  SendCallback callback;
  int64_t begin_ms = 0;
  int32_t attempts_left = 0;
  std::string last_broker;
  // "a, b" for the error messages: a string, so that the usual single attempt at a broker
  // with a short name allocates nothing (a vector of names allocated once per send).
  std::string brokers_sent;
  // The route of `topic` as of ClientInstance::RouteVersion() `info_version`, and the
  // master address of `addr_broker` as of `addr_version`: kept across the sends this object
  // carries, so that a send to the topic and broker of the one before needs no lookup while
  // no route changed. `info` is not used when the queue is fixed.
  std::shared_ptr<const TopicPublishInfo> info;
  uint64_t info_version = 0;
  std::string addr;
  std::string addr_broker;
  uint64_t addr_version = 0;
  std::optional<MessageQueue> fixed_mq;
  // The attempt in flight.
  MessageQueue mq;
  int64_t attempt_begin = 0;

  void OnSendResult(std::unique_ptr<AsyncSendCall> self, Result<SendResult> result) override;
  // What belongs to a finished send, but for `producer`; the strings keep their capacity.
  // SendAsync sets the rest (prepared, header, topic, client_msg_id, begin_ms) or leaves
  // them as a new object has them (attempts_left for a fixed queue).
  void Forget() {
    callback = nullptr;
    begin_ms = 0;
    attempts_left = 0;
    fixed_mq.reset();
    mq = MessageQueue();
    attempt_begin = 0;
    brokers_sent.clear();
    last_broker.clear();
    ForgetAttempt();
  }
};

ProducerImpl::ProducerImpl(ProducerConfig config) : config_(std::move(config)) {}

ProducerImpl::~ProducerImpl() { Shutdown(); }

Status ProducerImpl::Start() {
  std::lock_guard<std::mutex> lock(lifecycle_mu_);
  if (running_) return Status::OK();
  if (config_.group_name.empty()) return Status::InvalidArgument("producerGroup is blank");
  if (config_.group_name == protocol::kDefaultProducerGroup) {
    return Status::InvalidArgument(
        "producerGroup can not equal DEFAULT_PRODUCER, please specify another one");
  }
  if (config_.send_msg_timeout_ms <= 0) {
    return Status::InvalidArgument(
        fmt::format("sendMsgTimeout must be positive, got {}", config_.send_msg_timeout_ms));
  }
  ClientConfig client_config = config_;
  // Java's changeInstanceNameToPID: processes on one host get distinct client ids.
  if (client_config.instance_name == "DEFAULT") {
    client_config.instance_name = ClientInstance::PidInstanceName();
  }
  APOGEE_ASSIGN_OR_RETURN(instance_, ClientInstance::GetOrCreate(client_config));
  APOGEE_RETURN_IF_ERROR(instance_->RegisterProducer(config_.group_name, this));
  Status started = instance_->Start();
  if (!started.ok()) {
    instance_->UnregisterProducer(config_.group_name);
    return started;
  }
  fault_strategy_.set_enabled(config_.send_latency_fault_enable);
  running_ = true;
  return Status::OK();
}

void ProducerImpl::Shutdown() {
  std::lock_guard<std::mutex> lock(lifecycle_mu_);
  if (!running_) return;
  running_ = false;
  instance_->UnregisterProducer(config_.group_name);
  instance_->Shutdown();
}

Status ProducerImpl::CheckRunning() const {
  if (!running_) {
    return Status::Unavailable(
        fmt::format("producer {} is not running (call Start() first)", config_.group_name));
  }
  return Status::OK();
}

void ProducerImpl::RefreshRouteAfterBrokerFailure(const Status& error, const std::string& topic) {
  // A dead broker, or a master fenced by a failover (SERVICE_NOT_AVAILABLE): the NameServer
  // may already name a new master of the set (Apogee's etcd failover registers it within one
  // registration). Re-read the route now instead of at the next 30 s poll. Java 4.x clients
  // only retry on another broker set meanwhile.
  if (error.code() != StatusCode::kUnavailable && error.code() != StatusCode::kTimeout) return;
  Status refreshed = instance_->UpdateTopicRouteInfoFromNameServer(topic);
  if (!refreshed.ok()) {
    GetLogger("client")->debug("route refresh of {} after a send failure: {}", topic,
                               refreshed.ToString());
  }
}

Result<std::string> ProducerImpl::BrokerAddress(const MessageQueue& mq) {
  std::optional<std::string> addr = instance_->FindBrokerAddressInPublish(mq.broker_name());
  if (!addr) {
    Status refreshed = instance_->UpdateTopicRouteInfoFromNameServer(mq.topic());
    (void)refreshed;  // the lookup below reports the outcome
    addr = instance_->FindBrokerAddressInPublish(mq.broker_name());
  }
  if (!addr) {
    return Status::NotFound(
        fmt::format("The broker[{}] not exist (no master address known)", mq.broker_name()));
  }
  return *addr;
}

Result<SendResult> ProducerImpl::SendKernel(const PreparedMessage& prepared, const MessageQueue& mq,
                                            milliseconds timeout) {
  APOGEE_ASSIGN_OR_RETURN(std::string addr, BrokerAddress(mq));
  return instance_->api().SendMessage(addr, mq.broker_name(),
                                      BuildSendHeader(prepared, config_, mq, NowMillis()),
                                      prepared.body,
                                      prepared.client_msg_id, timeout);
}

Result<SendResult> ProducerImpl::SendDefault(const PreparedMessage& prepared) {
  const int64_t begin = SteadyMillis();
  const int64_t budget = config_.send_msg_timeout_ms;
  APOGEE_ASSIGN_OR_RETURN(std::shared_ptr<const TopicPublishInfo> info,
                          instance_->TryToFindTopicPublishInfo(prepared.topic,
                                                               config_.default_topic_queue_nums));
  const int32_t times_total = 1 + std::max(0, config_.retry_times_when_send_failed);
  std::string last_broker;
  std::vector<std::string> brokers_sent;
  Status last_error;
  std::optional<SendResult> not_stored;  // stored, but flush/replication policy missed
  bool timed_out = false;
  for (int32_t attempt = 0; attempt < times_total; ++attempt) {
    MessageQueue mq = fault_strategy_.SelectOneMessageQueue(*info, last_broker);
    int64_t attempt_begin = SteadyMillis();
    int64_t cost = attempt_begin - begin;
    if (cost >= budget) {
      timed_out = true;
      break;
    }
    brokers_sent.push_back(mq.broker_name());
    Result<SendResult> result = SendKernel(prepared, mq, milliseconds(budget - cost));
    int64_t elapsed = SteadyMillis() - attempt_begin;
    last_broker = mq.broker_name();
    if (result.ok()) {
      fault_strategy_.UpdateFaultItem(mq.broker_name(), elapsed, false);
      if (result->send_status != SendStatus::kSendOk &&
          config_.retry_another_broker_when_not_store_ok && attempt + 1 < times_total) {
        not_stored = std::move(result).value();
        continue;
      }
      return result;
    }
    fault_strategy_.UpdateFaultItem(mq.broker_name(), elapsed, true);
    last_error = result.status();
    if (!IsRetriableSendError(last_error)) {
      return last_error.Prefixed(fmt::format("send to {} (topic {})", mq.ToString(), prepared.topic));
    }
    GetLogger("client")->warn("send to {} failed after {} ms, attempt {}/{}: {}", mq.ToString(),
                              elapsed, attempt + 1, times_total, last_error.ToString());
    RefreshRouteAfterBrokerFailure(last_error, prepared.topic);
  }
  if (not_stored) return *not_stored;
  int64_t cost = SteadyMillis() - begin;
  if (timed_out) {
    return Status::Timeout(fmt::format(
        "sendDefaultImpl call timeout: the {} ms budget was spent after {} attempt(s), cost [{}]ms, "
        "Topic: {}, BrokersSent: [{}]{}",
        budget, brokers_sent.size(), cost, prepared.topic, fmt::join(brokers_sent, ", "),
        last_error.ok() ? std::string() : "; last error: " + last_error.ToString()));
  }
  return Status(last_error.code(),
                fmt::format("Send [{}] times, still failed, cost [{}]ms, Topic: {}, BrokersSent: [{}]: {}",
                            brokers_sent.size(), cost, prepared.topic, fmt::join(brokers_sent, ", "),
                            last_error.message()));
}

Result<SendResult> ProducerImpl::Send(const Message& msg) {
  APOGEE_RETURN_IF_ERROR(CheckRunning());
  APOGEE_ASSIGN_OR_RETURN(PreparedMessage prepared,
                          PrepareMessage(msg, config_, message::UniqKeyGenerator::Default()));
  return SendDefault(prepared);
}

Result<SendResult> ProducerImpl::SendToQueue(const Message& msg, const MessageQueue& mq) {
  APOGEE_RETURN_IF_ERROR(CheckRunning());
  if (msg.topic() != mq.topic()) {
    return Status::InvalidArgument(fmt::format("message's topic {} not equal mq's topic {}",
                                               msg.topic(), mq.topic()));
  }
  APOGEE_ASSIGN_OR_RETURN(PreparedMessage prepared,
                          PrepareMessage(msg, config_, message::UniqKeyGenerator::Default()));
  return SendKernel(prepared, mq, milliseconds(config_.send_msg_timeout_ms));
}

Result<SendResult> ProducerImpl::SendSelect(const Message& msg, const MessageQueueSelector& selector) {
  APOGEE_RETURN_IF_ERROR(CheckRunning());
  const int64_t begin = SteadyMillis();
  APOGEE_ASSIGN_OR_RETURN(PreparedMessage prepared,
                          PrepareMessage(msg, config_, message::UniqKeyGenerator::Default()));
  APOGEE_ASSIGN_OR_RETURN(std::shared_ptr<const TopicPublishInfo> info,
                          instance_->TryToFindTopicPublishInfo(prepared.topic,
                                                               config_.default_topic_queue_nums));
  const std::vector<MessageQueue>& mqs = info->message_queues();
  MessageQueue chosen = selector(mqs, msg);
  if (std::find(mqs.begin(), mqs.end(), chosen) == mqs.end()) {
    return Status::InvalidArgument(fmt::format(
        "the selector chose {}, which is not one of the {} writable queues of topic {}",
        chosen.ToString(), mqs.size(), prepared.topic));
  }
  int64_t cost = SteadyMillis() - begin;
  if (cost >= config_.send_msg_timeout_ms) {
    return Status::Timeout(fmt::format("sendSelectImpl call timeout after {} ms (topic {})", cost,
                                       prepared.topic));
  }
  return SendKernel(prepared, chosen, milliseconds(config_.send_msg_timeout_ms - cost));
}

Result<SendResult> ProducerImpl::SendBatch(const std::vector<Message>& msgs, const MessageQueue* mq) {
  APOGEE_RETURN_IF_ERROR(CheckRunning());
  APOGEE_ASSIGN_OR_RETURN(PreparedMessage prepared,
                          PrepareBatch(msgs, config_, message::UniqKeyGenerator::Default()));
  if (mq != nullptr) {
    if (mq->topic() != prepared.topic) {
      return Status::InvalidArgument(fmt::format("batch topic {} not equal mq's topic {}",
                                                 prepared.topic, mq->topic()));
    }
    return SendKernel(prepared, *mq, milliseconds(config_.send_msg_timeout_ms));
  }
  return SendDefault(prepared);
}

Status ProducerImpl::SendOneway(const Message& msg, const MessageQueue* fixed) {
  APOGEE_RETURN_IF_ERROR(CheckRunning());
  APOGEE_ASSIGN_OR_RETURN(PreparedMessage prepared,
                          PrepareMessage(msg, config_, message::UniqKeyGenerator::Default()));
  MessageQueue mq;
  if (fixed != nullptr) {
    if (fixed->topic() != prepared.topic) {
      return Status::InvalidArgument(fmt::format("message's topic {} not equal mq's topic {}",
                                                 prepared.topic, fixed->topic()));
    }
    mq = *fixed;
  } else {
    APOGEE_ASSIGN_OR_RETURN(std::shared_ptr<const TopicPublishInfo> info,
                            instance_->TryToFindTopicPublishInfo(prepared.topic,
                                                                 config_.default_topic_queue_nums));
    mq = fault_strategy_.SelectOneMessageQueue(*info, "");
  }
  APOGEE_ASSIGN_OR_RETURN(std::string addr, BrokerAddress(mq));
  return instance_->api().SendMessageOneway(addr,
                                            BuildSendHeader(prepared, config_, mq, NowMillis()),
                                            prepared.body,
                                            milliseconds(config_.send_msg_timeout_ms));
}

void ProducerImpl::SendAsync(const Message& msg, const MessageQueue* mq,
                             const MessageQueueSelector* selector, SendCallback callback) {
  Status running = CheckRunning();
  if (!running.ok()) {
    callback(running);
    return;
  }
  std::unique_ptr<AsyncSend> state = TakeAsyncSend();
  state->producer = shared_from_this();
  state->begin_ms = SteadyMillis();
  state->callback = std::move(callback);
  Status prepared =
      PrepareMessageInto(msg, config_, message::UniqKeyGenerator::Default(), &state->prepared);
  if (!prepared.ok()) {
    state->callback(prepared);
    return;
  }
  // The route kept from the object's last send serves while no route changed since.
  const bool same_route = state->info && state->info_version == instance_->RouteVersion() &&
                          state->topic == state->prepared.topic;
  state->topic = state->prepared.topic;
  state->client_msg_id.assign(state->prepared.client_msg_id);  // both keep their capacity
  FillSendHeader(state->prepared, config_, MessageQueue(), 0, &state->header);
  if (mq != nullptr) {
    if (mq->topic() != msg.topic()) {
      state->callback(Status::InvalidArgument(fmt::format(
          "message's topic {} not equal mq's topic {}", msg.topic(), mq->topic())));
      return;
    }
    state->fixed_mq = *mq;
  } else {
    if (!same_route) {
      const uint64_t version = instance_->RouteVersion();  // read before the lookup
      auto info =
          instance_->TryToFindTopicPublishInfo(state->topic, config_.default_topic_queue_nums);
      if (!info.ok()) {
        state->info.reset();
        state->callback(info.status());
        return;
      }
      state->info = std::move(info).value();
      state->info_version = version;
    }
    if (selector != nullptr) {
      const std::vector<MessageQueue>& mqs = state->info->message_queues();
      MessageQueue chosen = (*selector)(mqs, msg);
      if (std::find(mqs.begin(), mqs.end(), chosen) == mqs.end()) {
        state->callback(Status::InvalidArgument(fmt::format(
            "the selector chose {}, which is not one of the {} writable queues of topic {}",
            chosen.ToString(), mqs.size(), state->topic)));
        return;
      }
      state->fixed_mq = chosen;
    } else {
      state->attempts_left = std::max(0, config_.retry_times_when_send_async_failed);
    }
  }
  AsyncAttempt(std::move(state));
}

void ProducerImpl::AsyncAttempt(std::unique_ptr<AsyncSend> state) {
  state->mq = state->fixed_mq ? *state->fixed_mq
                              : fault_strategy_.SelectOneMessageQueue(*state->info,
                                                                      state->last_broker);
  int64_t cost = SteadyMillis() - state->begin_ms;
  if (cost >= config_.send_msg_timeout_ms) {
    state->callback(Status::Timeout(fmt::format(
        "async send call timeout: the {} ms budget was spent, Topic: {}, BrokersSent: [{}]",
        config_.send_msg_timeout_ms, state->topic, state->brokers_sent)));
    return;
  }
  if (!state->brokers_sent.empty()) state->brokers_sent += ", ";
  state->brokers_sent += state->mq.broker_name();
  const uint64_t version = instance_->RouteVersion();  // read before the lookup
  if (state->addr_version != version || state->addr_broker != state->mq.broker_name()) {
    Result<std::string> addr = BrokerAddress(state->mq);
    if (!addr.ok()) {
      state->addr_version = 0;
      AsyncAttemptFailed(std::move(state), addr.status());
      return;
    }
    state->addr = std::move(addr).value();
    state->addr_broker = state->mq.broker_name();
    state->addr_version = version;
  }
  state->attempt_begin = SteadyMillis();
  SetSendAttempt(state->mq, NowMillis(), &state->header);
  // Taken before the call moves: the arguments' order of evaluation is unspecified. Both
  // are read before the call leaves SendMessageAsync.
  const protocol::SendMessageRequestHeader& header = state->header;
  std::string_view body = state->prepared.body;  // borrowed: the state outlives the encode
  std::string_view broker_name = state->mq.broker_name();
  std::string_view addr = state->addr;
  instance_->api().SendMessageAsync(addr, broker_name, header, body,
                                    milliseconds(config_.send_msg_timeout_ms - cost),
                                    config_.async_send_callback_on_io_thread, std::move(state));
}

void ProducerImpl::AsyncSend::OnSendResult(std::unique_ptr<AsyncSendCall> self,
                                           Result<SendResult> result) {
  std::unique_ptr<AsyncSend> state(static_cast<AsyncSend*>(self.release()));
  int64_t elapsed = SteadyMillis() - attempt_begin;
  producer->fault_strategy_.UpdateFaultItem(mq.broker_name(), elapsed, !result.ok());
  if (result.ok()) {
    callback(std::move(result));
    std::shared_ptr<ProducerImpl> keep = producer;
    keep->KeepAsyncSend(std::move(state));
    return;
  }
  // The state may hold the last reference to the producer; it outlives the call.
  std::shared_ptr<ProducerImpl> keep = producer;
  keep->AsyncAttemptFailed(std::move(state), result.status());
}

void ProducerImpl::AsyncAttemptFailed(std::unique_ptr<AsyncSend> state, const Status& error) {
  const MessageQueue& mq = state->mq;
  state->last_broker = mq.broker_name();
  if (state->attempts_left > 0 && IsRetriableSendError(error) && running_) {
    --state->attempts_left;
    RefreshRouteAfterBrokerFailure(error, mq.topic());
    GetLogger("client")->warn("async send to {} failed, retrying on another broker: {}",
                              mq.ToString(), error.ToString());
    AsyncAttempt(std::move(state));
    return;
  }
  state->callback(error.Prefixed(
      fmt::format("async send to {} (BrokersSent: [{}])", mq.ToString(), state->brokers_sent)));
  KeepAsyncSend(std::move(state));
}

namespace {
// Async sends kept for reuse at most, and the most string capacity one may keep: a pool
// for the window of a busy sender, not a cache of big messages.
constexpr size_t kAsyncSendPoolMax = 256;
constexpr size_t kAsyncSendKeptCapacityMax = 32 * 1024;
}  // namespace

std::unique_ptr<ProducerImpl::AsyncSend> ProducerImpl::TakeAsyncSend() {
  {
    std::lock_guard<std::mutex> lock(async_pool_mu_);
    if (!async_pool_.empty()) {
      std::unique_ptr<AsyncSend> state = std::move(async_pool_.back());
      async_pool_.pop_back();
      return state;
    }
  }
  return std::make_unique<AsyncSend>();
}

void ProducerImpl::KeepAsyncSend(std::unique_ptr<AsyncSend> state) {
  // What belongs to the finished send goes now (the caller's callback, the route, the
  // producer, which a kept call must not hold: the pool lives in it).
  // Released last, after the pool's lock: it may be the producer's last reference.
  std::shared_ptr<ProducerImpl> hold = std::move(state->producer);
  state->Forget();
  const size_t kept = state->prepared.body.capacity() + state->prepared.properties.capacity() +
                      (state->header.properties ? state->header.properties->capacity() : 0);
  if (kept > kAsyncSendKeptCapacityMax) return;
  std::lock_guard<std::mutex> lock(async_pool_mu_);
  if (async_pool_.size() < kAsyncSendPoolMax) async_pool_.push_back(std::move(state));
}

Result<std::vector<MessageQueue>> ProducerImpl::FetchPublishMessageQueues(const std::string& topic) {
  APOGEE_RETURN_IF_ERROR(CheckRunning());
  APOGEE_ASSIGN_OR_RETURN(std::shared_ptr<const TopicPublishInfo> info,
                          instance_->TryToFindTopicPublishInfo(topic, config_.default_topic_queue_nums));
  return info->message_queues();
}

// ---------------------------------------------------------------- transactions

Result<TransactionSendResult> ProducerImpl::SendMessageInTransaction(const Message& msg, void* arg) {
  APOGEE_RETURN_IF_ERROR(CheckRunning());
  if (!transaction_listener_) return Status::InvalidArgument("TransactionListener is null");
  Message half = msg;
  half.set_delay_time_level(0);  // half messages are never delayed
  half.PutProperty(message::kPropertyTransactionPrepared, "true");
  half.PutProperty(message::kPropertyProducerGroup, config_.group_name);
  APOGEE_ASSIGN_OR_RETURN(PreparedMessage prepared,
                          PrepareMessage(half, config_, message::UniqKeyGenerator::Default()));
  Result<SendResult> sent = SendDefault(prepared);
  if (!sent.ok()) return sent.status().Prefixed("send half message");
  LocalTransactionState state = LocalTransactionState::kRollbackMessage;
  std::string remark;
  if (sent->send_status == SendStatus::kSendOk) {
    half.PutProperty(message::kPropertyUniqClientMessageIdKeyIdx, sent->msg_id);
    half.set_transaction_id(sent->msg_id);
    if (!sent->transaction_id.empty()) half.PutProperty(kPropertyTransactionId, sent->transaction_id);
    try {
      state = transaction_listener_->ExecuteLocalTransaction(half, arg);
    } catch (const std::exception& e) {
      // The API promises no exceptions; the broker's check-back decides later.
      state = LocalTransactionState::kUnknow;
      remark = fmt::format("executeLocalTransactionBranch exception: {}", e.what());
    }
  }
  Status ended = EndTransaction(*sent, state, remark);
  if (!ended.ok()) {
    GetLogger("client")->warn("END_TRANSACTION {} for {} failed (the broker will check back): {}",
                              LocalTransactionStateName(state), sent->msg_id, ended.ToString());
  }
  TransactionSendResult result;
  static_cast<SendResult&>(result) = std::move(sent).value();
  result.local_transaction_state = state;
  return result;
}

Status ProducerImpl::EndTransaction(const SendResult& result, LocalTransactionState state,
                                    const std::string& remark) {
  const std::string& id_text = result.offset_msg_id.empty() ? result.msg_id : result.offset_msg_id;
  APOGEE_ASSIGN_OR_RETURN(message::OffsetMsgId id, message::ParseOffsetMsgId(id_text));
  std::optional<std::string> addr =
      instance_->FindBrokerAddressInPublish(result.message_queue.broker_name());
  if (!addr) {
    return Status::NotFound(fmt::format("The broker[{}] not exist",
                                        result.message_queue.broker_name()));
  }
  protocol::EndTransactionRequestHeader header;
  header.producer_group = config_.group_name;
  header.tran_state_table_offset = result.queue_offset;
  header.commit_log_offset = id.physical_offset;
  header.commit_or_rollback = TransactionType(state);
  header.from_transaction_check = false;
  header.msg_id = result.msg_id;
  if (!result.transaction_id.empty()) header.transaction_id = result.transaction_id;
  return instance_->api().EndTransactionOneway(
      *addr, header, remark.empty() ? std::nullopt : std::optional<std::string>(remark),
      milliseconds(config_.send_msg_timeout_ms));
}

void ProducerImpl::CheckTransactionState(const std::string& broker_addr,
                                         const message::MessageExt& msg,
                                         const protocol::CheckTransactionStateRequestHeader& header) {
  if (!transaction_listener_) {
    GetLogger("client")->warn("CHECK_TRANSACTION_STATE from {} but producer {} has no TransactionListener",
                              broker_addr, config_.group_name);
    return;
  }
  MessageExt ext = ToPublicMessageExt(msg, "");
  std::string unique_key = std::string(msg.msg_id());
  ext.set_transaction_id(unique_key);
  LocalTransactionState state = LocalTransactionState::kUnknow;
  std::optional<std::string> remark;
  try {
    state = transaction_listener_->CheckLocalTransaction(ext);
  } catch (const std::exception& e) {
    remark = fmt::format("checkLocalTransactionState exception: {}", e.what());
  }
  protocol::EndTransactionRequestHeader end;
  end.producer_group = config_.group_name;
  end.tran_state_table_offset = header.tran_state_table_offset;
  end.commit_log_offset = header.commit_log_offset;
  end.commit_or_rollback = TransactionType(state);
  end.from_transaction_check = true;
  end.msg_id = unique_key;
  end.transaction_id = header.transaction_id;
  Status sent = instance_->api().EndTransactionOneway(broker_addr, end, std::move(remark),
                                                      milliseconds(config_.send_msg_timeout_ms));
  if (!sent.ok()) {
    GetLogger("client")->warn("END_TRANSACTION (check) to {} failed: {}", broker_addr, sent.ToString());
  }
}

}  // namespace apogee::client
