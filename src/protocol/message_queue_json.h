// MessageQueue as a JSON object, {"brokerName":..,"queueId":..,"topic":..} in fastjson's
// (sorted) key order: the one reader and writer every body codec embedding queues uses
// (lock bodies, admin statistics, reset-offset bodies). Internal to the protocol module.
#pragma once

#include <string_view>

#include "base/status.h"
#include "protocol/json_util.h"
#include "protocol/lock_batch_body.h"

namespace apogee::protocol::json {

void WriteMessageQueue(Writer& w, const MessageQueue& mq);

// `path` names the object in errors; topic, brokerName and queueId are required.
Result<MessageQueue> ReadMessageQueue(const Value& value, std::string_view path);

}  // namespace apogee::protocol::json
