#include "client/push_consumer_impl.h"

#include <climits>
#include <ctime>

#include "base/clock.h"
#include "base/logging.h"
#include "base/string_util.h"
#include "client/consume_message_concurrently_service.h"
#include "client/consume_message_orderly_service.h"
#include "client/consumer_subscription.h"
#include "client/message_convert.h"
#include "client/offset_store_local.h"
#include "client/offset_store_remote.h"
#include "client/pull_api_wrapper.h"
#include "message/message_format.h"
#include "protocol/admin_bodies.h"
#include "protocol/mix_all.h"
#include "protocol/pull_sys_flag.h"
#include "protocol/response_code.h"
#include "protocol/system_topics.h"

namespace apogee::client {
namespace {

// Java's default consumeTimestamp: half an hour before start.
constexpr int64_t kDefaultConsumeTimestampBackMs = 30 * 60 * 1000;
// Java's sendMessageBack timeout.
constexpr int64_t kSendBackTimeoutMs = 5000;

std::string JsonQuote(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out.push_back('\\');
    if (static_cast<unsigned char>(ch) < 0x20) {
      out += ' ';
      continue;
    }
    out.push_back(ch);
  }
  return out + "\"";
}

}  // namespace

Result<int64_t> ParseConsumeTimestamp(std::string_view text) {
  if (text.size() != 14) {
    return Status::InvalidArgument("consume_timestamp '" + std::string(text) +
                                   "' is not yyyyMMddHHmmss");
  }
  for (char ch : text) {
    if (ch < '0' || ch > '9') {
      return Status::InvalidArgument("consume_timestamp '" + std::string(text) +
                                     "' is not yyyyMMddHHmmss");
    }
  }
  auto num = [&](size_t pos, size_t len) {
    return static_cast<int>(*ParseInt64(text.substr(pos, len)));
  };
  std::tm tm{};
  tm.tm_year = num(0, 4) - 1900;
  tm.tm_mon = num(4, 2) - 1;
  tm.tm_mday = num(6, 2);
  tm.tm_hour = num(8, 2);
  tm.tm_min = num(10, 2);
  tm.tm_sec = num(12, 2);
  tm.tm_isdst = -1;
  if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
      tm.tm_min > 59 || tm.tm_sec > 60) {
    return Status::InvalidArgument("consume_timestamp '" + std::string(text) + "' is out of range");
  }
  std::time_t t = std::mktime(&tm);
  if (t == -1) return Status::InvalidArgument("consume_timestamp '" + std::string(text) + "'");
  return static_cast<int64_t>(t) * 1000;
}

PushConsumerImpl::PushConsumerImpl(PushConsumerConfig config) : config_(std::move(config)) {}

PushConsumerImpl::~PushConsumerImpl() { Shutdown(); }

