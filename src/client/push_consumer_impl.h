// PushConsumerImpl (Java's DefaultMQPushConsumerImpl): the engine behind apogee::PushConsumer.
//
// Pieces: a ClientInstance (routes, heartbeats, the 20 s rebalance and 5 s offset-persist
// timers, broker-initiated requests), a RebalanceImpl deciding which queues this member
// owns, an OffsetStore (broker in CLUSTERING, local file in BROADCASTING), a
// PullMessageService (DelayedTaskRunner) issuing one long-polling PULL_MESSAGE per owned
// queue at a time, and a ConsumeMessageService (concurrent or orderly) running the
// listener.
//
// Pull loop per queue (PullMessage): skip while suspended or over the flow-control limits
// (retry in 50 ms), orderly queues wait for their broker lock, then an async pull with the
// subscription, suspend 15 s, RPC timeout 30 s; FOUND feeds the ProcessQueue and the
// consume service, NO_NEW_MSG / NO_MATCHED_MSG pull again at once, OFFSET_ILLEGAL moves the
// offset to nextBeginOffset and drops the queue (rebalance takes it back), errors retry
// after 3 s.
//
// Thread-safety: public methods may be called from any thread. Async callbacks hold only a
// weak reference, so the object may be destroyed with pulls in flight.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "apogee/push_consumer.h"
#include "client/client_instance.h"
#include "client/consume_message_service.h"
#include "client/consume_scheduler.h"
#include "client/consumer_broker_access.h"
#include "client/consumer_inner.h"
#include "client/offset_store.h"
#include "client/rebalance_impl.h"

namespace apogee::client {

// Java's delays (DefaultMQPushConsumerImpl).
inline constexpr int64_t kPullTimeDelayMillsWhenException = 3000;
inline constexpr int64_t kPullTimeDelayMillsWhenFlowControl = 50;
inline constexpr int64_t kPullTimeDelayMillsWhenSuspend = 1000;

class PushConsumerImpl final : public ConsumerInner,
                               public RebalanceDelegate,
                               public ConsumeServiceHost,
                               public std::enable_shared_from_this<PushConsumerImpl> {
 public:
  explicit PushConsumerImpl(PushConsumerConfig config);
  ~PushConsumerImpl() override;

  Status Subscribe(const std::string& topic, const std::string& expression);
  void Unsubscribe(const std::string& topic);
  void RegisterMessageListener(MessageListenerConcurrently listener);
  void RegisterMessageListener(MessageListenerOrderly listener);
  Status Start();
  void Shutdown();
  void Suspend() { paused_.store(true); }
  void Resume() { paused_.store(false); }
  std::string client_id() const;
  std::set<protocol::MessageQueue> AssignedQueues() const;

  // ---- ConsumerInner ----
  std::string GroupName() const override { return config_.group; }
  protocol::MessageModel MessageModel() const override;
  protocol::ConsumeType ConsumeType() const override {
    return protocol::ConsumeType::kConsumePassively;
  }
  protocol::ConsumeFromWhere ConsumeFromWhere() const override;
  std::vector<protocol::SubscriptionData> Subscriptions() const override;
  void DoRebalance() override;
  void PersistConsumerOffset() override;
  void UpdateTopicSubscribeInfo(const std::string& topic,
                                const std::set<protocol::MessageQueue>& info) override;
  bool IsSubscribeTopicNeedUpdate(const std::string& topic) const override;
  void ResetOffset(const std::string& topic,
                   const std::map<protocol::MessageQueue, int64_t>& offsets) override;
  Result<std::string> ConsumerRunningInfo(bool jstack) override;
  Result<std::string> ConsumeMessageDirectly(const message::MessageExt& msg,
                                             const std::string& broker_name) override;

  // ---- RebalanceDelegate ----
  bool RemoveUnnecessaryMessageQueue(const protocol::MessageQueue& mq, ProcessQueue& pq) override;
  void RemoveDirtyOffset(const protocol::MessageQueue& mq) override;
  int64_t ComputePullFromWhere(const protocol::MessageQueue& mq) override;
  void DispatchPullRequests(std::vector<PullRequest> requests) override;

  // ---- ConsumeServiceHost ----
  const std::string& ConsumerGroup() const override { return config_.group; }
  bool IsBroadcasting() const override {
    return config_.message_model == apogee::MessageModel::kBroadcasting;
  }
  OffsetStore& GetOffsetStore() override { return *offset_store_; }
  RebalanceImpl& GetRebalance() override { return *rebalance_; }
  bool SendMessageBack(const MessageExt& msg, int32_t delay_level,
                       const std::string& broker_name) override;
  int32_t MaxReconsumeTimes(bool orderly) const override;

  // One pull of `request`'s queue (Java's pullMessage).
  void PullMessage(PullRequest request);

 private:
  enum class State { kCreated, kRunning, kShutdown };

  void ExecutePullRequestLater(PullRequest request, int64_t delay_ms);
  void ExecutePullRequestImmediately(PullRequest request);
  void OnPullResult(PullRequest request, const protocol::SubscriptionData& sub,
                    Result<PullResponse> response);
  Result<std::string> MasterAddress(const protocol::MessageQueue& mq);
  bool SendBackBySending(const MessageExt& msg, const std::string& broker_name);
  int64_t ConsumeTimestampMillis() const;
  Status CheckConfig() const;

  PushConsumerConfig config_;
  std::atomic<State> state_{State::kCreated};
  std::atomic<bool> paused_{false};
  int64_t start_timestamp_ = 0;

  mutable std::mutex mu_;
  std::map<std::string, std::string> pending_subscriptions_;    // before Start, guarded by mu_
  std::map<protocol::MessageQueue, int64_t> suggested_broker_;  // guarded by mu_
  MessageListenerConcurrently concurrent_listener_;
  MessageListenerOrderly orderly_listener_;

  std::shared_ptr<ClientInstance> instance_;
  std::shared_ptr<ConsumerBrokerAccess> access_;
  std::unique_ptr<RebalanceImpl> rebalance_;
  std::unique_ptr<OffsetStore> offset_store_;
  std::unique_ptr<ConsumeMessageService> consume_service_;
  DelayedTaskRunner pull_service_{"PullMessageService"};
};

// "yyyyMMddHHmmss" in local time -> epoch ms; InvalidArgument naming the text otherwise.
Result<int64_t> ParseConsumeTimestamp(std::string_view text);

}  // namespace apogee::client
