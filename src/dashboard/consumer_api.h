// The Consumers page's calls:
//   GET  /api/consumers              every group the NameServer knows through its retry topic
//                                    (%RETRY%<group>): members online, consume TPS, total lag
//   GET  /api/consumer?group=G       per-queue broker / consumer offsets and lag, members,
//                                    subscriptions, the dead-letter queue's size
//   POST /api/consumer/reset         {group, topic, timestamp (ms), force}: resetOffsetByTime
//   POST /api/consumer/redrive       {group, maxCount?}: redriveDlq at every master of %DLQ%<group>
// Total lag = sum over queues of broker offset - consumer offset (as consumerProgress).
#pragma once

#include <string>

#include "admin/admin_client.h"
#include "base/status.h"
#include "dashboard/api_request.h"

namespace apogee::dashboard {

Result<std::string> ConsumersJson(admin::MQAdminClient* admin);
Result<std::string> ConsumerJson(admin::MQAdminClient* admin, const ApiRequest& request);
Result<std::string> ResetConsumerOffsets(admin::MQAdminClient* admin, const ApiRequest& request);
Result<std::string> RedriveDeadLetters(admin::MQAdminClient* admin, const ApiRequest& request);

}  // namespace apogee::dashboard
