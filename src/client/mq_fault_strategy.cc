#include "client/mq_fault_strategy.h"

#include <algorithm>
#include <vector>

namespace apogee::client {

int64_t ComputeNotAvailableDuration(int64_t latency_ms) {
  for (size_t i = kLatencyMax.size(); i-- > 0;) {
    if (latency_ms >= kLatencyMax[i]) return kNotAvailableDuration[i];
  }
  return 0;
}

void MQFaultStrategy::UpdateFaultItem(const std::string& broker_name, int64_t latency_ms,
                                      bool isolation) {
  if (!enabled_) return;
  int64_t duration = ComputeNotAvailableDuration(isolation ? kIsolationLatencyMs : latency_ms);
  std::lock_guard<std::mutex> lock(mu_);
  FaultItem& item = items_[broker_name];
  item.current_latency = isolation ? kIsolationLatencyMs : latency_ms;
  item.start_timestamp = clock_->SteadyMillis() + duration;
}

bool MQFaultStrategy::IsAvailable(std::string_view broker_name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = items_.find(broker_name);
  return it == items_.end() || clock_->SteadyMillis() >= it->second.start_timestamp;
}

std::optional<std::string> MQFaultStrategy::PickOneAtLeast() {
  std::lock_guard<std::mutex> lock(mu_);
  if (items_.empty()) return std::nullopt;
  int64_t now = clock_->SteadyMillis();
  std::vector<std::pair<std::string, FaultItem>> sorted(items_.begin(), items_.end());
  std::sort(sorted.begin(), sorted.end(), [now](const auto& a, const auto& b) {
    bool a_ok = now >= a.second.start_timestamp;
    bool b_ok = now >= b.second.start_timestamp;
    if (a_ok != b_ok) return a_ok;
    if (a.second.current_latency != b.second.current_latency) {
      return a.second.current_latency < b.second.current_latency;
    }
    return a.second.start_timestamp < b.second.start_timestamp;
  });
  size_t half = sorted.size() / 2;
  if (half == 0) return sorted.front().first;
  return sorted[which_item_worst_++ % half].first;
}

MessageQueue MQFaultStrategy::SelectOneMessageQueue(const TopicPublishInfo& info,
                                                    std::string_view last_broker_name) {
  if (!enabled_) return info.SelectOneMessageQueue(last_broker_name);
  const std::vector<MessageQueue>& queues = info.message_queues();
  // First choice: an available broker other than the one that just failed; then any
  // available broker.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < queues.size(); ++i) {
      const MessageQueue& mq = queues[info.NextIndex() % queues.size()];
      if (pass == 0 && !last_broker_name.empty() && mq.broker_name() == last_broker_name) continue;
      if (IsAvailable(mq.broker_name())) return mq;
    }
  }
  std::optional<std::string> not_best = PickOneAtLeast();
  if (not_best) {
    int32_t write_queue_nums = info.QueueIdCountOfBroker(*not_best);
    if (write_queue_nums > 0) {
      return MessageQueue(info.topic(), *not_best,
                          static_cast<int32_t>(info.NextIndex() % write_queue_nums));
    }
    std::lock_guard<std::mutex> lock(mu_);
    items_.erase(*not_best);
  }
  return info.SelectOneMessageQueue();
}

}  // namespace apogee::client
