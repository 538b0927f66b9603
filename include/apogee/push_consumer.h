// PushConsumer: RocketMQ's DefaultMQPushConsumer. Subscribe to topics with a tag
// expression, register one listener, Start(); the consumer then rebalances queues with the
// other members of its group (every 20 s and when the broker says the group changed),
// long-polls each of its queues, hands messages to the listener on its consume threads and
// commits offsets (to the broker in CLUSTERING, to ~/.rocketmq_offsets in BROADCASTING).
//
//   apogee::PushConsumerConfig config;
//   config.client.namesrv_addr = "127.0.0.1:9876";
//   config.group = "my_group";
//   apogee::PushConsumer consumer(config);
//   consumer.Subscribe("TopicTest", "TagA || TagB");
//   consumer.RegisterMessageListener(
//       [](const std::vector<apogee::MessageExt>& msgs, apogee::ConsumeConcurrentlyContext&) {
//         return apogee::ConsumeConcurrentlyStatus::kConsumeSuccess;
//       });
//   apogee::Status s = consumer.Start();
//
// No exception crosses this API; failures come back as Status.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "apogee/client_config.h"
#include "apogee/consume_listener.h"
#include "apogee/message_queue.h"
#include "apogee/status.h"

namespace apogee {

namespace client {
class PushConsumerImpl;
}

enum class MessageModel {
  kClustering,    // the group shares the queues; offsets on the broker
  kBroadcasting,  // every member gets every message; offsets in a local file
};

// Where a group with no committed offset starts (Java's ConsumeFromWhere).
enum class ConsumeFromWhere {
  kLastOffset,   // the queue's end (but 0 on a young queue the broker still holds in memory)
  kFirstOffset,  // the queue's start
  kTimestamp,    // the first message stored at or after consume_timestamp
};

struct PushConsumerConfig {
  ClientConfig client;
  std::string group;
  MessageModel message_model = MessageModel::kClustering;
  ConsumeFromWhere consume_from_where = ConsumeFromWhere::kLastOffset;
  // "yyyyMMddHHmmss" (local time) for kTimestamp; empty means 30 minutes ago.
  std::string consume_timestamp;
  // "AVG" (default), "AVG_BY_CIRCLE" or "CONSISTENT_HASH"; every member must use the same.
  std::string allocate_strategy = "AVG";
  int32_t consume_thread_min = 20;
  int32_t consume_thread_max = 20;
  // Messages per listener call.
  int32_t consume_message_batch_max_size = 1;
  // Messages per pull request.
  int32_t pull_batch_size = 32;
  // Flow control per queue: stop pulling while this many messages / MiB wait unconsumed.
  int32_t pull_threshold_for_queue = 1000;
  int32_t pull_threshold_size_for_queue_mib = 100;
  // Concurrent mode: stop pulling while first and last unconsumed offsets differ by more.
  int32_t consume_concurrently_max_span = 2000;
  // Pause between pulls of one queue (0: pull again at once).
  int64_t pull_interval_ms = 0;
  // Failures before the DLQ: -1 means 16 (concurrent) or unlimited local retries (orderly).
  int32_t max_reconsume_times = -1;
  // Orderly: how long a queue waits after kSuspendCurrentQueueAMoment.
  int64_t suspend_current_queue_time_millis = 1000;
  // BROADCASTING offsets file root; empty means $HOME/.rocketmq_offsets.
  std::string local_offset_store_dir;
};

class PushConsumer {
 public:
  explicit PushConsumer(PushConsumerConfig config);
  ~PushConsumer();  // Shutdown()
  PushConsumer(const PushConsumer&) = delete;
  PushConsumer& operator=(const PushConsumer&) = delete;

  // `expression`: "*" (or empty) for every message, or tags joined by "||". May be called
  // before or after Start(). InvalidArgument for an empty topic.
  Status Subscribe(const std::string& topic, const std::string& expression);
  void Unsubscribe(const std::string& topic);

  // Exactly one listener, before Start().
  void RegisterMessageListener(MessageListenerConcurrently listener);
  void RegisterMessageListener(MessageListenerOrderly listener);

  // InvalidArgument when the group or the listener is missing, or the config is out of range.
  Status Start();
  // Persists offsets, releases orderly queue locks, unregisters from the brokers. Idempotent.
  void Shutdown();

  // Stop / resume pulling (Java's suspend/resume).
  void Suspend();
  void Resume();

  // clientIP@instanceName as the brokers see it (after Start()).
  std::string client_id() const;
  // The queues this member holds right now.
  std::set<MessageQueue> AssignedQueues() const;

 private:
  std::shared_ptr<client::PushConsumerImpl> impl_;
};

}  // namespace apogee
