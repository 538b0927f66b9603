// MessageQueue: one queue of a topic on one broker set, as Java's
// org.apache.rocketmq.common.message.MessageQueue. Ordered as Java's compareTo: topic, then
// brokerName, then queueId (every client sorts queues this way before allocating them).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace apogee {

class MessageQueue {
 public:
  MessageQueue() = default;
  MessageQueue(std::string topic, std::string broker_name, int32_t queue_id)
      : topic_(std::move(topic)), broker_name_(std::move(broker_name)), queue_id_(queue_id) {}

  const std::string& topic() const { return topic_; }
  const std::string& broker_name() const { return broker_name_; }
  int32_t queue_id() const { return queue_id_; }

  // "MessageQueue [topic=T, brokerName=B, queueId=0]", Java's toString (also the key the
  // consistent-hash allocation hashes).
  std::string ToString() const;

  auto operator<=>(const MessageQueue&) const = default;
  bool operator==(const MessageQueue&) const = default;

 private:
  std::string topic_;
  std::string broker_name_;
  int32_t queue_id_ = 0;
};

}  // namespace apogee

template <>
struct std::hash<apogee::MessageQueue> {
  size_t operator()(const apogee::MessageQueue& mq) const noexcept {
    size_t h = std::hash<std::string>()(mq.topic());
    h = h * 31 + std::hash<std::string>()(mq.broker_name());
    return h * 31 + std::hash<int32_t>()(mq.queue_id());
  }
};
