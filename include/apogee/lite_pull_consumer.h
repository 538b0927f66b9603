// LitePullConsumer: RocketMQ's DefaultLitePullConsumer. The application pulls: Poll()
// returns the next batch of messages from the queues this consumer holds, which it either
// gets from the group's rebalance (Subscribe) or chooses itself (Assign). Messages are
// fetched ahead in the background with long-polling pulls, at most pull_threshold_for_queue
// per queue. With auto_commit (default) the offsets of what Poll returned are committed
// every persist interval (5 s) and at shutdown; otherwise call CommitSync().
//
//   apogee::LitePullConsumerConfig config;
//   config.client.namesrv_addr = "127.0.0.1:9876";
//   config.group = "my_group";
//   apogee::LitePullConsumer consumer(config);
//   consumer.Subscribe("TopicTest", "*");
//   consumer.Start();
//   for (const apogee::MessageExt& m : consumer.Poll(1000)) { ... }
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "apogee/client_config.h"
#include "apogee/message.h"
#include "apogee/message_queue.h"
#include "apogee/push_consumer.h"  // MessageModel, ConsumeFromWhere
#include "apogee/status.h"

namespace apogee {

namespace client {
class LitePullConsumerImpl;
}

struct LitePullConsumerConfig {
  ClientConfig client;
  std::string group;
  MessageModel message_model = MessageModel::kClustering;
  ConsumeFromWhere consume_from_where = ConsumeFromWhere::kLastOffset;
  // "yyyyMMddHHmmss" for kTimestamp; empty means 30 minutes before Start().
  std::string consume_timestamp;
  std::string allocate_strategy = "AVG";
  // Messages per pull request and the most one Poll() returns.
  int32_t pull_batch_size = 10;
  int32_t pull_threshold_for_queue = 1000;
  bool auto_commit = true;
  std::string local_offset_store_dir;
};

class LitePullConsumer {
 public:
  explicit LitePullConsumer(LitePullConsumerConfig config);
  ~LitePullConsumer();  // Shutdown()
  LitePullConsumer(const LitePullConsumer&) = delete;
  LitePullConsumer& operator=(const LitePullConsumer&) = delete;

  // Group-managed queues. Not together with Assign.
  Status Subscribe(const std::string& topic, const std::string& expression);
  // Self-chosen queues (no rebalance); may be called again to change them.
  Status Assign(const std::vector<MessageQueue>& queues);

  Status Start();
  void Shutdown();

  // The next batch (up to pull_batch_size, all of one queue), waiting up to timeout_ms; empty
  // when nothing arrived in time.
  std::vector<MessageExt> Poll(int64_t timeout_ms);

  // The next Poll of `mq` starts at `offset` (buffered messages of `mq` are dropped).
  // InvalidArgument when `mq` is not held or the offset is outside [min, max].
  Status Seek(const MessageQueue& mq, int64_t offset);
  Status SeekToBegin(const MessageQueue& mq);
  Status SeekToEnd(const MessageQueue& mq);
  void Pause(const std::vector<MessageQueue>& queues);
  void Resume(const std::vector<MessageQueue>& queues);

  // Sends the offsets of what Poll returned to the broker (or the local file) now.
  Status CommitSync();
  // The offset stored for `mq` (-1 when none).
  Result<int64_t> Committed(const MessageQueue& mq);
  // The readable queues of `topic`, from a fresh route.
  Result<std::vector<MessageQueue>> FetchMessageQueues(const std::string& topic);
  std::set<MessageQueue> Assignment() const;

 private:
  std::shared_ptr<client::LitePullConsumerImpl> impl_;
};

}  // namespace apogee
