#include "client/rebalance_impl.h"

#include <algorithm>

#include "base/clock.h"
#include "base/logging.h"
#include "protocol/mix_all.h"

namespace apogee::client {

RebalanceImpl::RebalanceImpl(std::string group, protocol::MessageModel model,
                             protocol::ConsumeType consume_type,
                             std::shared_ptr<const AllocateMessageQueueStrategy> strategy,
                             std::shared_ptr<RebalanceBrokerAccess> broker,
                             RebalanceDelegate* delegate)
    : group_(std::move(group)),
      model_(model),
      consume_type_(consume_type),
      strategy_(std::move(strategy)),
      broker_(std::move(broker)),
      delegate_(delegate) {}

void RebalanceImpl::SetSubscription(const protocol::SubscriptionData& sub) {
  std::lock_guard lock(mu_);
  subscriptions_[sub.topic] = sub;
}

void RebalanceImpl::RemoveSubscription(const std::string& topic) {
  std::lock_guard lock(mu_);
  subscriptions_.erase(topic);
}

std::optional<protocol::SubscriptionData> RebalanceImpl::GetSubscription(
    const std::string& topic) const {
  std::lock_guard lock(mu_);
  auto it = subscriptions_.find(topic);
  if (it == subscriptions_.end()) return std::nullopt;
  return it->second;
}

std::vector<protocol::SubscriptionData> RebalanceImpl::Subscriptions() const {
  std::lock_guard lock(mu_);
  std::vector<protocol::SubscriptionData> out;
  for (const auto& [topic, sub] : subscriptions_) out.push_back(sub);
  return out;
}

void RebalanceImpl::UpdateTopicSubscribeInfo(const std::string& topic,
                                             const std::set<protocol::MessageQueue>& mqs) {
  std::lock_guard lock(mu_);
  if (subscriptions_.count(topic) > 0) topic_subscribe_info_[topic] = mqs;
}

bool RebalanceImpl::IsSubscribeTopicNeedUpdate(const std::string& topic) const {
  std::lock_guard lock(mu_);
  return subscriptions_.count(topic) > 0 && topic_subscribe_info_.count(topic) == 0;
}

std::optional<std::set<protocol::MessageQueue>> RebalanceImpl::TopicSubscribeInfo(
    const std::string& topic) const {
  std::lock_guard lock(mu_);
  auto it = topic_subscribe_info_.find(topic);
  if (it == topic_subscribe_info_.end()) return std::nullopt;
  return it->second;
}

void RebalanceImpl::DoRebalance(bool is_order) {
  std::lock_guard serial(rebalance_mu_);
  std::vector<std::string> topics;
  {
    std::lock_guard lock(mu_);
    for (const auto& [topic, sub] : subscriptions_) topics.push_back(topic);
  }
  for (const std::string& topic : topics) RebalanceByTopic(topic, is_order);
  TruncateMessageQueueNotMyTopic();
}

void RebalanceImpl::RebalanceByTopic(const std::string& topic, bool is_order) {
  auto log = GetLogger("client");
  std::optional<std::set<protocol::MessageQueue>> mq_set = TopicSubscribeInfo(topic);
  if (!mq_set) {
    // Java (clustering) stays quiet about the group's own %RETRY% topic: the broker creates
    // it on the first heartbeat, so a fresh consumer does not know its route at first.
    if (model_ == protocol::MessageModel::kClustering && protocol::IsRetryTopic(topic)) {
      log->debug("rebalance {}: no queues known for topic {} yet", group_, topic);
    } else {
      log->warn("rebalance {}: no queues known for topic {} yet", group_, topic);
    }
    return;
  }
  if (model_ == protocol::MessageModel::kBroadcasting) {
    if (UpdateProcessQueueTableInRebalance(topic, *mq_set, is_order)) {
      delegate_->MessageQueueChanged(topic, *mq_set, *mq_set);
    }
    return;
  }
  Result<std::vector<std::string>> cids = broker_->FindConsumerIdList(topic, group_);
  if (!cids.ok() || cids->empty()) {
    log->warn("rebalance {} topic {}: no consumer id list: {}", group_, topic,
              cids.ok() ? "empty" : cids.status().ToString());
    return;
  }
  // Java sorts both lists so every member computes the same table.
  std::vector<protocol::MessageQueue> mq_all(mq_set->begin(), mq_set->end());
  std::sort(mq_all.begin(), mq_all.end());
  std::vector<std::string> cid_all = std::move(*cids);
  std::sort(cid_all.begin(), cid_all.end());
  const std::string client_id = broker_->ClientId();
  Result<std::vector<protocol::MessageQueue>> allocated =
      strategy_->Allocate(group_, client_id, mq_all, cid_all);
  if (!allocated.ok()) {
    log->error("rebalance {} topic {}: allocate {} failed: {}", group_, topic, strategy_->Name(),
               allocated.status().ToString());
    return;
  }
  std::set<protocol::MessageQueue> divided(allocated->begin(), allocated->end());
  if (UpdateProcessQueueTableInRebalance(topic, divided, is_order)) {
    log->info("rebalance {} topic {} by {}: client {} of {} consumers holds {} of {} queues",
              group_, topic, strategy_->Name(), client_id, cid_all.size(), divided.size(),
              mq_all.size());
    delegate_->MessageQueueChanged(topic, *mq_set, divided);
  }
}

bool RebalanceImpl::UpdateProcessQueueTableInRebalance(
    const std::string& topic, const std::set<protocol::MessageQueue>& mq_set, bool is_order) {
  bool changed = false;
  const int64_t now = NowMillis();
  std::vector<std::pair<protocol::MessageQueue, std::shared_ptr<ProcessQueue>>> owned;
  {
    std::lock_guard lock(mu_);
    for (const auto& entry : process_queues_) {
      if (entry.first.topic == topic) owned.push_back(entry);
    }
  }
  for (const auto& [mq, pq] : owned) {
    const bool lost = mq_set.count(mq) == 0;
    const bool idle = !lost && consume_type_ == protocol::ConsumeType::kConsumePassively &&
                      pq->IsPullExpired(now);
    if (!lost && !idle) continue;
    if (idle) {
      GetLogger("client")->warn("rebalance {}: {} not pulled for {} ms, dropping it", group_,
                                protocol::ToString(mq), now - pq->last_pull_timestamp());
    }
    pq->set_dropped(true);
    if (delegate_->RemoveUnnecessaryMessageQueue(mq, *pq)) {
      std::lock_guard lock(mu_);
      auto it = process_queues_.find(mq);
      if (it != process_queues_.end() && it->second == pq) process_queues_.erase(it);
      changed = true;
    }
  }

  std::vector<PullRequest> requests;
  for (const protocol::MessageQueue& mq : mq_set) {
    {
      std::lock_guard lock(mu_);
      if (process_queues_.count(mq) > 0) continue;
    }
    if (is_order && !Lock(mq)) {
      GetLogger("client")->warn("rebalance {}: {} is locked by another client, not taken yet",
                                group_, protocol::ToString(mq));
      continue;
    }
    delegate_->RemoveDirtyOffset(mq);
    auto pq = std::make_shared<ProcessQueue>();
    pq->set_last_pull_timestamp(now);
    if (is_order) {
      pq->set_locked(true);
      pq->set_last_lock_timestamp(NowMillis());
    }
    const int64_t next_offset = delegate_->ComputePullFromWhere(mq);
    if (next_offset < 0) {
      GetLogger("client")->warn("rebalance {}: no start offset for {} this round", group_,
                                protocol::ToString(mq));
      continue;
    }
    {
      std::lock_guard lock(mu_);
      if (!process_queues_.emplace(mq, pq).second) continue;
    }
    requests.push_back(PullRequest{group_, mq, pq, next_offset, false});
    changed = true;
  }
  if (!requests.empty()) delegate_->DispatchPullRequests(std::move(requests));
  return changed;
}

void RebalanceImpl::TruncateMessageQueueNotMyTopic() {
  std::vector<std::pair<protocol::MessageQueue, std::shared_ptr<ProcessQueue>>> gone;
  {
    std::lock_guard lock(mu_);
    for (auto it = process_queues_.begin(); it != process_queues_.end();) {
      if (subscriptions_.count(it->first.topic) == 0) {
        gone.push_back(*it);
        it = process_queues_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& [mq, pq] : gone) {
    pq->set_dropped(true);
    GetLogger("client")->info("rebalance {}: unsubscribed, dropping {}", group_,
                              protocol::ToString(mq));
  }
}

std::map<protocol::MessageQueue, std::shared_ptr<ProcessQueue>> RebalanceImpl::ProcessQueueTable()
    const {
  std::lock_guard lock(mu_);
  return process_queues_;
}

std::shared_ptr<ProcessQueue> RebalanceImpl::FindProcessQueue(
    const protocol::MessageQueue& mq) const {
  std::lock_guard lock(mu_);
  auto it = process_queues_.find(mq);
  return it == process_queues_.end() ? nullptr : it->second;
}

void RebalanceImpl::RemoveProcessQueue(const protocol::MessageQueue& mq) {
  std::shared_ptr<ProcessQueue> pq;
  {
    std::lock_guard lock(mu_);
    auto it = process_queues_.find(mq);
    if (it == process_queues_.end()) return;
    pq = it->second;
    process_queues_.erase(it);
  }
  pq->set_dropped(true);
  delegate_->RemoveUnnecessaryMessageQueue(mq, *pq);
}

void RebalanceImpl::DropAll() {
  std::lock_guard lock(mu_);
  for (auto& [mq, pq] : process_queues_) pq->set_dropped(true);
  process_queues_.clear();
}

bool RebalanceImpl::Lock(const protocol::MessageQueue& mq) {
  Result<std::set<protocol::MessageQueue>> locked =
      broker_->LockBatch(mq.broker_name, group_, {mq});
  if (!locked.ok()) {
    GetLogger("client")->warn("lock {} for {} failed: {}", protocol::ToString(mq), group_,
                              locked.status().ToString());
    return false;
  }
  const int64_t now = NowMillis();
  for (const protocol::MessageQueue& held : *locked) {
    if (auto pq = FindProcessQueue(held)) {
      pq->set_locked(true);
      pq->set_last_lock_timestamp(now);
    }
  }
  return locked->count(mq) > 0;
}

void RebalanceImpl::LockAll() {
  std::map<std::string, std::set<protocol::MessageQueue>> by_broker;
  for (const auto& [mq, pq] : ProcessQueueTable()) by_broker[mq.broker_name].insert(mq);
  for (const auto& [broker_name, mqs] : by_broker) {
    Result<std::set<protocol::MessageQueue>> locked = broker_->LockBatch(broker_name, group_, mqs);
    if (!locked.ok()) {
      GetLogger("client")->warn("lock {} queues on {} for {} failed: {}", mqs.size(), broker_name,
                                group_, locked.status().ToString());
      continue;
    }
    const int64_t now = NowMillis();
    for (const protocol::MessageQueue& mq : mqs) {
      auto pq = FindProcessQueue(mq);
      if (!pq) continue;
      if (locked->count(mq) > 0) {
        pq->set_locked(true);
        pq->set_last_lock_timestamp(now);
      } else {
        pq->set_locked(false);
      }
    }
  }
}

void RebalanceImpl::Unlock(const protocol::MessageQueue& mq, bool oneway) {
  Status s = broker_->UnlockBatch(mq.broker_name, group_, {mq}, oneway);
  if (!s.ok()) {
    GetLogger("client")->warn("unlock {} for {} failed: {}", protocol::ToString(mq), group_,
                              s.ToString());
  }
}

void RebalanceImpl::UnlockAll(bool oneway) {
  std::map<std::string, std::set<protocol::MessageQueue>> by_broker;
  auto table = ProcessQueueTable();
  for (const auto& [mq, pq] : table) by_broker[mq.broker_name].insert(mq);
  for (const auto& [broker_name, mqs] : by_broker) {
    Status s = broker_->UnlockBatch(broker_name, group_, mqs, oneway);
    if (!s.ok()) {
      GetLogger("client")->warn("unlock {} queues on {} for {} failed: {}", mqs.size(), broker_name,
                                group_, s.ToString());
      continue;
    }
    for (const protocol::MessageQueue& mq : mqs) table[mq]->set_locked(false);
  }
}

}  // namespace apogee::client
