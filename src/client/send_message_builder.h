// The producer's request-building steps, kept apart from the send loop so they can be
// tested byte for byte: message validation (Java's Validators.checkMessage and
// DefaultMQProducer.batch checks), UNIQ_KEY stamping, body compression with the sysFlag
// bits Java sets, the batch body, and the SEND_MESSAGE header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apogee/message.h"
#include "apogee/message_queue.h"
#include "apogee/producer.h"
#include "base/status.h"
#include "message/message.h"
#include "message/uniq_key.h"
#include "protocol/send_headers.h"

namespace apogee::client {

// InvalidArgument naming the rule broken: topic empty, over 127 chars, with characters
// outside [%|A-Za-z0-9_-], or a system topic clients may not send to; body empty or over
// `max_message_size`.
Status CheckMessage(const Message& msg, int32_t max_message_size);

// A message ready to go on the wire, built once and reused by every attempt of a send.
struct PreparedMessage {
  std::string topic;
  int32_t flag = 0;
  int32_t sys_flag = 0;
  std::string properties;  // encoded
  std::string body;        // possibly compressed; the batch body for a batch
  bool batch = false;
  // UNIQ_KEY (comma-joined for a batch): what SendResult.msg_id reports.
  std::string client_msg_id;
  // %RETRY% sends carry these in the header instead of properties (Java's sendKernelImpl).
  std::optional<int32_t> reconsume_times;
  std::optional<int32_t> max_reconsume_times;
};

// One message: UNIQ_KEY added unless set, body compressed when at least
// compress_msg_body_over_howmuch bytes (sysFlag compressed + zlib type bits), prepared
// transaction type when property TRAN_MSG is "true".
Result<PreparedMessage> PrepareMessage(const Message& msg, const ProducerConfig& config,
                                       message::UniqKeyGenerator& ids);
// The same into `out`, whose strings keep their capacity (a pooled async send reuses them);
// every field of `out` is set. On an error `out` is left partly written.
Status PrepareMessageInto(const Message& msg, const ProducerConfig& config,
                          message::UniqKeyGenerator& ids, PreparedMessage* out);

// A batch (Java's DefaultMQProducer.batch + MessageBatch.encode): InvalidArgument for an
// empty list, mixed topics, a delayed message, a %RETRY% topic, mixed WAIT settings, or an
// encoded body over max_message_size. Each message gets its own UNIQ_KEY; the batch's own
// properties are WAIT only; bodies are not compressed.
Result<PreparedMessage> PrepareBatch(const std::vector<Message>& msgs, const ProducerConfig& config,
                                     message::UniqKeyGenerator& ids);

// The SEND_MESSAGE header for one attempt at `mq`.
protocol::SendMessageRequestHeader BuildSendHeader(const PreparedMessage& prepared,
                                                   const ProducerConfig& config,
                                                   const MessageQueue& mq, int64_t now_ms);
// The same, with `prepared`'s topic and properties moved into it: for a send that keeps
// its header for all its attempts (SetSendAttempt) instead of its PreparedMessage.
protocol::SendMessageRequestHeader BuildSendHeader(PreparedMessage&& prepared,
                                                   const ProducerConfig& config,
                                                   const MessageQueue& mq, int64_t now_ms);
// The same into `header`, every field set, its strings assigned (their capacity reused).
void FillSendHeader(const PreparedMessage& prepared, const ProducerConfig& config,
                    const MessageQueue& mq, int64_t now_ms,
                    protocol::SendMessageRequestHeader* header);
// What differs between two attempts of one send: the queue, its broker, the born timestamp.
void SetSendAttempt(const MessageQueue& mq, int64_t now_ms, protocol::SendMessageRequestHeader* header);

// Whether a failed send attempt is worth retrying on another broker (Java retries
// remoting errors, a missing broker address, and the broker codes in retryResponseCodes).
bool IsRetriableSendError(const Status& status);

}  // namespace apogee::client
