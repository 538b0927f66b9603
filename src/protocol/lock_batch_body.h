// Queue-locking bodies of LOCK_BATCH_MQ (41) and UNLOCK_BATCH_MQ (42), and the
// MessageQueue they carry (RQ:rp/body/LockBatchRequestBody.java, UnlockBatchRequestBody.java,
// LockBatchResponseBody.java, RQ:cm/message/MessageQueue.java; docs/protocol/remoting.md §7.7).
//
// The C++ client sends only consumerGroup, clientId and mqSet; Java 5.x adds
// onlyThisBroker. Every client reads lockOKMQSet.
#pragma once

#include <compare>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::protocol {

// {"brokerName":string,"queueId":int,"topic":string}. Ordered as Java's
// MessageQueue.compareTo: topic, then brokerName, then queueId.
struct MessageQueue {
  std::string topic;
  std::string broker_name;
  int32_t queue_id = 0;

  auto operator<=>(const MessageQueue&) const = default;
  bool operator==(const MessageQueue&) const = default;
};

// "MessageQueue [topic=T, brokerName=B, queueId=0]", Java's toString, for logs.
std::string ToString(const MessageQueue& mq);

struct LockBatchRequestBody {
  std::string consumer_group;
  std::string client_id;
  bool only_this_broker = false;  // 5.x
  std::set<MessageQueue> mq_set;

  bool operator==(const LockBatchRequestBody&) const = default;
};

// Same keys as the lock request (Java has two classes with one shape).
using UnlockBatchRequestBody = LockBatchRequestBody;

struct LockBatchResponseBody {
  std::set<MessageQueue> lock_ok_mq_set;

  bool operator==(const LockBatchResponseBody&) const = default;
};

// Corruption naming the field on bad input; a missing mqSet is empty.
Result<LockBatchRequestBody> DecodeLockBatchRequestBody(std::string_view json);
std::string EncodeLockBatchRequestBody(const LockBatchRequestBody& body);
Result<LockBatchResponseBody> DecodeLockBatchResponseBody(std::string_view json);
std::string EncodeLockBatchResponseBody(const LockBatchResponseBody& body);

// One MessageQueue as a JSON object (for bodies of other files that embed queues).
std::string EncodeMessageQueue(const MessageQueue& mq);
Result<MessageQueue> DecodeMessageQueue(std::string_view json);

}  // namespace apogee::protocol
