// The Topics page's calls:
//   GET  /api/topics                 every topic the NameServer knows, with its kind
//   GET  /api/topic?topic=T          route (queue data, brokers), per-queue min/max offsets
//                                    and last store time, the groups consuming it
//   POST /api/topic/update           {topic, cluster | brokerAddr, readQueueNums, writeQueueNums, perm}
//                                    UPDATE_AND_CREATE_TOPIC at every master of the cluster
//   POST /api/topic/delete           {topic, cluster} at every master, then at the NameServers
// Broker refusals come back as errors carrying the broker's remark.
#pragma once

#include <string>
#include <string_view>

#include "admin/admin_client.h"
#include "base/status.h"
#include "dashboard/api_request.h"

namespace apogee::dashboard {

Result<std::string> TopicsJson(admin::MQAdminClient* admin);
Result<std::string> TopicJson(admin::MQAdminClient* admin, const ApiRequest& request);
Result<std::string> UpdateTopic(admin::MQAdminClient* admin, const ApiRequest& request);
Result<std::string> DeleteTopic(admin::MQAdminClient* admin, const ApiRequest& request);

// NORMAL, RETRY (%RETRY%...), DLQ (%DLQ%...) or SYSTEM (protocol::IsSystemTopic, i.e.
// RocketMQ's TopicValidator, and the per-cluster / per-broker topics named after clusters
// and brokers, which the Java console takes from the NameServer's system topic list).
std::string_view TopicKind(std::string_view topic, const protocol::ClusterInfo& cluster);

}  // namespace apogee::dashboard
