// ConsumerInner: what a ClientInstance needs from a consumer (Java's MQConsumerInner). Push
// and lite-pull consumers implement it and register with ClientInstance::RegisterConsumer;
// the instance then drives them: heartbeats carry their group and subscriptions, the
// rebalance thread calls DoRebalance every 20 s (at once on NOTIFY_CONSUMER_IDS_CHANGED),
// the scheduler calls PersistConsumerOffset every 5 s, route refreshes call
// UpdateTopicSubscribeInfo, and broker-initiated requests land in ResetOffset,
// ConsumerRunningInfo and ConsumeMessageDirectly.
//
// Thread-safety: every method may be called from the instance's threads (scheduler,
// rebalance, callback executor) concurrently with the consumer's own threads.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "message/message.h"
#include "protocol/heartbeat_data.h"
#include "protocol/lock_batch_body.h"

namespace apogee::client {

class ConsumerInner {
 public:
  virtual ~ConsumerInner() = default;

  virtual std::string GroupName() const = 0;
  virtual protocol::MessageModel MessageModel() const = 0;
  virtual protocol::ConsumeType ConsumeType() const = 0;
  virtual protocol::ConsumeFromWhere ConsumeFromWhere() const = 0;
  // Current subscriptions (including %RETRY%<group> for push consumers in CLUSTERING).
  virtual std::vector<protocol::SubscriptionData> Subscriptions() const = 0;
  virtual bool IsUnitMode() const { return false; }

  virtual void DoRebalance() = 0;
  virtual void PersistConsumerOffset() = 0;
  // The readable queues of `topic` after a route change (Java's updateTopicSubscribeInfo).
  virtual void UpdateTopicSubscribeInfo(const std::string& topic,
                                        const std::set<protocol::MessageQueue>& info) = 0;
  // True when `topic` is subscribed but its queue set is not known yet.
  virtual bool IsSubscribeTopicNeedUpdate(const std::string& topic) const = 0;

  // RESET_CONSUMER_CLIENT_OFFSET: move to these offsets (queues of `topic`).
  virtual void ResetOffset(const std::string& topic,
                           const std::map<protocol::MessageQueue, int64_t>& offsets) = 0;
  // GET_CONSUMER_RUNNING_INFO: the ConsumerRunningInfo JSON body (docs/protocol/remoting.md §7.8).
  virtual Result<std::string> ConsumerRunningInfo(bool jstack) = 0;
  // CONSUME_MESSAGE_DIRECTLY: consume `msg` now and answer the ConsumeMessageDirectlyResult
  // JSON body (§5.4.4).
  virtual Result<std::string> ConsumeMessageDirectly(const message::MessageExt& msg,
                                                     const std::string& broker_name) = 0;
};

}  // namespace apogee::client
