// What a consumer does with one PULL_MESSAGE answer (Java's PullAPIWrapper
// .processPullResult and the PullSysFlag bits; docs/protocol/remoting.md §5.3.1): decode the
// records, drop the messages whose tag is not subscribed (the broker filtered by tag hash
// only), stamp MIN_OFFSET / MAX_OFFSET, and report where to pull next.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apogee/message.h"
#include "base/status.h"
#include "client/mq_client_api.h"
#include "protocol/heartbeat_data.h"
#include "protocol/lock_batch_body.h"

namespace apogee::client {

// Java's DefaultMQPushConsumerImpl constants.
inline constexpr int64_t kBrokerSuspendMaxTimeMillis = 15'000;
inline constexpr int64_t kConsumerTimeoutMillisWhenSuspend = 30'000;

enum class PullStatus { kFound, kNoNewMsg, kNoMatchedMsg, kOffsetIllegal };

struct PullResult {
  PullStatus status = PullStatus::kNoNewMsg;
  int64_t next_begin_offset = 0;
  int64_t min_offset = 0;
  int64_t max_offset = 0;
  // kFound only: the messages that pass the exact tag check, in queue order.
  std::vector<MessageExt> msgs;
};

// Corruption naming the queue when the body does not decode; InvalidArgument for a response
// code that is not one of 0/19/20/21.
Result<PullResult> ProcessPullResponse(const PullResponse& response,
                                       const protocol::MessageQueue& mq,
                                       const protocol::SubscriptionData& sub);

}  // namespace apogee::client
