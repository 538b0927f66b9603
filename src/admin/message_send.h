// One message sent for mqadmin's sendMessage, through the public Producer (apogee/producer.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/status.h"

namespace apogee::admin {

struct SendRequest {
  std::string topic;
  std::string body;
  std::string keys;  // space-separated; empty = none
  std::string tags;  // empty = none
  // Send to this broker name and queue id; otherwise the producer's round robin picks.
  std::optional<std::pair<std::string, int32_t>> queue;
};

struct SendSummary {
  std::string broker_name;
  int32_t queue_id = 0;
  std::string send_status;  // "SEND_OK", ...
  std::string msg_id;       // the client id (UNIQ_KEY)
  std::string offset_msg_id;
  int64_t queue_offset = 0;
};

// Sends through a short-lived client on `namesrv_addr`.
Result<SendSummary> SendOneMessage(std::string_view namesrv_addr, const SendRequest& request);

}  // namespace apogee::admin
