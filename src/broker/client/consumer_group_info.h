// ConsumerGroupInfo: what the broker knows about one consumer group from its members'
// heartbeats (Java's ConsumerGroupInfo): the member channels, how the group consumes
// (type, model, where from) and its subscriptions per topic. ClientChannelInfo is one
// member connection (Java's ClientChannelInfo), shared with ProducerManager.
//
// Thread-safety: none; ConsumerManager guards every ConsumerGroupInfo with its lock.
// Subscriptions are held as shared_ptr<const SubscriptionData> so the pull path can keep
// one after the lock is released without copying it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/heartbeat_data.h"
#include "protocol/remoting_command.h"
#include "remoting/channel.h"

namespace apogee::broker {

// One client connection of a producer or consumer group.
struct ClientChannelInfo {
  remoting::ChannelPtr channel;
  std::string client_id;
  protocol::LanguageCode language = protocol::LanguageCode::kJava;
  // The client's MQVersion ordinal from its request header.
  int32_t version = 0;
  // Wall-clock ms of the last heartbeat on this channel.
  int64_t last_update_timestamp = 0;

  // The peer "ip:port" (Connection.clientAddr in admin bodies).
  std::string ClientAddress() const { return channel ? channel->RemoteAddress() : std::string(); }
};

class ConsumerGroupInfo {
 public:
  ConsumerGroupInfo(std::string group_name, protocol::ConsumeType consume_type,
                    protocol::MessageModel message_model,
                    protocol::ConsumeFromWhere consume_from_where);

  // Adds the channel or refreshes its timestamp, and takes the group's consume type,
  // model and start point from this heartbeat. True when membership changed: a new
  // channel, or a known channel now reporting another client id.
  bool UpdateChannel(const ClientChannelInfo& info, protocol::ConsumeType consume_type,
                     protocol::MessageModel message_model,
                     protocol::ConsumeFromWhere consume_from_where, int64_t now_millis);

  // Java's updateSubscription: topics new to the group are added and topics the
  // heartbeat no longer lists are removed (both "changed"); a known topic is replaced
  // only by a newer subVersion (not a change: the members need not rebalance).
  bool UpdateSubscription(const std::vector<protocol::SubscriptionData>& subscriptions);

  // Removes the channel; true if it was a member.
  bool RemoveChannel(uint64_t channel_id);

  // Removes members whose last heartbeat is older than now - expired_timeout_millis and
  // returns them (the caller closes their channels).
  std::vector<ClientChannelInfo> RemoveExpiredChannels(int64_t now_millis,
                                                       int64_t expired_timeout_millis);

  std::shared_ptr<const protocol::SubscriptionData> FindSubscriptionData(
      const std::string& topic) const;
  bool HasTopic(const std::string& topic) const { return subscriptions_.count(topic) != 0; }

  // Sorted and de-duplicated: the rebalance input must be the same on every broker.
  std::vector<std::string> AllClientIds() const;
  std::vector<remoting::ChannelPtr> AllChannels() const;
  std::vector<ClientChannelInfo> Channels() const;
  std::optional<ClientChannelInfo> FindChannel(const std::string& client_id) const;
  bool empty() const { return channels_.empty(); }

  const std::string& group_name() const { return group_name_; }
  protocol::ConsumeType consume_type() const { return consume_type_; }
  protocol::MessageModel message_model() const { return message_model_; }
  protocol::ConsumeFromWhere consume_from_where() const { return consume_from_where_; }
  const std::map<std::string, std::shared_ptr<const protocol::SubscriptionData>>& subscriptions()
      const {
    return subscriptions_;
  }
  int64_t last_update_timestamp() const { return last_update_timestamp_; }

 private:
  std::string group_name_;
  protocol::ConsumeType consume_type_;
  protocol::MessageModel message_model_;
  protocol::ConsumeFromWhere consume_from_where_;
  // Keyed by Channel::id().
  std::map<uint64_t, ClientChannelInfo> channels_;
  // Keyed by topic.
  std::map<std::string, std::shared_ptr<const protocol::SubscriptionData>> subscriptions_;
  int64_t last_update_timestamp_ = 0;
};

}  // namespace apogee::broker
