#include "client/lite_pull_consumer_impl.h"

#include "base/clock.h"
#include "base/logging.h"
#include "client/consumer_subscription.h"
#include "client/message_convert.h"
#include "client/offset_store_local.h"
#include "client/offset_store_remote.h"
#include "client/pull_api_wrapper.h"
#include "client/push_consumer_impl.h"  // ParseConsumeTimestamp, delay constants
#include "protocol/mix_all.h"
#include "protocol/pull_sys_flag.h"

namespace apogee::client {
namespace {
// Java's DefaultLitePullConsumerImpl: pull with a 20 s broker suspend.
constexpr int64_t kLitePullSuspendMillis = 20'000;
constexpr int64_t kLitePullTimeoutMillis = 30'000;
}  // namespace

LitePullConsumerImpl::LitePullConsumerImpl(LitePullConsumerConfig config)
    : config_(std::move(config)) {}

LitePullConsumerImpl::~LitePullConsumerImpl() { Shutdown(); }

protocol::MessageModel LitePullConsumerImpl::MessageModel() const {
  return config_.message_model == apogee::MessageModel::kBroadcasting
             ? protocol::MessageModel::kBroadcasting
             : protocol::MessageModel::kClustering;
}

protocol::ConsumeFromWhere LitePullConsumerImpl::ConsumeFromWhere() const {
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

Status LitePullConsumerImpl::Subscribe(const std::string& topic, const std::string& expression) {
  APOGEE_RETURN_IF_ERROR(BuildSubscriptionData(topic, expression, NowMillis()).status());
  std::lock_guard lock(mu_);
  if (assigned_mode_) return Status::InvalidArgument("lite pull: Subscribe after Assign");
  if (state_.load() != State::kCreated) {
    return Status::InvalidArgument("lite pull: Subscribe before Start()");
  }
  pending_subscriptions_[topic] = expression;
  return Status::OK();
}

Status LitePullConsumerImpl::Assign(const std::vector<protocol::MessageQueue>& queues) {
  if (queues.empty()) return Status::InvalidArgument("lite pull: Assign with no queue");
  std::vector<protocol::MessageQueue> dropped;
  {
    std::lock_guard lock(mu_);
    if (!pending_subscriptions_.empty()) {
      return Status::InvalidArgument("lite pull: Assign after Subscribe");
    }
    assigned_mode_ = true;
    pending_assignment_ = queues;
    if (state_.load() != State::kRunning) return Status::OK();
    std::set<protocol::MessageQueue> wanted(queues.begin(), queues.end());
    for (auto it = queues_.begin(); it != queues_.end();) {
      if (wanted.count(it->first) == 0) {
        it->second.pq->set_dropped(true);
        dropped.push_back(it->first);
        it = queues_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& mq : dropped) {
    offset_store_->Persist(mq);
    offset_store_->RemoveOffset(mq);
  }
  for (const auto& mq : queues) {
    {
      std::lock_guard lock(mu_);
      if (queues_.count(mq) > 0) continue;
    }
    const int64_t offset = ComputePullFromWhere(mq);
    if (offset < 0)
      return Status::Unavailable("lite pull: no start offset for " + protocol::ToString(mq));
    StartQueue(mq, std::make_shared<ProcessQueue>(), offset);
  }
  instance_->SendHeartbeatToAllBrokers();
  return Status::OK();
}

Status LitePullConsumerImpl::Start() {
  if (state_.load() != State::kCreated) {
    return Status::InvalidArgument("lite pull consumer " + config_.group + " already started");
  }
  if (config_.group.empty()) return Status::InvalidArgument("consumer group is empty");
  if (config_.pull_batch_size < 1 || config_.pull_batch_size > 1024) {
    return Status::InvalidArgument("lite pull: pullBatchSize out of range [1, 1024]");
  }
  ClientConfig client_config = config_.client;
  if (MessageModel() == protocol::MessageModel::kClustering &&
      client_config.instance_name == "DEFAULT") {
    client_config.instance_name = ClientInstance::PidInstanceName();
  }
  APOGEE_ASSIGN_OR_RETURN(instance_, ClientInstance::GetOrCreate(client_config));
  access_ = std::make_shared<ConsumerBrokerAccess>(instance_);
  APOGEE_ASSIGN_OR_RETURN(auto strategy, MakeAllocateStrategy(config_.allocate_strategy));
  rebalance_ = std::make_unique<RebalanceImpl>(config_.group, MessageModel(), ConsumeType(),
                                               std::move(strategy), access_, this);
  std::vector<protocol::MessageQueue> assignment;
  {
    std::lock_guard lock(mu_);
    for (const auto& [topic, expression] : pending_subscriptions_) {
      APOGEE_ASSIGN_OR_RETURN(auto sub, BuildSubscriptionData(topic, expression, NowMillis()));
      rebalance_->SetSubscription(sub);
    }
    assignment = pending_assignment_;
  }
  if (MessageModel() == protocol::MessageModel::kClustering) {
    offset_store_ = std::make_unique<RemoteBrokerOffsetStore>(config_.group, access_);
  } else {
    offset_store_ = std::make_unique<LocalFileOffsetStore>(config_.local_offset_store_dir,
                                                           instance_->client_id(), config_.group);
  }
  APOGEE_RETURN_IF_ERROR(offset_store_->Load());
  pull_service_.Start();
  APOGEE_RETURN_IF_ERROR(instance_->RegisterConsumer(config_.group, this));
  state_.store(State::kRunning);
  start_timestamp_ = NowMillis();
  if (Status s = instance_->Start(); !s.ok()) {
    Shutdown();
    return s;
  }
  for (const auto& sub : rebalance_->Subscriptions()) {
    (void)instance_->UpdateTopicRouteInfoFromNameServer(sub.topic);
  }
  if (!assignment.empty()) {
    for (const auto& mq : assignment) (void)instance_->UpdateTopicRouteInfoFromNameServer(mq.topic);
    APOGEE_RETURN_IF_ERROR(Assign(assignment));
  }
  instance_->SendHeartbeatToAllBrokers();
  instance_->RebalanceImmediately();
  return Status::OK();
}

void LitePullConsumerImpl::Shutdown() {
  State expected = State::kRunning;
  if (!state_.compare_exchange_strong(expected, State::kShutdown)) {
    state_.store(State::kShutdown);
    pull_service_.Shutdown();
    return;
  }
  pull_service_.Shutdown();
  cv_.notify_all();
  if (config_.auto_commit) PersistConsumerOffset();
  instance_->UnregisterConsumer(config_.group);
  instance_->Shutdown();
  rebalance_->DropAll();
}

std::set<protocol::MessageQueue> LitePullConsumerImpl::HeldQueues() const {
  std::lock_guard lock(mu_);
  std::set<protocol::MessageQueue> out;
  for (const auto& [mq, state] : queues_) out.insert(mq);
  return out;
}

std::set<protocol::MessageQueue> LitePullConsumerImpl::Assignment() const { return HeldQueues(); }

protocol::SubscriptionData LitePullConsumerImpl::SubscriptionFor(const std::string& topic) const {
  if (rebalance_) {
    if (auto sub = rebalance_->GetSubscription(topic)) return *sub;
  }
  return *BuildSubscriptionData(topic, "*", start_timestamp_);
}

std::vector<protocol::SubscriptionData> LitePullConsumerImpl::Subscriptions() const {
  if (!assigned_mode_) {
    return rebalance_ ? rebalance_->Subscriptions() : std::vector<protocol::SubscriptionData>{};
  }
  std::set<std::string> topics;
  for (const auto& mq : HeldQueues()) topics.insert(mq.topic);
  std::vector<protocol::SubscriptionData> out;
  for (const auto& topic : topics) out.push_back(SubscriptionFor(topic));
  return out;
}

void LitePullConsumerImpl::DoRebalance() {
  if (state_.load() == State::kRunning && !assigned_mode_) rebalance_->DoRebalance(false);
}

void LitePullConsumerImpl::PersistConsumerOffset() {
  if (!offset_store_) return;
  if (!config_.auto_commit && state_.load() == State::kRunning) return;
  offset_store_->PersistAll(HeldQueues());
}

void LitePullConsumerImpl::UpdateTopicSubscribeInfo(const std::string& topic,
                                                    const std::set<protocol::MessageQueue>& info) {
  if (rebalance_) rebalance_->UpdateTopicSubscribeInfo(topic, info);
}

bool LitePullConsumerImpl::IsSubscribeTopicNeedUpdate(const std::string& topic) const {
  return rebalance_ && !assigned_mode_ && rebalance_->IsSubscribeTopicNeedUpdate(topic);
}

void LitePullConsumerImpl::ResetOffset(const std::string& topic,
                                       const std::map<protocol::MessageQueue, int64_t>& offsets) {
  for (const auto& [mq, offset] : offsets) {
    if (mq.topic == topic && HeldQueues().count(mq) > 0) (void)Seek(mq, offset);
  }
}

Result<std::string> LitePullConsumerImpl::ConsumerRunningInfo(bool) {
  return Status::NotSupported("lite pull consumer " + config_.group +
                              " does not report running info");
}

Result<std::string> LitePullConsumerImpl::ConsumeMessageDirectly(const message::MessageExt&,
                                                                 const std::string&) {
  return Status::NotSupported("lite pull consumer " + config_.group +
                              " has no listener to consume directly");
}

void LitePullConsumerImpl::MessageQueueChanged(const std::string&,
                                               const std::set<protocol::MessageQueue>&,
                                               const std::set<protocol::MessageQueue>&) {}

bool LitePullConsumerImpl::RemoveUnnecessaryMessageQueue(const protocol::MessageQueue& mq,
                                                         ProcessQueue&) {
  {
    std::lock_guard lock(mu_);
    queues_.erase(mq);
  }
  offset_store_->Persist(mq);
  offset_store_->RemoveOffset(mq);
  return true;
}

void LitePullConsumerImpl::RemoveDirtyOffset(const protocol::MessageQueue& mq) {
  offset_store_->RemoveOffset(mq);
}

int64_t LitePullConsumerImpl::ComputePullFromWhere(const protocol::MessageQueue& mq) {
  int64_t timestamp = start_timestamp_ - 30 * 60 * 1000;
  if (!config_.consume_timestamp.empty()) {
    if (auto parsed = ParseConsumeTimestamp(config_.consume_timestamp); parsed.ok())
      timestamp = *parsed;
  }
  return ComputeStartOffset(*offset_store_, *instance_, *access_, mq, ConsumeFromWhere(),
                            timestamp);
}

void LitePullConsumerImpl::DispatchPullRequests(std::vector<PullRequest> requests) {
  for (PullRequest& r : requests) StartQueue(r.mq, r.pq, r.next_offset);
}

void LitePullConsumerImpl::StartQueue(const protocol::MessageQueue& mq,
                                      std::shared_ptr<ProcessQueue> pq, int64_t offset) {
  uint64_t generation;
  {
    std::lock_guard lock(mu_);
    QueueState& state = queues_[mq];
    if (state.pq && state.pq != pq) state.pq->set_dropped(true);
    state.pq = std::move(pq);
    generation = ++state.generation;
  }
  offset_store_->UpdateOffset(mq, offset, false);
  PullLater(mq, generation, offset, 0);
}

std::shared_ptr<ProcessQueue> LitePullConsumerImpl::Current(const protocol::MessageQueue& mq,
                                                            uint64_t generation,
                                                            bool* paused) const {
  std::lock_guard lock(mu_);
  auto it = queues_.find(mq);
  if (it == queues_.end() || it->second.generation != generation || it->second.pq->dropped()) {
    return nullptr;
  }
  if (paused) *paused = it->second.paused;
  return it->second.pq;
}

void LitePullConsumerImpl::PullLater(const protocol::MessageQueue& mq, uint64_t generation,
                                     int64_t offset, int64_t delay_ms) {
  if (state_.load() != State::kRunning) return;
  std::weak_ptr<LitePullConsumerImpl> weak = weak_from_this();
  pull_service_.ExecuteLater(delay_ms, [weak, mq, generation, offset] {
    if (auto self = weak.lock()) self->PullOnce(mq, generation, offset);
  });
}

void LitePullConsumerImpl::PullOnce(const protocol::MessageQueue& mq, uint64_t generation,
                                    int64_t offset) {
  bool paused = false;
  std::shared_ptr<ProcessQueue> pq = Current(mq, generation, &paused);
  if (!pq || state_.load() != State::kRunning) return;
  pq->set_last_pull_timestamp(NowMillis());
  if (paused) {
    PullLater(mq, generation, offset, kPullTimeDelayMillsWhenSuspend);
    return;
  }
  if (pq->msg_count() > config_.pull_threshold_for_queue) {
    PullLater(mq, generation, offset, kPullTimeDelayMillsWhenFlowControl);
    return;
  }
  auto found = instance_->FindBrokerAddressInSubscribe(mq.broker_name, protocol::kMasterId, false);
  if (!found) {
    (void)instance_->UpdateTopicRouteInfoFromNameServer(mq.topic);
    found = instance_->FindBrokerAddressInSubscribe(mq.broker_name, protocol::kMasterId, false);
  }
  if (!found) {
    PullLater(mq, generation, offset, kPullTimeDelayMillsWhenException);
    return;
  }
  const protocol::SubscriptionData sub = SubscriptionFor(mq.topic);
  protocol::PullMessageRequestHeader header;
  header.consumer_group = config_.group;
  header.topic = mq.topic;
  header.queue_id = mq.queue_id;
  header.queue_offset = offset;
  header.max_msg_nums = config_.pull_batch_size;
  header.sys_flag =
      protocol::BuildPullSysFlag(false, true, true, false) | protocol::kPullFlagLitePull;
  header.commit_offset = 0;
  header.suspend_timeout_millis = kLitePullSuspendMillis;
  header.subscription = sub.sub_string;
  header.sub_version = sub.sub_version;
  header.expression_type = sub.expression_type;
  std::weak_ptr<LitePullConsumerImpl> weak = weak_from_this();
  instance_->api().PullMessageAsync(
      found->broker_addr, header, Millis(kLitePullTimeoutMillis),
      [weak, mq, generation, offset, sub](Result<PullResponse> response) {
        auto self = weak.lock();
        if (!self || self->state_.load() != State::kRunning) return;
        std::shared_ptr<ProcessQueue> pq = self->Current(mq, generation, nullptr);
        if (!pq) return;
        if (!response.ok()) {
          GetLogger("client")->warn("lite pull {} from {}: {}", protocol::ToString(mq), offset,
                                    response.status().ToString());
          self->PullLater(mq, generation, offset, kPullTimeDelayMillsWhenException);
          return;
        }
        auto result = ProcessPullResponse(*response, mq, sub);
        if (!result.ok()) {
          self->PullLater(mq, generation, offset, kPullTimeDelayMillsWhenException);
          return;
        }
        if (result->status == PullStatus::kFound && !result->msgs.empty()) {
          pq->PutMessages(result->msgs);
          {
            std::lock_guard lock(self->mu_);
            self->buffer_.push_back(Batch{mq, pq, generation, std::move(result->msgs)});
          }
          self->cv_.notify_all();
        }
        self->PullLater(mq, generation, result->next_begin_offset, 0);
      });
}

std::vector<MessageExt> LitePullConsumerImpl::Poll(int64_t timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  std::unique_lock lock(mu_);
  while (state_.load() == State::kRunning) {
    while (!buffer_.empty()) {
      Batch batch = std::move(buffer_.front());
      buffer_.pop_front();
      auto it = queues_.find(batch.mq);
      if (it == queues_.end() || it->second.generation != batch.generation || batch.pq->dropped()) {
        continue;  // seeked or rebalanced away since it was pulled
      }
      const int64_t offset = batch.pq->RemoveMessages(batch.msgs);
      lock.unlock();
      if (offset >= 0) offset_store_->UpdateOffset(batch.mq, offset, false);
      return std::move(batch.msgs);
    }
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && buffer_.empty()) break;
  }
  return {};
}

Result<int64_t> LitePullConsumerImpl::MinOrMaxOffset(const protocol::MessageQueue& mq, bool max) {
  APOGEE_ASSIGN_OR_RETURN(std::string addr, access_->MasterAddress(mq.broker_name, mq.topic));
  return max ? instance_->api().GetMaxOffset(addr, mq.topic, mq.queue_id, instance_->api_timeout())
             : instance_->api().GetMinOffset(addr, mq.topic, mq.queue_id, instance_->api_timeout());
}

Status LitePullConsumerImpl::Seek(const protocol::MessageQueue& mq, int64_t offset) {
  if (state_.load() != State::kRunning)
    return Status::InvalidArgument("lite pull: Seek before Start()");
  if (HeldQueues().count(mq) == 0) {
    return Status::InvalidArgument("lite pull: seek " + protocol::ToString(mq) +
                                   ": queue not held by this consumer");
  }
  APOGEE_ASSIGN_OR_RETURN(int64_t min, MinOrMaxOffset(mq, false));
  APOGEE_ASSIGN_OR_RETURN(int64_t max, MinOrMaxOffset(mq, true));
  if (offset < min || offset > max) {
    return Status::InvalidArgument("lite pull: seek " + protocol::ToString(mq) + " to " +
                                   std::to_string(offset) + ": outside [" + std::to_string(min) +
                                   ", " + std::to_string(max) + "]");
  }
  std::shared_ptr<ProcessQueue> pq;
  {
    std::lock_guard lock(mu_);
    pq = queues_[mq].pq;
  }
  pq->Clear();
  StartQueue(mq, pq, offset);
  return Status::OK();
}

void LitePullConsumerImpl::SetPaused(const std::vector<protocol::MessageQueue>& queues,
                                     bool paused) {
  std::lock_guard lock(mu_);
  for (const auto& mq : queues) {
    auto it = queues_.find(mq);
    if (it != queues_.end()) it->second.paused = paused;
  }
}

Status LitePullConsumerImpl::CommitSync() {
  if (state_.load() != State::kRunning) return Status::InvalidArgument("lite pull: not running");
  Status first_error;
  for (const auto& [mq, offset] : offset_store_->CloneOffsetTable("")) {
    if (HeldQueues().count(mq) == 0) continue;
    Status s = offset_store_->UpdateConsumeOffsetToBroker(mq, offset, /*oneway=*/false);
    if (!s.ok() && first_error.ok()) first_error = s;
  }
  if (MessageModel() == protocol::MessageModel::kBroadcasting)
    offset_store_->PersistAll(HeldQueues());
  return first_error;
}

Result<int64_t> LitePullConsumerImpl::Committed(const protocol::MessageQueue& mq) {
  if (state_.load() != State::kRunning) return Status::InvalidArgument("lite pull: not running");
  return offset_store_->ReadOffset(mq, ReadOffsetType::kReadFromStore);
}

Result<std::vector<protocol::MessageQueue>> LitePullConsumerImpl::FetchMessageQueues(
    const std::string& topic) {
  if (!instance_) return Status::InvalidArgument("lite pull: FetchMessageQueues before Start()");
  APOGEE_ASSIGN_OR_RETURN(auto mqs, instance_->FetchSubscribeMessageQueues(topic));
  return std::vector<protocol::MessageQueue>(mqs.begin(), mqs.end());
}

}  // namespace apogee::client
