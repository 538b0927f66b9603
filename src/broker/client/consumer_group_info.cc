#include "broker/client/consumer_group_info.h"

#include <algorithm>
#include <set>
#include <utility>

#include "base/logging.h"

namespace apogee::broker {

ConsumerGroupInfo::ConsumerGroupInfo(std::string group_name, protocol::ConsumeType consume_type,
                                     protocol::MessageModel message_model,
                                     protocol::ConsumeFromWhere consume_from_where)
    : group_name_(std::move(group_name)),
      consume_type_(consume_type),
      message_model_(message_model),
      consume_from_where_(consume_from_where) {}

bool ConsumerGroupInfo::UpdateChannel(const ClientChannelInfo& info,
                                      protocol::ConsumeType consume_type,
                                      protocol::MessageModel message_model,
                                      protocol::ConsumeFromWhere consume_from_where,
                                      int64_t now_millis) {
  // Java takes these from the latest heartbeat, whichever member sent it.
  consume_type_ = consume_type;
  message_model_ = message_model;
  consume_from_where_ = consume_from_where;
  last_update_timestamp_ = now_millis;

  bool updated = false;
  auto [it, inserted] = channels_.try_emplace(info.channel->id(), info);
  if (inserted) {
    updated = true;
  } else if (it->second.client_id != info.client_id) {
    // One connection now speaks for another client instance: Java logs and replaces.
    GetLogger("broker")->warn("consumer group {}: channel {} changed client id from {} to {}",
                              group_name_, info.ClientAddress(), it->second.client_id,
                              info.client_id);
    it->second = info;
    updated = true;
  }
  it->second.last_update_timestamp = now_millis;
  return updated;
}

bool ConsumerGroupInfo::UpdateSubscription(
    const std::vector<protocol::SubscriptionData>& subscriptions) {
  bool updated = false;
  std::set<std::string> topics;
  for (const protocol::SubscriptionData& sub : subscriptions) {
    topics.insert(sub.topic);
    auto it = subscriptions_.find(sub.topic);
    if (it == subscriptions_.end()) {
      subscriptions_.emplace(sub.topic, std::make_shared<const protocol::SubscriptionData>(sub));
      updated = true;
    } else if (sub.sub_version > it->second->sub_version) {
      it->second = std::make_shared<const protocol::SubscriptionData>(sub);
    }
  }
  for (auto it = subscriptions_.begin(); it != subscriptions_.end();) {
    if (topics.count(it->first) == 0) {
      it = subscriptions_.erase(it);
      updated = true;
    } else {
      ++it;
    }
  }
  return updated;
}

bool ConsumerGroupInfo::RemoveChannel(uint64_t channel_id) {
  return channels_.erase(channel_id) != 0;
}

std::vector<ClientChannelInfo> ConsumerGroupInfo::RemoveExpiredChannels(
    int64_t now_millis, int64_t expired_timeout_millis) {
  std::vector<ClientChannelInfo> expired;
  for (auto it = channels_.begin(); it != channels_.end();) {
    if (now_millis - it->second.last_update_timestamp > expired_timeout_millis) {
      expired.push_back(std::move(it->second));
      it = channels_.erase(it);
    } else {
      ++it;
    }
  }
  return expired;
}

std::shared_ptr<const protocol::SubscriptionData> ConsumerGroupInfo::FindSubscriptionData(
    const std::string& topic) const {
  auto it = subscriptions_.find(topic);
  return it == subscriptions_.end() ? nullptr : it->second;
}

std::vector<std::string> ConsumerGroupInfo::AllClientIds() const {
  std::set<std::string> ids;
  for (const auto& [id, info] : channels_) ids.insert(info.client_id);
  return {ids.begin(), ids.end()};
}

std::vector<remoting::ChannelPtr> ConsumerGroupInfo::AllChannels() const {
  std::vector<remoting::ChannelPtr> channels;
  channels.reserve(channels_.size());
  for (const auto& [id, info] : channels_) channels.push_back(info.channel);
  return channels;
}

std::vector<ClientChannelInfo> ConsumerGroupInfo::Channels() const {
  std::vector<ClientChannelInfo> channels;
  channels.reserve(channels_.size());
  for (const auto& [id, info] : channels_) channels.push_back(info);
  std::stable_sort(channels.begin(), channels.end(),
                   [](const ClientChannelInfo& a, const ClientChannelInfo& b) {
                     return a.client_id < b.client_id;
                   });
  return channels;
}

std::optional<ClientChannelInfo> ConsumerGroupInfo::FindChannel(
    const std::string& client_id) const {
  for (const auto& [id, info] : channels_) {
    if (info.client_id == client_id) return info;
  }
  return std::nullopt;
}

}  // namespace apogee::broker
