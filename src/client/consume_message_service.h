// The consume side of a push consumer (Java's ConsumeMessageService): pulled messages are
// submitted here, run through the application's listener on the consume threads, and the
// outcome turned into offset commits, send-backs or retries. Two implementations:
// ConsumeMessageConcurrentlyService and ConsumeMessageOrderlyService.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apogee/message.h"
#include "client/offset_store.h"
#include "client/process_queue.h"
#include "client/rebalance_impl.h"

namespace apogee::client {

// What the consume services need from their consumer.
class ConsumeServiceHost {
 public:
  virtual ~ConsumeServiceHost() = default;
  virtual const std::string& ConsumerGroup() const = 0;
  virtual bool IsBroadcasting() const = 0;
  virtual OffsetStore& GetOffsetStore() = 0;
  virtual RebalanceImpl& GetRebalance() = 0;
  // CONSUMER_SEND_MSG_BACK, falling back to a send to %RETRY%<group>; false when both fail.
  virtual bool SendMessageBack(const MessageExt& msg, int32_t delay_level,
                               const std::string& broker_name) = 0;
  // max_reconsume_times with -1 resolved (16 concurrent, INT32_MAX orderly).
  virtual int32_t MaxReconsumeTimes(bool orderly) const = 0;
};

// ConsumeMessageDirectlyResult (docs/protocol/remoting.md §5.4.4).
struct ConsumeDirectlyResult {
  bool order = false;
  bool auto_commit = true;
  std::string consume_result;  // "CR_SUCCESS", "CR_LATER", "CR_THROW_EXCEPTION", ...
  std::string remark;
  int64_t spent_time_millis = 0;
};
std::string EncodeConsumeDirectlyResult(const ConsumeDirectlyResult& result);

class ConsumeMessageService {
 public:
  virtual ~ConsumeMessageService() = default;
  virtual void Start() = 0;
  // Waits for running listeners to return (queued work is dropped).
  virtual void Shutdown() = 0;
  virtual void SubmitConsumeRequest(std::vector<MessageExt> msgs, std::shared_ptr<ProcessQueue> pq,
                                    const protocol::MessageQueue& mq, bool dispatch_to_consume) = 0;
  virtual ConsumeDirectlyResult ConsumeMessageDirectly(const MessageExt& msg,
                                                       const std::string& broker_name) = 0;
  virtual int32_t CorePoolSize() const = 0;
  virtual bool IsOrderly() const = 0;
};

// Java's resetRetryAndNamespace: a message pulled from %RETRY%<group> shows its original
// topic (the RETRY_TOPIC property) to the listener.
void ResetRetryTopic(const std::string& group, MessageExt& msg);

}  // namespace apogee::client
