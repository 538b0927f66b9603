// ProducerManager: producer group -> member channels, from heartbeats (Java's
// ProducerManager). Serves the admin processors (GetConnections: client id, address,
// language, version per member) and transactions (GetAvailableChannel: a live channel
// of the group for CHECK_TRANSACTION_STATE).
//
// Thread-safety: every method may be called from any thread (one mutex).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "broker/client/consumer_group_info.h"
#include "remoting/channel.h"

namespace apogee::broker {

class ProducerManager {
 public:
  // `clock` must outlive the manager. Members silent for channel_expired_timeout_millis
  // (Java's CHANNEL_EXPIRED_TIMEOUT, 120 s) are dropped by ScanNotActiveChannel.
  explicit ProducerManager(Clock* clock, int64_t channel_expired_timeout_millis = 120'000);
  ProducerManager(const ProducerManager&) = delete;
  ProducerManager& operator=(const ProducerManager&) = delete;

  // Adds the channel to the group or refreshes its timestamp (stamped with the clock).
  void RegisterProducer(const std::string& group, ClientChannelInfo info);
  // UNREGISTER_CLIENT; the group disappears with its last member. True if it was one.
  bool UnregisterProducer(const std::string& group, uint64_t channel_id);
  // The channel closed: removed from every group.
  void DoChannelCloseEvent(uint64_t channel_id);
  // Drops and closes silent members; returns how many.
  size_t ScanNotActiveChannel();

  // Members of the group ordered by client id; nullopt when the group is unknown.
  std::optional<std::vector<ClientChannelInfo>> GetConnections(const std::string& group) const;
  // A live channel of the group, round-robin over calls; null when none.
  remoting::ChannelPtr GetAvailableChannel(const std::string& group);
  // The channel a client id uses, in any group; null when unknown.
  remoting::ChannelPtr FindChannel(const std::string& client_id) const;
  std::vector<std::string> AllGroups() const;

 private:
  Clock* clock_;
  const int64_t channel_expired_timeout_millis_;
  std::atomic<uint64_t> round_robin_{0};
  mutable std::mutex mutex_;
  // group -> Channel::id() -> member.
  std::map<std::string, std::map<uint64_t, ClientChannelInfo>> groups_;  // GUARDED_BY(mutex_)
};

}  // namespace apogee::broker
