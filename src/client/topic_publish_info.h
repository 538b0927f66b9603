// TopicPublishInfo: the queues a producer may write for one topic, derived from its route
// (Java's TopicPublishInfo and MQClientInstance.topicRouteData2TopicPublishInfo /
// topicRouteData2TopicSubscribeInfo), plus Java's round-robin queue choice.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "apogee/message_queue.h"
#include "protocol/lock_batch_body.h"
#include "protocol/route_data.h"

namespace apogee::client {

class TopicPublishInfo {
 public:
  // Write queues of `route`: with orderTopicConf ("brokerA:4;brokerB:4") exactly those, and
  // the topic is an order topic; otherwise for each writable QueueData (sorted by broker
  // name) whose broker set has a master, queue ids 0 .. writeQueueNums-1.
  TopicPublishInfo(std::string topic, protocol::TopicRouteData route);

  const std::string& topic() const { return topic_; }
  bool order_topic() const { return order_topic_; }
  bool ok() const { return !queues_.empty(); }
  const std::vector<MessageQueue>& message_queues() const { return queues_; }
  const protocol::TopicRouteData& route() const { return route_; }

  // Round-robin over all queues (Java's selectOneMessageQueue()).
  const MessageQueue& SelectOneMessageQueue() const;
  // Round-robin, skipping queues of `last_broker_name` when another broker has queues
  // (the retry after a failure goes to another broker set).
  const MessageQueue& SelectOneMessageQueue(std::string_view last_broker_name) const;
  // The next value of the round-robin index (MQFaultStrategy walks the list with it).
  uint32_t NextIndex() const { return send_which_queue_.fetch_add(1, std::memory_order_relaxed) + 1; }
  // writeQueueNums of `broker_name`, or -1 when the topic has no queues there.
  int32_t QueueIdCountOfBroker(std::string_view broker_name) const;

 private:
  std::string topic_;
  protocol::TopicRouteData route_;
  bool order_topic_ = false;
  std::vector<MessageQueue> queues_;
  mutable std::atomic<uint32_t> send_which_queue_;
};

// Readable queues of `route` (Java's topicRouteData2TopicSubscribeInfo): for each readable
// QueueData, queue ids 0 .. readQueueNums-1.
std::set<protocol::MessageQueue> TopicRouteToSubscribeInfo(std::string_view topic,
                                                          const protocol::TopicRouteData& route);

}  // namespace apogee::client
