// SendResult: what a successful send reports (Java's SendResult). A send the broker stored
// but whose flush or replication policy was not met is still a result, with a status other
// than kSendOk; every other failure is an error Status instead.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "apogee/message_queue.h"

namespace apogee {

// Java's SendStatus, from the broker's response code (0, 10, 12, 11).
enum class SendStatus {
  kSendOk,
  kFlushDiskTimeout,
  kFlushSlaveTimeout,
  kSlaveNotAvailable,
};

// "SEND_OK", "FLUSH_DISK_TIMEOUT", ... as Java prints them.
std::string_view SendStatusName(SendStatus status);

struct SendResult {
  SendStatus send_status = SendStatus::kSendOk;
  // The client id (UNIQ_KEY); comma-joined for a batch.
  std::string msg_id;
  // The broker's offset id (store host + CommitLog offset); comma-joined for a batch.
  std::string offset_msg_id;
  MessageQueue message_queue;
  // ConsumeQueue offset of the (first) message.
  int64_t queue_offset = 0;
  std::string transaction_id;
  std::string region_id;
  bool trace_on = true;

  // "SendResult [sendStatus=SEND_OK, msgId=..., offsetMsgId=..., messageQueue=...,
  // queueOffset=N]".
  std::string ToString() const;
};

}  // namespace apogee
