// Producer: sends messages to RocketMQ-compatible brokers (Java's DefaultMQProducer).
//
//   apogee::ProducerConfig config;
//   config.namesrv_addr = "127.0.0.1:9876";
//   config.group_name = "my_group";
//   apogee::Producer producer(config);
//   if (apogee::Status s = producer.Start(); !s.ok()) ...
//   apogee::Result<apogee::SendResult> r = producer.Send(apogee::Message("T", "tagA", "hello"));
//
// Sends pick queues round-robin over every broker set that has the topic, retry a failed
// sync send on another broker set (retry_times_when_send_failed, within one
// send_msg_timeout_ms budget), optionally avoid slow or failing brokers
// (send_latency_fault_enable), zlib-compress bodies of compress_msg_body_over_howmuch bytes
// or more, and stamp every message with a client id (property UNIQ_KEY, SendResult.msg_id).
//
// Errors name what failed, e.g. "No route info of this topic: T, NameServers asked: a, b".
// Thread-safety: every method may be called from any thread once Start() returned OK.
// Callbacks of async sends run on the client's callback threads; they must not block long
// (ProducerConfig::async_send_callback_on_io_thread runs successful ones on the IO thread).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "apogee/client_config.h"
#include "apogee/message.h"
#include "apogee/message_queue.h"
#include "apogee/send_result.h"
#include "apogee/status.h"

namespace apogee {

struct ProducerConfig : ClientConfig {
  std::string group_name = "DEFAULT_PRODUCER";
  // The topic brokers auto-create unknown topics from (createTopicKey).
  std::string create_topic_key = "TBW102";
  int32_t default_topic_queue_nums = 4;
  // Budget of one send, over all its attempts.
  int64_t send_msg_timeout_ms = 3'000;
  // Bodies of at least this many bytes are zlib-compressed (not batches).
  int32_t compress_msg_body_over_howmuch = 4 * 1024;
  int32_t compress_level = 5;
  // Extra attempts of a failed sync send, each on another broker set when there is one.
  int32_t retry_times_when_send_failed = 2;
  int32_t retry_times_when_send_async_failed = 2;
  // Also retry when the broker stored the message but missed its flush/replication policy.
  bool retry_another_broker_when_not_store_ok = false;
  int32_t max_message_size = 4 * 1024 * 1024;
  // Avoid brokers with recent failures or high latency (Java's MQFaultStrategy).
  bool send_latency_fault_enable = false;
  // Apogee only (Java always uses its callback executor): the callback of an async send that
  // succeeded runs on the connection's IO thread, without the hand-off to a callback thread
  // (a wake-up, and allocations freed on another thread than the one that made them). Only
  // for callbacks that never block and never call a synchronous API (which fails on an IO
  // thread); a failed send's callback (which may retry) still runs on a callback thread.
  bool async_send_callback_on_io_thread = false;
};

using SendCallback = std::function<void(Result<SendResult>)>;
// Chooses the queue for one message among the topic's writable queues (Java's
// MessageQueueSelector; capture what Java passes as `arg`). Must return one of `mqs`.
using MessageQueueSelector =
    std::function<MessageQueue(const std::vector<MessageQueue>& mqs, const Message& msg)>;

// Java's SelectMessageQueueByHash: mqs[abs(javaHashCode(key) % size)]. `mqs` must not be empty.
const MessageQueue& SelectMessageQueueByHash(const std::vector<MessageQueue>& mqs,
                                             std::string_view key);

class Producer {
 public:
  explicit Producer(ProducerConfig config);
  ~Producer();  // Shutdown()
  Producer(const Producer&) = delete;
  Producer& operator=(const Producer&) = delete;

  // Joins the client instance of this client id. InvalidArgument for a bad config (no
  // group, no NameServer), AlreadyExists when the group is already used in this client.
  Status Start();
  // Unregisters from the brokers. Idempotent.
  void Shutdown();
  const ProducerConfig& config() const;

  // Sync send with retries on other broker sets.
  Result<SendResult> Send(const Message& msg);
  // To one queue; no retry.
  Result<SendResult> Send(const Message& msg, const MessageQueue& mq);
  // To the queue `selector` picks (orderly sends); no retry.
  Result<SendResult> Send(const Message& msg, const MessageQueueSelector& selector);
  // Orderly by key: every message with the same key goes to the same queue while the
  // topic's queues stay the same (SelectMessageQueueByHash).
  Result<SendResult> SendOrderly(const Message& msg, std::string_view sharding_key);
  // One SEND_BATCH_MESSAGE: all messages of one topic, none delayed, none to %RETRY%.
  Result<SendResult> Send(const std::vector<Message>& batch);
  Result<SendResult> Send(const std::vector<Message>& batch, const MessageQueue& mq);

  // Async send; `callback` gets the result or the error exactly once. Retries on other
  // broker sets up to retry_times_when_send_async_failed times.
  void SendAsync(const Message& msg, SendCallback callback);
  void SendAsync(const Message& msg, const MessageQueue& mq, SendCallback callback);
  void SendAsync(const Message& msg, const MessageQueueSelector& selector, SendCallback callback);

  // Fire and forget: OK once written to the socket.
  Status SendOneway(const Message& msg);
  Status SendOneway(const Message& msg, const MessageQueue& mq);

  // The topic's writable queues (from the NameServer when not cached).
  Result<std::vector<MessageQueue>> FetchPublishMessageQueues(const std::string& topic);

 private:
  friend class TransactionProducer;
  class Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace apogee
