// The checks the send and pull paths make before touching the store, on Java's PermName bits
// (protocol/perm_name.h). The checks return PermissionDenied whose message
// is the remark Java puts into the NO_PERMISSION response, naming the topic or broker.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "protocol/topic_config.h"

namespace apogee::broker {

struct BrokerSettings;

// Sending to `topic_config` on this broker: OK, or PermissionDenied
// "the broker[<brokerIP1>:<port>] sending message is forbidden" when the broker's write
// permission is wiped, or "the topic[<topic>] sending message is forbidden" when the topic
// is not writeable.
Status CheckSendPermission(const BrokerSettings& settings,
                           const protocol::TopicConfig& topic_config);

// Pulling from `topic_config`: the same with "pulling message is forbidden" and the read bit.
Status CheckPullPermission(const BrokerSettings& settings,
                           const protocol::TopicConfig& topic_config);

// The permission a topic is registered with: its own bits limited by the broker's (Java's
// registerBrokerAll narrows every topic when the broker is not both readable and writable).
int32_t EffectiveTopicPerm(int32_t broker_permission, int32_t topic_perm);

}  // namespace apogee::broker
