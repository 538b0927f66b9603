#include "protocol/message_queue_json.h"

#include <string>

namespace apogee::protocol::json {

void WriteMessageQueue(Writer& w, const MessageQueue& mq) {
  w.StartObject();
  Key(w, "brokerName");
  String(w, mq.broker_name);
  Key(w, "queueId");
  w.Int(mq.queue_id);
  Key(w, "topic");
  String(w, mq.topic);
  w.EndObject();
}

Result<MessageQueue> ReadMessageQueue(const Value& value, std::string_view path) {
  if (!value.IsObject()) return Status::Corruption(std::string(path) + ": expected a MessageQueue");
  MessageQueue mq;
  APOGEE_RETURN_IF_ERROR(ReadString(value, "topic", path, &mq.topic, /*required=*/true));
  APOGEE_RETURN_IF_ERROR(ReadString(value, "brokerName", path, &mq.broker_name, true));
  APOGEE_RETURN_IF_ERROR(ReadInt32(value, "queueId", path, &mq.queue_id, true));
  return mq;
}

}  // namespace apogee::protocol::json
