#include "broker/client/consumer_manager.h"

#include <mutex>
#include <utility>

#include "base/logging.h"

namespace apogee::broker {

ConsumerManager::ConsumerManager(Clock* clock, std::shared_ptr<ConsumerIdsChangeListener> listener,
                                 ConsumerManagerOptions options)
    : clock_(clock),
      listener_(std::move(listener)),
      options_(options),
      lock_manager_(clock, options.rebalance_lock_max_live_millis) {}

void ConsumerManager::Notify(const std::string& group,
                             const std::vector<remoting::ChannelPtr>& channels,
                             bool unregistered) const {
  if (listener_ == nullptr) return;
  if (unregistered) listener_->OnGroupUnregistered(group);
  if (!channels.empty()) listener_->OnConsumerIdsChanged(group, channels);
}

bool ConsumerManager::RegisterConsumer(
    const std::string& group, ClientChannelInfo info, protocol::ConsumeType consume_type,
    protocol::MessageModel message_model, protocol::ConsumeFromWhere consume_from_where,
    const std::vector<protocol::SubscriptionData>& subscriptions) {
  const int64_t now = clock_->NowMillis();
  info.last_update_timestamp = now;
  bool changed = false;
  std::vector<remoting::ChannelPtr> channels;
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it =
        groups_.try_emplace(group, group, consume_type, message_model, consume_from_where).first;
    ConsumerGroupInfo& info_of_group = it->second;
    const bool members_changed =
        info_of_group.UpdateChannel(info, consume_type, message_model, consume_from_where, now);
    const bool topics_changed = info_of_group.UpdateSubscription(subscriptions);
    changed = members_changed || topics_changed;
    if (changed) channels = info_of_group.AllChannels();
  }
  if (changed) {
    GetLogger("broker")->info("consumer group {} changed: client {} at {}", group, info.client_id,
                              info.ClientAddress());
    Notify(group, channels, /*unregistered=*/false);
  }
  return changed;
}

bool ConsumerManager::UnregisterConsumer(const std::string& group, uint64_t channel_id) {
  std::vector<remoting::ChannelPtr> channels;
  bool unregistered = false;
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = groups_.find(group);
    if (it == groups_.end() || !it->second.RemoveChannel(channel_id)) return false;
    if (it->second.empty()) {
      groups_.erase(it);
      unregistered = true;
    } else {
      channels = it->second.AllChannels();
    }
  }
  GetLogger("broker")->info("consumer unregistered from group {}{}", group,
                            unregistered ? ", group now empty" : "");
  Notify(group, channels, unregistered);
  return true;
}

std::vector<std::string> ConsumerManager::DoChannelCloseEvent(uint64_t channel_id) {
  std::vector<std::pair<std::string, std::vector<remoting::ChannelPtr>>> changed;
  std::vector<std::string> emptied;
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    for (auto it = groups_.begin(); it != groups_.end();) {
      if (!it->second.RemoveChannel(channel_id)) {
        ++it;
        continue;
      }
      if (it->second.empty()) {
        emptied.push_back(it->first);
        it = groups_.erase(it);
      } else {
        changed.emplace_back(it->first, it->second.AllChannels());
        ++it;
      }
    }
  }
  std::vector<std::string> groups;
  for (const std::string& group : emptied) {
    Notify(group, {}, /*unregistered=*/true);
    groups.push_back(group);
  }
  for (const auto& [group, channels] : changed) {
    Notify(group, channels, /*unregistered=*/false);
    groups.push_back(group);
  }
  return groups;
}

size_t ConsumerManager::ScanNotActiveChannel() {
  const int64_t now = clock_->NowMillis();
  struct Change {
    std::string group;
    std::vector<ClientChannelInfo> expired;
    std::vector<remoting::ChannelPtr> remaining;
    bool unregistered = false;
  };
  std::vector<Change> changes;
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    for (auto it = groups_.begin(); it != groups_.end();) {
      std::vector<ClientChannelInfo> expired =
          it->second.RemoveExpiredChannels(now, options_.channel_expired_timeout_millis);
      if (expired.empty()) {
        ++it;
        continue;
      }
      Change change{it->first, std::move(expired), {}, it->second.empty()};
      if (change.unregistered) {
        it = groups_.erase(it);
      } else {
        change.remaining = it->second.AllChannels();
        ++it;
      }
      changes.push_back(std::move(change));
    }
  }
  size_t dropped = 0;
  for (const Change& change : changes) {
    for (const ClientChannelInfo& info : change.expired) {
      GetLogger("broker")->warn(
          "consumer channel expired, group: {} channel: {} client: {}, silent {} ms", change.group,
          info.ClientAddress(), info.client_id, now - info.last_update_timestamp);
      // The close event finds the channel already gone from this group.
      info.channel->Close();
      ++dropped;
    }
    Notify(change.group, change.remaining, change.unregistered);
  }
  return dropped;
}

std::shared_ptr<const protocol::SubscriptionData> ConsumerManager::FindSubscriptionData(
    const std::string& group, const std::string& topic) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = groups_.find(group);
  return it == groups_.end() ? nullptr : it->second.FindSubscriptionData(topic);
}

bool ConsumerManager::HasGroup(const std::string& group) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return groups_.count(group) != 0;
}

std::optional<protocol::MessageModel> ConsumerManager::GetMessageModel(
    const std::string& group) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = groups_.find(group);
  if (it == groups_.end()) return std::nullopt;
  return it->second.message_model();
}

std::vector<std::string> ConsumerManager::GetAllClientIds(const std::string& group) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = groups_.find(group);
  return it == groups_.end() ? std::vector<std::string>{} : it->second.AllClientIds();
}

std::optional<ClientChannelInfo> ConsumerManager::FindChannel(const std::string& group,
                                                              const std::string& client_id) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = groups_.find(group);
  return it == groups_.end() ? std::nullopt : it->second.FindChannel(client_id);
}

std::optional<ConsumerGroupSnapshot> ConsumerManager::GetGroupSnapshot(
    const std::string& group) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = groups_.find(group);
  if (it == groups_.end()) return std::nullopt;
  const ConsumerGroupInfo& info = it->second;
  ConsumerGroupSnapshot snapshot;
  snapshot.group = group;
  snapshot.consume_type = info.consume_type();
  snapshot.message_model = info.message_model();
  snapshot.consume_from_where = info.consume_from_where();
  snapshot.connections = info.Channels();
  for (const auto& [topic, sub] : info.subscriptions()) snapshot.subscriptions.emplace(topic, *sub);
  return snapshot;
}

std::set<std::string> ConsumerManager::GroupsOfTopic(const std::string& topic) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  std::set<std::string> groups;
  for (const auto& [group, info] : groups_) {
    if (info.HasTopic(topic)) groups.insert(group);
  }
  return groups;
}

std::vector<std::string> ConsumerManager::AllGroups() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  std::vector<std::string> groups;
  for (const auto& [group, info] : groups_) groups.push_back(group);
  return groups;
}

}  // namespace apogee::broker
