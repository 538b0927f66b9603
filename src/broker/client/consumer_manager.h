// ConsumerManager: every consumer group seen in heartbeats on this broker (Java's
// ConsumerManager). Serves:
//  * the client processors: register / unregister members, channel close, expiry;
//  * the pull processor: FindSubscriptionData(group, topic) (subVersion and tag codes);
//  * GET_CONSUMER_LIST_BY_GROUP: GetAllClientIds (sorted);
//  * the admin processors: GetGroupSnapshot (connections with client id, address,
//    language, version; consume type / model / where; subscriptions), GroupsOfTopic,
//    AllGroups;
//  * ordered consumption: the RebalanceLockManager it owns (LOCK_BATCH_MQ).
//
// Membership changes (a new member, a member gone, the topic set changed) are reported
// to the ConsumerIdsChangeListener after the lock is released, with the group's
// remaining channels; the listener decides whether to send NOTIFY_CONSUMER_IDS_CHANGED.
//
// Thread-safety: every method may be called from any thread (one shared_mutex; readers
// share it). Listener calls happen on the caller's thread, outside the lock.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "broker/client/consumer_group_info.h"
#include "broker/client/rebalance_lock_manager.h"
#include "protocol/heartbeat_data.h"
#include "remoting/channel.h"

namespace apogee::broker {

// Java's ConsumerIdsChangeListener, reduced to the two events the broker acts on.
class ConsumerIdsChangeListener {
 public:
  virtual ~ConsumerIdsChangeListener() = default;
  // The member set or topic set of `group` changed; `channels` are its members now.
  virtual void OnConsumerIdsChanged(const std::string& group,
                                    const std::vector<remoting::ChannelPtr>& channels) = 0;
  // The last member of `group` left; the group is gone from the manager.
  virtual void OnGroupUnregistered(const std::string& group) {}
};

// A copy of one group's state, for admin bodies (ConsumerConnection, consumer progress).
struct ConsumerGroupSnapshot {
  std::string group;
  protocol::ConsumeType consume_type = protocol::ConsumeType::kConsumePassively;
  protocol::MessageModel message_model = protocol::MessageModel::kClustering;
  protocol::ConsumeFromWhere consume_from_where =
      protocol::ConsumeFromWhere::kConsumeFromLastOffset;
  std::vector<ClientChannelInfo> connections;                       // ordered by client id
  std::map<std::string, protocol::SubscriptionData> subscriptions;  // by topic
};

struct ConsumerManagerOptions {
  // channelExpiredTimeout: members silent this long are dropped by ScanNotActiveChannel.
  int64_t channel_expired_timeout_millis = 120'000;
  // rocketmq.broker.rebalance.lockMaxLiveTime.
  int64_t rebalance_lock_max_live_millis = 60'000;
};

class ConsumerManager {
 public:
  // `clock` must outlive the manager; `listener` may be null (no notifications).
  ConsumerManager(Clock* clock, std::shared_ptr<ConsumerIdsChangeListener> listener,
                  ConsumerManagerOptions options = {});
  ConsumerManager(const ConsumerManager&) = delete;
  ConsumerManager& operator=(const ConsumerManager&) = delete;

  // One ConsumerData of a heartbeat. Stamps info.last_update_timestamp with the clock.
  // Returns true when the group changed (and the listener was told).
  bool RegisterConsumer(const std::string& group, ClientChannelInfo info,
                        protocol::ConsumeType consume_type, protocol::MessageModel message_model,
                        protocol::ConsumeFromWhere consume_from_where,
                        const std::vector<protocol::SubscriptionData>& subscriptions);

  // UNREGISTER_CLIENT: removes `channel_id` from `group`. True if it was a member.
  bool UnregisterConsumer(const std::string& group, uint64_t channel_id);

  // The channel closed (or went idle): removed from every group. Returns the groups it
  // left.
  std::vector<std::string> DoChannelCloseEvent(uint64_t channel_id);

  // Drops members silent for channel_expired_timeout_millis, closes their channels and
  // notifies the groups. Returns the number dropped.
  size_t ScanNotActiveChannel();

  // nullptr when the group or the topic is unknown.
  std::shared_ptr<const protocol::SubscriptionData> FindSubscriptionData(
      const std::string& group, const std::string& topic) const;

  // Cheap checks for the pull path (no copies): whether the group has a member, and
  // its message model.
  bool HasGroup(const std::string& group) const;
  std::optional<protocol::MessageModel> GetMessageModel(const std::string& group) const;

  // Sorted client ids of the group's members; empty when the group is unknown.
  std::vector<std::string> GetAllClientIds(const std::string& group) const;
  std::optional<ClientChannelInfo> FindChannel(const std::string& group,
                                               const std::string& client_id) const;
  std::optional<ConsumerGroupSnapshot> GetGroupSnapshot(const std::string& group) const;
  // Groups that subscribe to `topic` now (Java's queryTopicConsumeByWho).
  std::set<std::string> GroupsOfTopic(const std::string& topic) const;
  std::vector<std::string> AllGroups() const;

  RebalanceLockManager& rebalance_lock_manager() { return lock_manager_; }

 private:
  void Notify(const std::string& group, const std::vector<remoting::ChannelPtr>& channels,
              bool unregistered) const;

  Clock* clock_;
  std::shared_ptr<ConsumerIdsChangeListener> listener_;
  ConsumerManagerOptions options_;
  RebalanceLockManager lock_manager_;
  mutable std::shared_mutex mutex_;
  std::map<std::string, ConsumerGroupInfo> groups_;  // GUARDED_BY(mutex_)
};

}  // namespace apogee::broker
