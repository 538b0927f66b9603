#include "broker/client/producer_manager.h"

#include <algorithm>
#include <utility>

#include "base/logging.h"

namespace apogee::broker {

ProducerManager::ProducerManager(Clock* clock, int64_t channel_expired_timeout_millis)
    : clock_(clock), channel_expired_timeout_millis_(channel_expired_timeout_millis) {}

void ProducerManager::RegisterProducer(const std::string& group, ClientChannelInfo info) {
  info.last_update_timestamp = clock_->NowMillis();
  const uint64_t id = info.channel->id();
  std::lock_guard<std::mutex> lock(mutex_);
  auto& members = groups_[group];
  auto [it, inserted] = members.try_emplace(id, info);
  if (inserted) {
    GetLogger("broker")->info("new producer connected, group: {} channel: {} client: {}", group,
                              info.ClientAddress(), info.client_id);
  } else {
    it->second = std::move(info);
  }
}

bool ProducerManager::UnregisterProducer(const std::string& group, uint64_t channel_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = groups_.find(group);
  if (it == groups_.end()) return false;
  const bool removed = it->second.erase(channel_id) != 0;
  if (it->second.empty()) groups_.erase(it);
  return removed;
}

void ProducerManager::DoChannelCloseEvent(uint64_t channel_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = groups_.begin(); it != groups_.end();) {
    it->second.erase(channel_id);
    it = it->second.empty() ? groups_.erase(it) : std::next(it);
  }
}

size_t ProducerManager::ScanNotActiveChannel() {
  const int64_t now = clock_->NowMillis();
  std::vector<std::pair<std::string, ClientChannelInfo>> expired;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto group_it = groups_.begin(); group_it != groups_.end();) {
      auto& members = group_it->second;
      for (auto it = members.begin(); it != members.end();) {
        if (now - it->second.last_update_timestamp > channel_expired_timeout_millis_) {
          expired.emplace_back(group_it->first, std::move(it->second));
          it = members.erase(it);
        } else {
          ++it;
        }
      }
      group_it = members.empty() ? groups_.erase(group_it) : std::next(group_it);
    }
  }
  // Close outside the lock: the close event calls back into DoChannelCloseEvent.
  for (const auto& [group, info] : expired) {
    GetLogger("broker")->warn(
        "producer channel expired, group: {} channel: {} client: {}, silent {} ms", group,
        info.ClientAddress(), info.client_id, now - info.last_update_timestamp);
    info.channel->Close();
  }
  return expired.size();
}

std::optional<std::vector<ClientChannelInfo>> ProducerManager::GetConnections(
    const std::string& group) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = groups_.find(group);
  if (it == groups_.end()) return std::nullopt;
  std::vector<ClientChannelInfo> members;
  for (const auto& [id, info] : it->second) members.push_back(info);
  std::stable_sort(members.begin(), members.end(),
                   [](const ClientChannelInfo& a, const ClientChannelInfo& b) {
                     return a.client_id < b.client_id;
                   });
  return members;
}

remoting::ChannelPtr ProducerManager::GetAvailableChannel(const std::string& group) {
  std::vector<remoting::ChannelPtr> candidates;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = groups_.find(group);
    if (it == groups_.end()) return nullptr;
    for (const auto& [id, info] : it->second) candidates.push_back(info.channel);
  }
  if (candidates.empty()) return nullptr;
  const uint64_t start = round_robin_.fetch_add(1, std::memory_order_relaxed);
  for (size_t i = 0; i < candidates.size(); ++i) {
    const remoting::ChannelPtr& channel = candidates[(start + i) % candidates.size()];
    if (channel->IsActive()) return channel;
  }
  return nullptr;
}

remoting::ChannelPtr ProducerManager::FindChannel(const std::string& client_id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [group, members] : groups_) {
    for (const auto& [id, info] : members) {
      if (info.client_id == client_id) return info.channel;
    }
  }
  return nullptr;
}

std::vector<std::string> ProducerManager::AllGroups() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& [group, members] : groups_) names.push_back(group);
  return names;
}

}  // namespace apogee::broker