Status PushConsumerImpl::CheckConfig() const {
  if (config_.group.empty()) return Status::InvalidArgument("consumer group is empty");
  if (!concurrent_listener_ && !orderly_listener_) {
    return Status::InvalidArgument("consumer " + config_.group + ": no message listener");
  }
  auto range = [&](const char* name, int64_t value, int64_t lo, int64_t hi) -> Status {
    if (value < lo || value > hi) {
      return Status::InvalidArgument("consumer " + config_.group + ": " + name + " " +
                                     std::to_string(value) + " out of range [" +
                                     std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    return Status::OK();
  };
  // Java's DefaultMQPushConsumerImpl.checkConfig ranges.
  APOGEE_RETURN_IF_ERROR(range("consumeThreadMin", config_.consume_thread_min, 1, 1000));
  APOGEE_RETURN_IF_ERROR(range("consumeThreadMax", config_.consume_thread_max, 1, 1000));
  if (config_.consume_thread_min > config_.consume_thread_max) {
    return Status::InvalidArgument("consumer " + config_.group +
                                   ": consumeThreadMin is larger than consumeThreadMax");
  }
  APOGEE_RETURN_IF_ERROR(
      range("consumeMessageBatchMaxSize", config_.consume_message_batch_max_size, 1, 1024));
  APOGEE_RETURN_IF_ERROR(range("pullBatchSize", config_.pull_batch_size, 1, 1024));
  APOGEE_RETURN_IF_ERROR(
      range("pullThresholdForQueue", config_.pull_threshold_for_queue, 1, 65535));
  APOGEE_RETURN_IF_ERROR(
      range("pullThresholdSizeForQueue", config_.pull_threshold_size_for_queue_mib, 1, 1024));
  APOGEE_RETURN_IF_ERROR(
      range("consumeConcurrentlyMaxSpan", config_.consume_concurrently_max_span, 1, 65535));
  APOGEE_RETURN_IF_ERROR(range("pullInterval", config_.pull_interval_ms, 0, 65535));
  APOGEE_RETURN_IF_ERROR(
      range("suspendCurrentQueueTimeMillis", config_.suspend_current_queue_time_millis, 10, 30000));
  if (config_.consume_from_where == apogee::ConsumeFromWhere::kTimestamp &&
      !config_.consume_timestamp.empty()) {
    APOGEE_RETURN_IF_ERROR(ParseConsumeTimestamp(config_.consume_timestamp).status());
  }
  return Status::OK();
}

Status PushConsumerImpl::Subscribe(const std::string& topic, const std::string& expression) {
  APOGEE_ASSIGN_OR_RETURN(protocol::SubscriptionData sub,
                          BuildSubscriptionData(topic, expression, NowMillis()));
  if (state_.load() != State::kRunning) {
    std::lock_guard lock(mu_);
    pending_subscriptions_[topic] = expression;
    return Status::OK();
  }
  rebalance_->SetSubscription(sub);
  Status s = instance_->UpdateTopicRouteInfoFromNameServer(topic);
  if (!s.ok())
    GetLogger("client")->warn("subscribe {}: route not found yet: {}", topic, s.ToString());
  instance_->SendHeartbeatToAllBrokers();
  instance_->RebalanceImmediately();
  return Status::OK();
}

void PushConsumerImpl::Unsubscribe(const std::string& topic) {
  {
    std::lock_guard lock(mu_);
    pending_subscriptions_.erase(topic);
  }
  if (state_.load() == State::kRunning) {
    rebalance_->RemoveSubscription(topic);
    instance_->SendHeartbeatToAllBrokers();
  }
}

void PushConsumerImpl::RegisterMessageListener(MessageListenerConcurrently listener) {
  concurrent_listener_ = std::move(listener);
}

void PushConsumerImpl::RegisterMessageListener(MessageListenerOrderly listener) {
  orderly_listener_ = std::move(listener);
}

protocol::MessageModel PushConsumerImpl::MessageModel() const {
  return IsBroadcasting() ? protocol::MessageModel::kBroadcasting
                          : protocol::MessageModel::kClustering;
}

protocol::ConsumeFromWhere PushConsumerImpl::ConsumeFromWhere() const {
  switch (config_.consume_from_where) {
    case apogee::ConsumeFromWhere::kFirstOffset:
      return protocol::ConsumeFromWhere::kConsumeFromFirstOffset;
    case apogee::ConsumeFromWhere::kTimestamp:
      return protocol::ConsumeFromWhere::kConsumeFromTimestamp;
    case apogee::ConsumeFromWhere::kLastOffset:
      break;
  }
  return protocol::ConsumeFromWhere::kConsumeFromLastOffset;
}

Status PushConsumerImpl::Start() {
  State expected = State::kCreated;
  if (state_.load() != State::kCreated) {
    return Status::InvalidArgument("consumer " + config_.group +
                                   " was already started (or shut down)");
  }
  APOGEE_RETURN_IF_ERROR(CheckConfig());
  if (concurrent_listener_ && orderly_listener_) {
    return Status::InvalidArgument("consumer " + config_.group +
                                   ": register either a concurrent or an orderly listener");
  }

  ClientConfig client_config = config_.client;
  // Java's changeInstanceNameToPID, for CLUSTERING consumers only.
  if (!IsBroadcasting() && client_config.instance_name == "DEFAULT") {
    client_config.instance_name = ClientInstance::PidInstanceName();
  }
  APOGEE_ASSIGN_OR_RETURN(instance_, ClientInstance::GetOrCreate(client_config));
  access_ = std::make_shared<ConsumerBrokerAccess>(instance_);
  APOGEE_ASSIGN_OR_RETURN(auto strategy, MakeAllocateStrategy(config_.allocate_strategy));
  rebalance_ = std::make_unique<RebalanceImpl>(config_.group, MessageModel(), ConsumeType(),
                                               std::move(strategy), access_, this);
  {
    std::lock_guard lock(mu_);
    for (const auto& [topic, expression] : pending_subscriptions_) {
      APOGEE_ASSIGN_OR_RETURN(auto sub, BuildSubscriptionData(topic, expression, NowMillis()));
      rebalance_->SetSubscription(sub);
    }
  }
  if (!IsBroadcasting()) {
    // Java's copySubscription: CLUSTERING consumers also read their retry topic.
    APOGEE_ASSIGN_OR_RETURN(
        auto retry, BuildSubscriptionData(protocol::RetryTopic(config_.group), "*", NowMillis()));
    rebalance_->SetSubscription(retry);
    offset_store_ = std::make_unique<RemoteBrokerOffsetStore>(config_.group, access_);
  } else {
    offset_store_ = std::make_unique<LocalFileOffsetStore>(config_.local_offset_store_dir,
                                                           instance_->client_id(), config_.group);
  }
  APOGEE_RETURN_IF_ERROR(offset_store_->Load());

  if (orderly_listener_) {
    consume_service_ = std::make_unique<ConsumeMessageOrderlyService>(
        this, orderly_listener_, config_.consume_thread_min, config_.consume_message_batch_max_size,
        config_.suspend_current_queue_time_millis);
  } else {
    consume_service_ = std::make_unique<ConsumeMessageConcurrentlyService>(
        this, concurrent_listener_, config_.consume_thread_min,
        config_.consume_message_batch_max_size);
  }
  consume_service_->Start();
  pull_service_.Start();

  APOGEE_RETURN_IF_ERROR(instance_->RegisterConsumer(config_.group, this));
  if (!state_.compare_exchange_strong(expected, State::kRunning)) {
    instance_->UnregisterConsumer(config_.group);
    return Status::Aborted("consumer " + config_.group + " started twice concurrently");
  }
  start_timestamp_ = NowMillis();
  Status started = instance_->Start();
  if (!started.ok()) {
    Shutdown();
    return started;
  }
  for (const protocol::SubscriptionData& sub : rebalance_->Subscriptions()) {
    Status s = instance_->UpdateTopicRouteInfoFromNameServer(sub.topic);
    if (!s.ok() && !protocol::IsRetryTopic(sub.topic)) {
      GetLogger("client")->warn("consumer {}: no route for {} yet: {}", config_.group, sub.topic,
                                s.ToString());
    }
  }
  instance_->SendHeartbeatToAllBrokers();
  instance_->RebalanceImmediately();
  GetLogger("client")->info("push consumer {} started as {} ({}, {})", config_.group,
                            instance_->client_id(), protocol::MessageModelName(MessageModel()),
                            consume_service_->IsOrderly() ? "orderly" : "concurrently");
  return Status::OK();
}

void PushConsumerImpl::Shutdown() {
  State expected = State::kRunning;
  if (!state_.compare_exchange_strong(expected, State::kShutdown)) {
    state_.store(State::kShutdown);
    pull_service_.Shutdown();
    if (consume_service_) consume_service_->Shutdown();
    return;
  }
  pull_service_.Shutdown();
  consume_service_->Shutdown();
  if (consume_service_->IsOrderly() && !IsBroadcasting()) rebalance_->UnlockAll(false);
  PersistConsumerOffset();
  instance_->UnregisterConsumer(config_.group);
  instance_->Shutdown();
  rebalance_->DropAll();
  GetLogger("client")->info("push consumer {} shut down", config_.group);
}

std::string PushConsumerImpl::client_id() const {
  return instance_ ? instance_->client_id() : std::string();
}

std::set<protocol::MessageQueue> PushConsumerImpl::AssignedQueues() const {
  std::set<protocol::MessageQueue> out;
  if (!rebalance_) return out;
  for (const auto& [mq, pq] : rebalance_->ProcessQueueTable()) {
    if (!protocol::IsRetryTopic(mq.topic)) out.insert(mq);
  }
  return out;
}

std::vector<protocol::SubscriptionData> PushConsumerImpl::Subscriptions() const {
  return rebalance_ ? rebalance_->Subscriptions() : std::vector<protocol::SubscriptionData>{};
}

void PushConsumerImpl::DoRebalance() {
  if (state_.load() != State::kRunning) return;
  rebalance_->DoRebalance(consume_service_->IsOrderly());
}

void PushConsumerImpl::PersistConsumerOffset() {
  if (!offset_store_ || !rebalance_) return;
  std::set<protocol::MessageQueue> mqs;
  for (const auto& [mq, pq] : rebalance_->ProcessQueueTable()) mqs.insert(mq);
  offset_store_->PersistAll(mqs);
}

void PushConsumerImpl::UpdateTopicSubscribeInfo(const std::string& topic,
                                                const std::set<protocol::MessageQueue>& info) {
  if (rebalance_) rebalance_->UpdateTopicSubscribeInfo(topic, info);
}

bool PushConsumerImpl::IsSubscribeTopicNeedUpdate(const std::string& topic) const {
  return rebalance_ && rebalance_->IsSubscribeTopicNeedUpdate(topic);
}

void PushConsumerImpl::ResetOffset(const std::string& topic,
                                   const std::map<protocol::MessageQueue, int64_t>& offsets) {
  if (state_.load() != State::kRunning) return;
  GetLogger("client")->info("consumer {}: resetting {} offsets of {}", config_.group,
                            offsets.size(), topic);
  const bool was_paused = paused_.exchange(true);
  for (const auto& [mq, pq] : rebalance_->ProcessQueueTable()) {
    if (mq.topic != topic) continue;
    pq->set_dropped(true);
    pq->Clear();
  }
  for (const auto& [mq, offset] : offsets) {
    if (mq.topic != topic) continue;
    offset_store_->UpdateOffset(mq, offset, false);
    Status s = offset_store_->UpdateConsumeOffsetToBroker(mq, offset, /*oneway=*/false);
    if (!s.ok()) {
      GetLogger("client")->warn("reset offset of {} to {}: {}", protocol::ToString(mq), offset,
                                s.ToString());
    }
    offset_store_->Persist(mq);
  }
  for (const auto& [mq, pq] : rebalance_->ProcessQueueTable()) {
    if (mq.topic == topic) rebalance_->RemoveProcessQueue(mq);
  }
  if (!was_paused) paused_.store(false);
  instance_->RebalanceImmediately();
}

Result<std::string> PushConsumerImpl::ConsumerRunningInfo(bool) {
  if (state_.load() != State::kRunning) {
    return Status::Unavailable("consumer " + config_.group + " is not running");
  }
  // ConsumerRunningInfo (docs/protocol/remoting.md §7.8): fastjson bean order,
  // protocol::MessageQueue keys in object-key form.
  std::string json = "{\"jstack\":\"\",\"mqTable\":{";
  bool first = true;
  const int64_t now = NowMillis();
  for (const auto& [mq, pq] : rebalance_->ProcessQueueTable()) {
    if (!first) json += ",";
    first = false;
    const int64_t commit = offset_store_->ReadOffset(mq, ReadOffsetType::kReadFromMemory);
    json += protocol::EncodeMessageQueue(mq) +
            ":{\"cachedMsgCount\":" + std::to_string(pq->msg_count()) +
            ",\"cachedMsgMaxOffset\":" + std::to_string(pq->MaxOffset() < 0 ? 0 : pq->MaxOffset()) +
            ",\"cachedMsgMinOffset\":" + std::to_string(pq->MinOffset() < 0 ? 0 : pq->MinOffset()) +
            ",\"cachedMsgSizeInMiB\":" + std::to_string(pq->msg_size() / (1024 * 1024)) +
            ",\"commitOffset\":" + std::to_string(commit) +
            ",\"droped\":" + (pq->dropped() ? "true" : "false") +
            ",\"lastConsumeTimestamp\":" + std::to_string(pq->last_consume_timestamp()) +
            ",\"lastLockTimestamp\":" + std::to_string(pq->last_lock_timestamp()) +
            ",\"lastPullTimestamp\":" + std::to_string(pq->last_pull_timestamp()) +
            ",\"locked\":" + (pq->locked() ? "true" : "false") +
            ",\"tryUnlockTimes\":0,\"transactionMsgCount\":0,\"transactionMsgMaxOffset\":0," +
            "\"transactionMsgMinOffset\":0}";
  }
  json += "},\"properties\":{";
  const std::map<std::string, std::string> props = {
      {"PROP_CLIENT_VERSION", "V4_9_7"},
      {"PROP_CONSUMEORDERLY", consume_service_->IsOrderly() ? "true" : "false"},
      {"PROP_CONSUMER_START_TIMESTAMP", std::to_string(start_timestamp_)},
      {"PROP_CONSUME_TYPE", std::string(protocol::ConsumeTypeName(ConsumeType()))},
      {"PROP_NAMESERVER_ADDR", config_.client.namesrv_addr},
      {"PROP_THREADPOOL_CORE_SIZE", std::to_string(consume_service_->CorePoolSize())},
      {"allocateMessageQueueStrategy", config_.allocate_strategy},
      {"consumeFromWhere", std::string(protocol::ConsumeFromWhereName(ConsumeFromWhere()))},
      {"consumerGroup", config_.group},
      {"messageModel", std::string(protocol::MessageModelName(MessageModel()))},
      {"pullBatchSize", std::to_string(config_.pull_batch_size)},
      {"runningSeconds", std::to_string((now - start_timestamp_) / 1000)},
  };
  first = true;
  for (const auto& [k, v] : props) {
    if (!first) json += ",";
    first = false;
    json += JsonQuote(k) + ":" + JsonQuote(v);
  }
  json += "},\"statusTable\":{},\"subscriptionSet\":[";
  first = true;
  for (const protocol::SubscriptionData& sub : rebalance_->Subscriptions()) {
    if (!first) json += ",";
    first = false;
    json += protocol::EncodeSubscriptionData(sub);
  }
  json += "]}";
  return json;
}

Result<std::string> PushConsumerImpl::ConsumeMessageDirectly(const message::MessageExt& msg,
                                                             const std::string& broker_name) {
  if (state_.load() != State::kRunning) {
    return Status::Unavailable("consumer " + config_.group + " is not running");
  }
  ConsumeDirectlyResult result =
      consume_service_->ConsumeMessageDirectly(ToPublicMessageExt(msg, broker_name), broker_name);
  return EncodeConsumeDirectlyResult(result);
}

bool PushConsumerImpl::RemoveUnnecessaryMessageQueue(const protocol::MessageQueue& mq,
                                                     ProcessQueue& pq) {
  offset_store_->Persist(mq);
  offset_store_->RemoveOffset(mq);
  if (consume_service_->IsOrderly() && !IsBroadcasting()) {
    // Wait up to 1 s for a running listener so the next owner does not overlap with it.
    std::unique_lock consume_lock(pq.consume_mutex(), std::defer_lock);
    if (!consume_lock.try_lock_for(std::chrono::seconds(1))) {
      GetLogger("client")->warn("{} is still consuming; unlock next round", protocol::ToString(mq));
      return false;
    }
    rebalance_->Unlock(mq, /*oneway=*/true);
  }
  return true;
}

void PushConsumerImpl::RemoveDirtyOffset(const protocol::MessageQueue& mq) {
  offset_store_->RemoveOffset(mq);
}

Result<std::string> PushConsumerImpl::MasterAddress(const protocol::MessageQueue& mq) {
  return access_->MasterAddress(mq.broker_name, mq.topic);
}

int64_t PushConsumerImpl::ConsumeTimestampMillis() const {
  if (!config_.consume_timestamp.empty()) {
    auto parsed = ParseConsumeTimestamp(config_.consume_timestamp);
    if (parsed.ok()) return *parsed;
  }
  return start_timestamp_ - kDefaultConsumeTimestampBackMs;
}

int64_t PushConsumerImpl::ComputePullFromWhere(const protocol::MessageQueue& mq) {
  return ComputeStartOffset(*offset_store_, *instance_, *access_, mq, ConsumeFromWhere(),
                            ConsumeTimestampMillis());
}

void PushConsumerImpl::DispatchPullRequests(std::vector<PullRequest> requests) {
  for (PullRequest& request : requests) ExecutePullRequestImmediately(std::move(request));
}

void PushConsumerImpl::ExecutePullRequestImmediately(PullRequest request) {
  ExecutePullRequestLater(std::move(request), 0);
}

void PushConsumerImpl::ExecutePullRequestLater(PullRequest request, int64_t delay_ms) {
  if (state_.load() != State::kRunning) return;
  std::weak_ptr<PushConsumerImpl> weak = weak_from_this();
  auto shared_request = std::make_shared<PullRequest>(std::move(request));
  pull_service_.ExecuteLater(delay_ms, [weak, shared_request] {
    if (auto self = weak.lock()) self->PullMessage(std::move(*shared_request));
  });
}

void PushConsumerImpl::PullMessage(PullRequest request) {
  std::shared_ptr<ProcessQueue> pq = request.pq;
  if (pq->dropped() || state_.load() != State::kRunning) return;
  pq->set_last_pull_timestamp(NowMillis());
  if (paused_.load()) {
    ExecutePullRequestLater(std::move(request), kPullTimeDelayMillsWhenSuspend);
    return;
  }
  // Flow control (Java logs these every 1000th time; the queue just waits).
  if (pq->msg_count() > config_.pull_threshold_for_queue ||
      pq->msg_size() > int64_t{config_.pull_threshold_size_for_queue_mib} * 1024 * 1024) {
    ExecutePullRequestLater(std::move(request), kPullTimeDelayMillsWhenFlowControl);
    return;
  }
  if (!consume_service_->IsOrderly()) {
    if (pq->MaxSpan() > config_.consume_concurrently_max_span) {
      ExecutePullRequestLater(std::move(request), kPullTimeDelayMillsWhenFlowControl);
      return;
    }
  } else if (!IsBroadcasting()) {
    if (!pq->locked()) {
      ExecutePullRequestLater(std::move(request), kPullTimeDelayMillsWhenException);
      return;
    }
    if (!request.locked_first) {
      // The first pull after the lock re-reads the committed offset: the previous owner may
      // have moved it after this queue was assigned here.
      const int64_t offset = ComputePullFromWhere(request.mq);
      if (offset < 0) {
        ExecutePullRequestLater(std::move(request), kPullTimeDelayMillsWhenException);
        return;
      }
      request.locked_first = true;
      request.next_offset = offset;
    }
  }
  std::optional<protocol::SubscriptionData> sub = rebalance_->GetSubscription(request.mq.topic);
  if (!sub) {
    ExecutePullRequestLater(std::move(request), kPullTimeDelayMillsWhenException);
    return;
  }

  int64_t commit_offset = 0;
  if (!IsBroadcasting()) {
    commit_offset = offset_store_->ReadOffset(request.mq, ReadOffsetType::kReadFromMemory);
    if (commit_offset < 0) commit_offset = 0;
  }
  int64_t broker_id = protocol::kMasterId;
  {
    std::lock_guard lock(mu_);
    auto it = suggested_broker_.find(request.mq);
    if (it != suggested_broker_.end()) broker_id = it->second;
  }
  auto found = instance_->FindBrokerAddressInSubscribe(request.mq.broker_name, broker_id, false);
  if (!found) {
    (void)instance_->UpdateTopicRouteInfoFromNameServer(request.mq.topic);
    found = instance_->FindBrokerAddressInSubscribe(request.mq.broker_name, broker_id, false);
  }
  if (!found) {
    GetLogger("client")->warn("pull {}: broker {} not found", protocol::ToString(request.mq),
                              request.mq.broker_name);
    ExecutePullRequestLater(std::move(request), kPullTimeDelayMillsWhenException);
    return;
  }

  protocol::PullMessageRequestHeader header;
  header.consumer_group = config_.group;
  header.topic = request.mq.topic;
  header.queue_id = request.mq.queue_id;
  header.queue_offset = request.next_offset;
  header.max_msg_nums = config_.pull_batch_size;
  // The subscription travels with every pull (as the C++ client and ali-ons send it), so the
  // broker never answers SUBSCRIPTION_NOT_LATEST while a heartbeat is in flight.
  header.sys_flag =
      protocol::BuildPullSysFlag(commit_offset > 0 && !found->slave, true, true, false);
  header.commit_offset = commit_offset;
  header.suspend_timeout_millis = kBrokerSuspendMaxTimeMillis;
  header.subscription = sub->sub_string;
  header.sub_version = sub->sub_version;
  header.expression_type = sub->expression_type;

  std::weak_ptr<PushConsumerImpl> weak = weak_from_this();
  auto shared_request = std::make_shared<PullRequest>(std::move(request));
  protocol::SubscriptionData sub_copy = *sub;
  instance_->api().PullMessageAsync(
      found->broker_addr, header, Millis(kConsumerTimeoutMillisWhenSuspend),
      [weak, shared_request, sub_copy](Result<PullResponse> response) {
        if (auto self = weak.lock()) {
          self->OnPullResult(std::move(*shared_request), sub_copy, std::move(response));
        }
      });
}

void PushConsumerImpl::OnPullResult(PullRequest request, const protocol::SubscriptionData& sub,
                                    Result<PullResponse> response) {
  if (state_.load() != State::kRunning) return;
  if (!response.ok()) {
    GetLogger("client")->warn("pull {} from offset {} failed: {}", protocol::ToString(request.mq),
                              request.next_offset, response.status().ToString());
    ExecutePullRequestLater(std::move(request), kPullTimeDelayMillsWhenException);
    return;
  }
  {
    std::lock_guard lock(mu_);
    suggested_broker_[request.mq] = response->header.suggest_which_broker_id;
  }
  Result<PullResult> result = ProcessPullResponse(*response, request.mq, sub);
  if (!result.ok()) {
    GetLogger("client")->warn("{}", result.status().ToString());
    ExecutePullRequestLater(std::move(request), kPullTimeDelayMillsWhenException);
    return;
  }
  std::shared_ptr<ProcessQueue> pq = request.pq;
  switch (result->status) {
    case PullStatus::kFound: {
      request.next_offset = result->next_begin_offset;
      if (result->msgs.empty()) {
        ExecutePullRequestImmediately(std::move(request));
        return;
      }
      const bool dispatch = pq->PutMessages(result->msgs);
      consume_service_->SubmitConsumeRequest(std::move(result->msgs), pq, request.mq, dispatch);
      if (config_.pull_interval_ms > 0) {
        ExecutePullRequestLater(std::move(request), config_.pull_interval_ms);
      } else {
        ExecutePullRequestImmediately(std::move(request));
      }
      return;
    }
    case PullStatus::kNoNewMsg:
    case PullStatus::kNoMatchedMsg:
      request.next_offset = result->next_begin_offset;
      // Java's correctTagsOffset: with nothing waiting, the filtered-out range is consumed.
      if (pq->msg_count() == 0) {
        offset_store_->UpdateOffset(request.mq, request.next_offset, true);
      }
      ExecutePullRequestImmediately(std::move(request));
      return;
    case PullStatus::kOffsetIllegal: {
      GetLogger("client")->warn("pull {}: offset {} illegal, moving to {}",
                                protocol::ToString(request.mq), request.next_offset,
                                result->next_begin_offset);
      request.next_offset = result->next_begin_offset;
      pq->set_dropped(true);
      // Java waits 10 s before committing the corrected offset and dropping the queue.
      std::weak_ptr<PushConsumerImpl> weak = weak_from_this();
      auto mq = request.mq;
      const int64_t next = request.next_offset;
      pull_service_.ExecuteLater(10'000, [weak, mq, next] {
        auto self = weak.lock();
        if (!self || self->state_.load() != State::kRunning) return;
        self->offset_store_->UpdateOffset(mq, next, false);
        self->offset_store_->Persist(mq);
        self->rebalance_->RemoveProcessQueue(mq);
      });
      return;
    }
  }
}

int32_t PushConsumerImpl::MaxReconsumeTimes(bool orderly) const {
  if (config_.max_reconsume_times >= 0) return config_.max_reconsume_times;
  return orderly ? INT32_MAX : 16;
}

bool PushConsumerImpl::SendMessageBack(const MessageExt& msg, int32_t delay_level,
                                       const std::string& broker_name) {
  std::optional<std::string> addr;
  if (!broker_name.empty()) addr = instance_->FindBrokerAddressInPublish(broker_name);
  if (!addr) addr = msg.store_host();
  protocol::ConsumerSendMsgBackRequestHeader header;
  header.offset = msg.commit_log_offset();
  header.group = config_.group;
  header.delay_level = delay_level;
  header.origin_msg_id = msg.msg_id();
  header.origin_topic = msg.topic();
  header.unit_mode = false;
  header.max_reconsume_times = MaxReconsumeTimes(consume_service_->IsOrderly());
  Status s = instance_->api().ConsumerSendMessageBack(*addr, header, Millis(kSendBackTimeoutMs));
  if (s.ok()) return true;
  GetLogger("client")->warn("send back {} to {} failed ({}); sending it to {} instead",
                            msg.msg_id(), *addr, s.ToString(), protocol::RetryTopic(config_.group));
  return SendBackBySending(msg, broker_name);
}

bool PushConsumerImpl::SendBackBySending(const MessageExt& msg, const std::string& broker_name) {
  // Java's fallback: a copy sent to %RETRY%<group>, keeping the original's properties, so
  // the broker's send path applies the same delay / DLQ rule.
  Message retry(protocol::RetryTopic(config_.group), msg.body());
  for (const auto& [k, v] : msg.properties()) retry.PutProperty(k, v);
  retry.set_flag(msg.flag());
  if (!msg.GetProperty(message::kPropertyOriginMessageId)) {
    retry.PutProperty(message::kPropertyOriginMessageId, msg.msg_id());
  }
  retry.PutProperty(message::kPropertyRetryTopic, msg.topic());
  retry.PutProperty(message::kPropertyReconsumeTime, std::to_string(msg.reconsume_times() + 1));
  const int32_t max = MaxReconsumeTimes(consume_service_->IsOrderly());
  retry.PutProperty(message::kPropertyMaxReconsumeTimes, std::to_string(max));
  retry.ClearProperty(message::kPropertyTransactionPrepared);
  retry.ClearProperty(message::kPropertyMinOffset);
  retry.ClearProperty(message::kPropertyMaxOffset);
  retry.ClearProperty(message::kPropertyConsumeStartTimestamp);
  retry.set_delay_time_level(3 + msg.reconsume_times());
  Result<message::Message> wire = ToWireMessage(retry);
  if (!wire.ok()) {
    GetLogger("client")->warn("retry copy of {}: {}", msg.msg_id(), wire.status().ToString());
    return false;
  }
  const std::string target_broker = broker_name.empty() ? std::string() : broker_name;
  auto addr =
      target_broker.empty() ? std::nullopt : instance_->FindBrokerAddressInPublish(target_broker);
  if (!addr) {
    GetLogger("client")->warn("retry copy of {}: no master for broker '{}'", msg.msg_id(),
                              target_broker);
    return false;
  }
  protocol::SendMessageRequestHeader header;
  header.producer_group = protocol::kClientInnerProducerGroup;
  header.topic = retry.topic();
  header.default_topic = std::string(protocol::kAutoCreateTopicKeyTopic);
  header.default_topic_queue_nums = 4;
  header.queue_id = 0;
  header.sys_flag = 0;
  header.born_timestamp = NowMillis();
  header.flag = retry.flag();
  header.properties = wire->properties.Encode();
  header.reconsume_times = msg.reconsume_times() + 1;
  header.max_reconsume_times = max;
  header.broker_name = target_broker;
  auto sent = instance_->api().SendMessage(*addr, target_broker, header, wire->body,
                                           std::string(msg.msg_id()), Millis(kSendBackTimeoutMs));
  if (!sent.ok()) {
    GetLogger("client")->warn("retry copy of {} to {} failed: {}", msg.msg_id(), *addr,
                              sent.status().ToString());
    return false;
  }
  return true;
}

}  // namespace apogee::client
