// SendMessageBackProcessor: CONSUMER_SEND_MSG_BACK (36), a consumer handing back a message
// it failed to consume (Java's AbstractSendMessageProcessor.consumerSendMsgBack;
// docs/protocol/store_ha.md §8.1, docs/protocol/remoting.md §5.2.4).
//
// The message is re-read by its CommitLog offset and stored again:
//   * into %RETRY%<group> (created with the group's retryQueueNums, perm READ|WRITE; random
//     queue) with DELAY = the asked level, or 3 + reconsumeTimes when it is 0, so it is
//     parked in SCHEDULE_TOPIC_XXXX and appears in the retry topic after that delay;
//   * into %DLQ%<group> (1 queue, perm WRITE only: nobody consumes a DLQ by accident)
//     undelayed, once reconsumeTimes reached the max (header maxReconsumeTimes for request
//     version >= V3_4_9, else the group's retryMaxTimes) or when delayLevel < 0.
// Either way: same body, flag, sysFlag, born time/host and properties, RETRY_TOPIC = the
// original topic unless set, ORIGIN_MESSAGE_ID = the existing one or the offset msgId,
// reconsumeTimes + 1, WAIT=false.
//
// Refusals: SUBSCRIPTION_GROUP_NOT_EXIST (group unknown), NO_PERMISSION (broker or retry
// topic not writable), SYSTEM_ERROR (message not found, store refused). retryQueueNums <= 0
// answers SUCCESS and drops the message, as Java.
//
// Thread-safety: ProcessRequest may run concurrently; the answer is sent from the store's
// put callback.
//
// Dependencies: exactly the members of Deps (filled by CreateScheduleProcessors).
#pragma once

#include "remoting/request_processor.h"
#include "store/delay_level_table.h"

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::broker {

class BrokerConfig;
class BrokerStatsManager;
class SubscriptionGroupManager;
class TopicConfigManager;

class SendMessageBackProcessor : public remoting::RequestProcessor {
 public:
  // What the processor uses; every pointer must outlive it.
  struct Deps {
    const BrokerConfig* config = nullptr;  // settings and messageDelayLevel
    store::MessageStore* store = nullptr;  // re-reads the message, stores the copy
    SubscriptionGroupManager* groups = nullptr;  // retryMaxTimes, retryQueueNums
    TopicConfigManager* topics = nullptr;        // creates %RETRY% and %DLQ% topics
    BrokerStatsManager* stats = nullptr;         // null: nothing is counted
  };

  explicit SendMessageBackProcessor(const Deps& deps);

  void ProcessRequest(protocol::RemotingCommand request, remoting::Responder responder) override;

 private:
  const Deps deps_;
  store::DelayLevelTable delay_levels_;
};

}  // namespace apogee::broker
