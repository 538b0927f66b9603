// Message listeners of PushConsumer (Java's MessageListenerConcurrently /
// MessageListenerOrderly and their contexts). A listener is called on a consume thread
// with a batch of at most consumeMessageBatchMaxSize messages of one queue.
//
// A listener should not throw; if it does, the batch counts as RECONSUME_LATER
// (concurrently) or SUSPEND_CURRENT_QUEUE_A_MOMENT (orderly), as Java treats an exception.
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <vector>

#include "apogee/message.h"
#include "apogee/message_queue.h"

namespace apogee {

enum class ConsumeConcurrentlyStatus {
  kConsumeSuccess,
  // Redeliver later through %RETRY%<group> (CONSUMER_SEND_MSG_BACK), after the delay level.
  kReconsumeLater,
};

struct ConsumeConcurrentlyContext {
  MessageQueue message_queue;
  // 0: the broker picks 3 + reconsumeTimes; < 0: straight to the DLQ; > 0: that level.
  int32_t delay_level_when_next_consume = 0;
  // With kConsumeSuccess, messages after this index are sent back as failed.
  int32_t ack_index = INT_MAX;
};

using MessageListenerConcurrently = std::function<ConsumeConcurrentlyStatus(
    const std::vector<MessageExt>& msgs, ConsumeConcurrentlyContext& context)>;

enum class ConsumeOrderlyStatus {
  kSuccess,
  // Retry the same messages on this queue after suspendCurrentQueueTimeMillis (the queue
  // stays blocked, preserving order).
  kSuspendCurrentQueueAMoment,
};

struct ConsumeOrderlyContext {
  MessageQueue message_queue;
  // How long to suspend on kSuspendCurrentQueueAMoment; -1 uses the consumer's setting.
  int64_t suspend_current_queue_time_millis = -1;
};

using MessageListenerOrderly = std::function<ConsumeOrderlyStatus(
    const std::vector<MessageExt>& msgs, ConsumeOrderlyContext& context)>;

}  // namespace apogee
