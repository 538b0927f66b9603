// Implements include/apogee/message_queue.h and include/apogee/send_result.h.
#include "apogee/message_queue.h"

#include <fmt/format.h>

#include "apogee/send_result.h"

namespace apogee {

std::string MessageQueue::ToString() const {
  return fmt::format("MessageQueue [topic={}, brokerName={}, queueId={}]", topic_, broker_name_,
                     queue_id_);
}

std::string_view SendStatusName(SendStatus status) {
  switch (status) {
    case SendStatus::kSendOk:
      return "SEND_OK";
    case SendStatus::kFlushDiskTimeout:
      return "FLUSH_DISK_TIMEOUT";
    case SendStatus::kFlushSlaveTimeout:
      return "FLUSH_SLAVE_TIMEOUT";
    case SendStatus::kSlaveNotAvailable:
      return "SLAVE_NOT_AVAILABLE";
  }
  return "UNKNOWN";
}

std::string SendResult::ToString() const {
  return fmt::format(
      "SendResult [sendStatus={}, msgId={}, offsetMsgId={}, messageQueue={}, queueOffset={}]",
      SendStatusName(send_status), msg_id, offset_msg_id, message_queue.ToString(), queue_offset);
}

}  // namespace apogee
