// Topic and broker permission bits (Java's PermName) and the checks the send and pull
// paths make before touching the store. The checks return PermissionDenied whose message
// is the remark Java puts into the NO_PERMISSION response, naming the topic or broker.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "protocol/topic_config.h"

namespace apogee::broker {

struct BrokerSettings;

inline bool IsReadable(int32_t perm) { return (perm & protocol::kPermRead) != 0; }
inline bool IsWriteable(int32_t perm) { return (perm & protocol::kPermWrite) != 0; }
inline bool IsInherited(int32_t perm) { return (perm & protocol::kPermInherit) != 0; }
inline bool IsPriority(int32_t perm) { return (perm & protocol::kPermPriority) != 0; }

// PermName.perm2String: "RWX" with '-' for a missing bit, X = inherit ("RW-" for 6).
std::string PermToString(int32_t perm);

// True when `perm` uses only the four known bits.
bool IsValidPerm(int32_t perm);

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
