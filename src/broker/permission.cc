#include "broker/permission.h"

#include <fmt/format.h>

#include "broker/broker_config.h"
#include "protocol/perm_name.h"

namespace apogee::broker {

Status CheckSendPermission(const BrokerSettings& settings,
                           const protocol::TopicConfig& topic_config) {
  if (!protocol::IsWriteable(settings.broker_permission)) {
    return Status::PermissionDenied(
        fmt::format("the broker[{}] sending message is forbidden", settings.BrokerAddr()));
  }
  if (!protocol::IsWriteable(topic_config.perm)) {
    return Status::PermissionDenied(
        fmt::format("the topic[{}] sending message is forbidden", topic_config.topic_name));
  }
  return Status::OK();
}

Status CheckPullPermission(const BrokerSettings& settings,
                           const protocol::TopicConfig& topic_config) {
  if (!protocol::IsReadable(settings.broker_permission)) {
    return Status::PermissionDenied(
        fmt::format("the broker[{}] pulling message is forbidden", settings.BrokerAddr()));
  }
  if (!protocol::IsReadable(topic_config.perm)) {
    return Status::PermissionDenied(
        fmt::format("the topic[{}] pulling message is forbidden", topic_config.topic_name));
  }
  return Status::OK();
}

int32_t EffectiveTopicPerm(int32_t broker_permission, int32_t topic_perm) {
  if (protocol::IsReadable(broker_permission) && protocol::IsWriteable(broker_permission))
    return topic_perm;
  return topic_perm & broker_permission;
}

}  // namespace apogee::broker
