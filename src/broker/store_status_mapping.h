// The ONE place where the store's outcomes become RocketMQ response codes (Java's
// SendMessageProcessor.handlePutMessageResult and PullMessageProcessor's switch over
// GetMessageStatus; docs/protocol/remoting.md §5.2.1 step 10 and §5.3.1 step 8). The store never
// sees response codes; every processor that answers from a store result goes through here.
//
// Remarks say what happened and, where a person can do something about it, what.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "store/get_status.h"
#include "store/put_status.h"

namespace apogee::broker {

struct ResponseCodeAndRemark {
  int32_t code = 0;
  std::string remark;  // empty: no remark
};

// A completed put. `unwritable_reason` is the store's own explanation of why it refuses
// writes (disk full, fsync failure, shut down), quoted in SERVICE_NOT_AVAILABLE;
// `max_message_size` is quoted in MESSAGE_ILLEGAL.
ResponseCodeAndRemark MapPutStatus(store::PutStatus status, std::string_view unwritable_reason,
                                   int32_t max_message_size);
// The same under broker.conf `strictAckEnable`: a stored message whose flush or replica
// policy was not met (FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT, SLAVE_NOT_AVAILABLE) answers
// SYSTEM_ERROR, which Java's DefaultMQProducerImpl retries (on another broker when it can:
// TOPIC_NOT_EXIST, SERVICE_NOT_AVAILABLE, SYSTEM_ERROR, NO_PERMISSION are its retry codes;
// SYSTEM_BUSY is not), instead of a "sent" result the application rarely checks. The message
// may still be on the master, so a retry can duplicate it (at-least-once, as any retry).
ResponseCodeAndRemark MapPutStatus(store::PutStatus status, std::string_view unwritable_reason,
                                   int32_t max_message_size, bool strict_ack);

// A pull read. `requested_offset` matters for NO_MESSAGE_IN_QUEUE / NO_MATCHED_LOGIC_QUEUE
// (offset 0 on an empty or unknown queue is "nothing yet", any other offset has moved).
// The remark is the store status name, as Java sends it.
ResponseCodeAndRemark MapGetStatus(store::GetStatus status, int64_t requested_offset);

}  // namespace apogee::broker
