#include "client/topic_publish_info.h"

#include <algorithm>
#include <random>

#include "base/string_util.h"
#include "protocol/mix_all.h"
#include "protocol/topic_config.h"

namespace apogee::client {

namespace {

uint32_t RandomStart() {
  std::random_device rd;
  return rd();
}

}  // namespace

TopicPublishInfo::TopicPublishInfo(std::string topic, protocol::TopicRouteData route)
    : topic_(std::move(topic)), route_(std::move(route)), send_which_queue_(RandomStart()) {
  if (route_.order_topic_conf && !route_.order_topic_conf->empty()) {
    for (const std::string& item : SplitString(*route_.order_topic_conf, ';', true)) {
      std::vector<std::string> parts = SplitString(item, ':');
      if (parts.size() != 2) continue;
      std::optional<int32_t> nums = ParseInt32(parts[1]);
      if (!nums) continue;
      for (int32_t i = 0; i < *nums; ++i) queues_.emplace_back(topic_, parts[0], i);
    }
    order_topic_ = true;
    return;
  }
  std::vector<protocol::QueueData> queue_datas = route_.queue_datas;
  std::sort(queue_datas.begin(), queue_datas.end(),
            [](const auto& a, const auto& b) { return a.broker_name < b.broker_name; });
  for (const protocol::QueueData& qd : queue_datas) {
    if ((qd.perm & protocol::kPermWrite) == 0) continue;
    auto broker = std::find_if(route_.broker_datas.begin(), route_.broker_datas.end(),
                               [&](const auto& bd) { return bd.broker_name == qd.broker_name; });
    if (broker == route_.broker_datas.end()) continue;
    if (!broker->broker_addrs.contains(protocol::kMasterId)) continue;
    for (int32_t i = 0; i < qd.write_queue_nums; ++i) queues_.emplace_back(topic_, qd.broker_name, i);
  }
}

const MessageQueue& TopicPublishInfo::SelectOneMessageQueue() const {
  return queues_[NextIndex() % queues_.size()];
}

const MessageQueue& TopicPublishInfo::SelectOneMessageQueue(std::string_view last_broker_name) const {
  if (last_broker_name.empty()) return SelectOneMessageQueue();
  for (size_t i = 0; i < queues_.size(); ++i) {
    const MessageQueue& mq = queues_[NextIndex() % queues_.size()];
    if (mq.broker_name() != last_broker_name) return mq;
  }
  return SelectOneMessageQueue();
}

int32_t TopicPublishInfo::QueueIdCountOfBroker(std::string_view broker_name) const {
  for (const protocol::QueueData& qd : route_.queue_datas) {
    if (qd.broker_name == broker_name) return qd.write_queue_nums;
  }
  return -1;
}

std::set<protocol::MessageQueue> TopicRouteToSubscribeInfo(std::string_view topic,
                                                          const protocol::TopicRouteData& route) {
  std::set<protocol::MessageQueue> result;
  for (const protocol::QueueData& qd : route.queue_datas) {
    if ((qd.perm & protocol::kPermRead) == 0) continue;
    for (int32_t i = 0; i < qd.read_queue_nums; ++i) {
      result.insert(protocol::MessageQueue{std::string(topic), qd.broker_name, i});
    }
  }
  return result;
}

}  // namespace apogee::client
