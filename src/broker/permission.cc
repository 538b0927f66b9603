#include "broker/permission.h"

#include <fmt/format.h>

#include "broker/broker_config.h"

namespace apogee::broker {

std::string PermToString(int32_t perm) {
  std::string out = "---";
  if (IsReadable(perm)) out[0] = 'R';
  if (IsWriteable(perm)) out[1] = 'W';
  if (IsInherited(perm)) out[2] = 'X';
  return out;
}

bool IsValidPerm(int32_t perm) {
  constexpr int32_t kAll =
      protocol::kPermPriority | protocol::kPermRead | protocol::kPermWrite | protocol::kPermInherit;
  return perm >= 0 && (perm & ~kAll) == 0;
}

Status CheckSendPermission(const BrokerSettings& settings,
                           const protocol::TopicConfig& topic_config) {
  if (!IsWriteable(settings.broker_permission)) {
    return Status::PermissionDenied(
        fmt::format("the broker[{}] sending message is forbidden", settings.BrokerAddr()));
  }
  if (!IsWriteable(topic_config.perm)) {
    return Status::PermissionDenied(
        fmt::format("the topic[{}] sending message is forbidden", topic_config.topic_name));
  }
  return Status::OK();
}

Status CheckPullPermission(const BrokerSettings& settings,
                           const protocol::TopicConfig& topic_config) {
  if (!IsReadable(settings.broker_permission)) {
    return Status::PermissionDenied(
        fmt::format("the broker[{}] pulling message is forbidden", settings.BrokerAddr()));
  }
  if (!IsReadable(topic_config.perm)) {
    return Status::PermissionDenied(
        fmt::format("the topic[{}] pulling message is forbidden", topic_config.topic_name));
  }
  return Status::OK();
}

int32_t EffectiveTopicPerm(int32_t broker_permission, int32_t topic_perm) {
  if (IsReadable(broker_permission) && IsWriteable(broker_permission)) return topic_perm;
  return topic_perm & broker_permission;
}

}  // namespace apogee::broker
