// Conversions between the public API types (include/apogee) and the internal ones
// (message::Message, protocol::MessageQueue), used at the edge of every client class.
#pragma once

#include <cstddef>
#include <string>

#include "apogee/message.h"
#include "apogee/message_queue.h"
#include "base/status.h"
#include "message/host_address.h"
#include "message/message.h"
#include "protocol/lock_batch_body.h"

namespace apogee::client {

// The wire form of a public message. InvalidArgument naming the property when a name or
// value cannot be encoded (empty, or containing the \x01 / \x02 separators).
Result<message::Message> ToWireMessage(const Message& msg);
// Its properties alone, with the same errors (a send that reads the body in place).
Result<message::MessageProperties> ToWireProperties(const Message& msg);

// A received message as the public API shows it. `broker_name` is where it was pulled.
MessageExt ToPublicMessageExt(const message::MessageExt& ext, const std::string& broker_name);
// "ip:port" of the hosts of a run of messages, formatted once per distinct host: the messages
// of one pull share their store host and mostly their born host, and formatting an address
// cost about a sixth of the push consumer's per-message step.
class HostTextCache {
 public:
  const std::string& Text(const message::HostAddress& host);

 private:
  struct Entry {
    message::HostAddress host;
    std::string text;
  };
  Entry entries_[2];  // the first host seen (a pull's store host) and the last other one
  size_t used_ = 0;
};

// The same, taking the body, ids and property strings from `ext` instead of copying them (a
// consumer's pulled messages, which nothing reads after the conversion); host texts come from
// `hosts`.
MessageExt ToPublicMessageExt(message::MessageExt&& ext, const std::string& broker_name,
                              HostTextCache* hosts);

inline protocol::MessageQueue ToProtocolQueue(const MessageQueue& mq) {
  return protocol::MessageQueue{mq.topic(), mq.broker_name(), mq.queue_id()};
}

inline MessageQueue ToPublicQueue(const protocol::MessageQueue& mq) {
  return MessageQueue(mq.topic, mq.broker_name, mq.queue_id);
}

}  // namespace apogee::client
