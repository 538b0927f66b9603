// LitePullConsumerImpl (Java's DefaultLitePullConsumerImpl): the engine behind
// apogee::LitePullConsumer. Each held queue has a background pull loop (async long-polling
// PULL_MESSAGE on a DelayedTaskRunner) that fills a shared buffer of batches, bounded per
// queue; Poll() takes the next batch and advances the queue's consumed offset. Seek()
// replaces the queue's ProcessQueue, so batches pulled before the seek are discarded.
// Subscribe mode gets its queues from RebalanceImpl (CONSUME_ACTIVELY); assign mode from
// Assign().
//
// Thread-safety: public methods may be called from any thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "apogee/lite_pull_consumer.h"
#include "client/client_instance.h"
#include "client/consume_scheduler.h"
#include "client/consumer_broker_access.h"
#include "client/consumer_inner.h"
#include "client/offset_store.h"
#include "client/rebalance_impl.h"

namespace apogee::client {

class LitePullConsumerImpl final : public ConsumerInner,
                                   public RebalanceDelegate,
                                   public std::enable_shared_from_this<LitePullConsumerImpl> {
 public:
  explicit LitePullConsumerImpl(LitePullConsumerConfig config);
  ~LitePullConsumerImpl() override;

  Status Subscribe(const std::string& topic, const std::string& expression);
  Status Assign(const std::vector<protocol::MessageQueue>& queues);
  Status Start();
  void Shutdown();
  std::vector<MessageExt> Poll(int64_t timeout_ms);
  Status Seek(const protocol::MessageQueue& mq, int64_t offset);
  Result<int64_t> MinOrMaxOffset(const protocol::MessageQueue& mq, bool max);
  void SetPaused(const std::vector<protocol::MessageQueue>& queues, bool paused);
  Status CommitSync();
  Result<int64_t> Committed(const protocol::MessageQueue& mq);
  Result<std::vector<protocol::MessageQueue>> FetchMessageQueues(const std::string& topic);
  std::set<protocol::MessageQueue> Assignment() const;

  // ---- ConsumerInner ----
  std::string GroupName() const override { return config_.group; }
  protocol::MessageModel MessageModel() const override;
  protocol::ConsumeType ConsumeType() const override {
    return protocol::ConsumeType::kConsumeActively;
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
  void MessageQueueChanged(const std::string& topic, const std::set<protocol::MessageQueue>& mq_all,
                           const std::set<protocol::MessageQueue>& mq_divided) override;
  bool RemoveUnnecessaryMessageQueue(const protocol::MessageQueue& mq, ProcessQueue& pq) override;
  void RemoveDirtyOffset(const protocol::MessageQueue& mq) override;
  int64_t ComputePullFromWhere(const protocol::MessageQueue& mq) override;
  void DispatchPullRequests(std::vector<PullRequest> requests) override;

 private:
  enum class State { kCreated, kRunning, kShutdown };
  struct QueueState {
    std::shared_ptr<ProcessQueue> pq;
    bool paused = false;
    // Bumped by Seek: pull loops and buffered batches of an older generation are stale.
    uint64_t generation = 0;
  };
  struct Batch {
    protocol::MessageQueue mq;
    std::shared_ptr<ProcessQueue> pq;
    uint64_t generation = 0;
    std::vector<MessageExt> msgs;
  };

  // Starts (or restarts, after a seek) the pull loop of `mq` at `offset`.
  void StartQueue(const protocol::MessageQueue& mq, std::shared_ptr<ProcessQueue> pq,
                  int64_t offset);
  void PullLater(const protocol::MessageQueue& mq, uint64_t generation, int64_t offset,
                 int64_t delay_ms);
  void PullOnce(const protocol::MessageQueue& mq, uint64_t generation, int64_t offset);
  // The queue's ProcessQueue when `generation` is still current and the queue not dropped.
  std::shared_ptr<ProcessQueue> Current(const protocol::MessageQueue& mq, uint64_t generation,
                                        bool* paused) const;
  protocol::SubscriptionData SubscriptionFor(const std::string& topic) const;
  std::set<protocol::MessageQueue> HeldQueues() const;

  LitePullConsumerConfig config_;
  std::atomic<State> state_{State::kCreated};
  int64_t start_timestamp_ = 0;
  bool assigned_mode_ = false;  // set before Start

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::string> pending_subscriptions_;  // guarded by mu_
  std::vector<protocol::MessageQueue> pending_assignment_;    // guarded by mu_
  std::map<protocol::MessageQueue, QueueState> queues_;       // guarded by mu_
  std::deque<Batch> buffer_;                                  // guarded by mu_

  std::shared_ptr<ClientInstance> instance_;
  std::shared_ptr<ConsumerBrokerAccess> access_;
  std::unique_ptr<RebalanceImpl> rebalance_;
  std::unique_ptr<OffsetStore> offset_store_;
  DelayedTaskRunner pull_service_{"LitePullService"};
};

}  // namespace apogee::client
