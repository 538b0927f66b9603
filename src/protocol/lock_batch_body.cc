#include "protocol/lock_batch_body.h"

#include <utility>

#include "protocol/json_util.h"
#include "protocol/message_queue_json.h"

namespace apogee::protocol {
namespace {

Status ReadQueueSet(const json::Value& object, std::string_view key, std::string_view path,
                    std::set<MessageQueue>* out) {
  APOGEE_ASSIGN_OR_RETURN(const json::Value* queues, json::FindArray(object, key, path));
  if (queues == nullptr) return Status::OK();
  for (rapidjson::SizeType i = 0; i < queues->Size(); ++i) {
    APOGEE_ASSIGN_OR_RETURN(
        MessageQueue mq,
        json::ReadMessageQueue((*queues)[i], std::string(path) + "." + std::string(key) + "[" +
                                                 std::to_string(i) + "]"));
    out->insert(std::move(mq));
  }
  return Status::OK();
}

void WriteQueueSet(json::Writer& w, std::string_view key, const std::set<MessageQueue>& queues) {
  json::Key(w, key);
  w.StartArray();
  for (const MessageQueue& mq : queues) json::WriteMessageQueue(w, mq);
  w.EndArray();
}

}  // namespace

std::string ToString(const MessageQueue& mq) {
  return "MessageQueue [topic=" + mq.topic + ", brokerName=" + mq.broker_name +
         ", queueId=" + std::to_string(mq.queue_id) + "]";
}

Result<LockBatchRequestBody> DecodeLockBatchRequestBody(std::string_view text) {
  return json::ReadFromString<LockBatchRequestBody>(
      text, "LockBatchRequestBody", [](const json::Value& doc, LockBatchRequestBody* body) {
        constexpr std::string_view kPath = "LockBatchRequestBody";
        APOGEE_RETURN_IF_ERROR(
            json::ReadString(doc, "consumerGroup", kPath, &body->consumer_group));
        APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "clientId", kPath, &body->client_id));
        APOGEE_RETURN_IF_ERROR(
            json::ReadBool(doc, "onlyThisBroker", kPath, &body->only_this_broker));
        return ReadQueueSet(doc, "mqSet", kPath, &body->mq_set);
      });
}

std::string EncodeLockBatchRequestBody(const LockBatchRequestBody& body) {
  return json::WriteToString([&](json::Writer& w) {
    w.StartObject();
    json::Key(w, "clientId");
    json::String(w, body.client_id);
    json::Key(w, "consumerGroup");
    json::String(w, body.consumer_group);
    WriteQueueSet(w, "mqSet", body.mq_set);
    json::Key(w, "onlyThisBroker");
    w.Bool(body.only_this_broker);
    w.EndObject();
  });
}

Result<LockBatchResponseBody> DecodeLockBatchResponseBody(std::string_view text) {
  return json::ReadFromString<LockBatchResponseBody>(
      text, "LockBatchResponseBody", [](const json::Value& doc, LockBatchResponseBody* body) {
        return ReadQueueSet(doc, "lockOKMQSet", "LockBatchResponseBody", &body->lock_ok_mq_set);
      });
}

std::string EncodeLockBatchResponseBody(const LockBatchResponseBody& body) {
  return json::WriteToString([&](json::Writer& w) {
    w.StartObject();
    WriteQueueSet(w, "lockOKMQSet", body.lock_ok_mq_set);
    w.EndObject();
  });
}

std::string EncodeMessageQueue(const MessageQueue& mq) {
  return json::WriteToString([&](json::Writer& w) { json::WriteMessageQueue(w, mq); });
}

Result<MessageQueue> DecodeMessageQueue(std::string_view text) {
  return json::ReadFromString<MessageQueue>(
      text, "MessageQueue", [](const json::Value& doc, MessageQueue* mq) -> Status {
        APOGEE_ASSIGN_OR_RETURN(*mq, json::ReadMessageQueue(doc, "MessageQueue"));
        return Status::OK();
      });
}

}  // namespace apogee::protocol
