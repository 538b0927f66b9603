// RebalanceImpl (Java's RebalanceImpl + the parts of RebalancePushImpl/RebalanceLitePullImpl
// that differ, behind RebalanceDelegate): which queues this consumer owns.
//
// DoRebalance, per subscribed topic: BROADCASTING takes every readable queue; CLUSTERING
// asks a broker for the group's consumer ids, sorts queues (topic, brokerName, queueId) and
// ids (string order) exactly as Java, and keeps what the allocation strategy gives this
// client id. Then the process-queue table is brought in line: queues lost are dropped
// (the delegate persists their offsets and, for orderly consumers, unlocks them); queues
// won get a ProcessQueue, a starting offset from the delegate, and a first PullRequest.
// Orderly consumers only take a queue once its broker lock (LOCK_BATCH_MQ) is granted.
//
// Thread-safety: every method may be called from any thread; DoRebalance calls are
// serialized internally.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "client/allocate_message_queue_strategy.h"
#include "client/process_queue.h"
#include "protocol/heartbeat_data.h"

namespace apogee::client {

struct PullRequest {
  std::string consumer_group;
  protocol::MessageQueue mq;
  std::shared_ptr<ProcessQueue> pq;
  int64_t next_offset = 0;
  // Orderly: the offset was re-read from the store after the lock was first granted.
  bool locked_first = false;
};

// The broker calls rebalance makes; implemented over ClientInstance (consumer_broker_access.h)
// and by fakes in tests.
class RebalanceBrokerAccess {
 public:
  virtual ~RebalanceBrokerAccess() = default;
  virtual std::string ClientId() const = 0;
  // GET_CONSUMER_LIST_BY_GROUP from a broker of `topic`.
  virtual Result<std::vector<std::string>> FindConsumerIdList(const std::string& topic,
                                                              const std::string& group) = 0;
  // LOCK_BATCH_MQ to the master of `broker_name`: the queues now held by this client.
  virtual Result<std::set<protocol::MessageQueue>> LockBatch(
      const std::string& broker_name, const std::string& group,
      const std::set<protocol::MessageQueue>& mqs) = 0;
  virtual Status UnlockBatch(const std::string& broker_name, const std::string& group,
                             const std::set<protocol::MessageQueue>& mqs, bool oneway) = 0;
};

// What differs between push and lite-pull consumers.
class RebalanceDelegate {
 public:
  virtual ~RebalanceDelegate() = default;
  // The owned set of `topic` changed (lite pull updates its assignment here).
  virtual void MessageQueueChanged(const std::string& topic,
                                   const std::set<protocol::MessageQueue>& mq_all,
                                   const std::set<protocol::MessageQueue>& mq_divided) {}
  // `mq` was lost: persist and forget its offset, unlock it (orderly). False keeps it in
  // the table for the next round (an orderly queue still consuming).
  virtual bool RemoveUnnecessaryMessageQueue(const protocol::MessageQueue& mq,
                                             ProcessQueue& pq) = 0;
  // Drops the offset held in memory before a queue is (re)taken.
  virtual void RemoveDirtyOffset(const protocol::MessageQueue& mq) = 0;
  // Where to start pulling a newly owned queue; < 0 skips it this round.
  virtual int64_t ComputePullFromWhere(const protocol::MessageQueue& mq) = 0;
  virtual void DispatchPullRequests(std::vector<PullRequest> requests) = 0;
};

class RebalanceImpl {
 public:
  RebalanceImpl(std::string group, protocol::MessageModel model, protocol::ConsumeType consume_type,
                std::shared_ptr<const AllocateMessageQueueStrategy> strategy,
                std::shared_ptr<RebalanceBrokerAccess> broker, RebalanceDelegate* delegate);

  const std::string& group() const { return group_; }
  protocol::MessageModel message_model() const { return model_; }

  // ---- subscriptions ----
  void SetSubscription(const protocol::SubscriptionData& sub);
  void RemoveSubscription(const std::string& topic);
  std::optional<protocol::SubscriptionData> GetSubscription(const std::string& topic) const;
  std::vector<protocol::SubscriptionData> Subscriptions() const;

  // ---- queues ----
  void UpdateTopicSubscribeInfo(const std::string& topic,
                                const std::set<protocol::MessageQueue>& mqs);
  bool IsSubscribeTopicNeedUpdate(const std::string& topic) const;
  std::optional<std::set<protocol::MessageQueue>> TopicSubscribeInfo(
      const std::string& topic) const;

  void DoRebalance(bool is_order);

  // ---- the process-queue table ----
  std::map<protocol::MessageQueue, std::shared_ptr<ProcessQueue>> ProcessQueueTable() const;
  std::shared_ptr<ProcessQueue> FindProcessQueue(const protocol::MessageQueue& mq) const;
  // Drops `mq` (OFFSET_ILLEGAL, offset reset) through the delegate.
  void RemoveProcessQueue(const protocol::MessageQueue& mq);
  // Drops everything (shutdown).
  void DropAll();

  // ---- orderly locks ----
  bool Lock(const protocol::MessageQueue& mq);
  // Re-locks every owned queue, broker by broker; queues refused are marked unlocked.
  void LockAll();
  void Unlock(const protocol::MessageQueue& mq, bool oneway);
  void UnlockAll(bool oneway);

 private:
  void RebalanceByTopic(const std::string& topic, bool is_order);
  bool UpdateProcessQueueTableInRebalance(const std::string& topic,
                                          const std::set<protocol::MessageQueue>& mq_set,
                                          bool is_order);
  void TruncateMessageQueueNotMyTopic();

  const std::string group_;
  const protocol::MessageModel model_;
  const protocol::ConsumeType consume_type_;
  const std::shared_ptr<const AllocateMessageQueueStrategy> strategy_;
  const std::shared_ptr<RebalanceBrokerAccess> broker_;
  RebalanceDelegate* const delegate_;

  std::mutex rebalance_mu_;  // serializes DoRebalance
  mutable std::mutex mu_;
  std::map<std::string, protocol::SubscriptionData> subscriptions_;               // guarded by mu_
  std::map<std::string, std::set<protocol::MessageQueue>> topic_subscribe_info_;  // guarded by mu_
  std::map<protocol::MessageQueue, std::shared_ptr<ProcessQueue>>
      process_queues_;  // guarded by mu_
};

}  // namespace apogee::client
