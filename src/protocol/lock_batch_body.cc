#include "protocol/lock_batch_body.h"

#include <utility>

#include "protocol/json_util.h"

namespace apogee::protocol {
namespace {

void WriteQueue(json::Writer& w, const MessageQueue& mq) {
  // fastjson's field order (sorted by name).
  w.StartObject();
  json::Key(w, "brokerName");
  json::String(w, mq.broker_name);
  json::Key(w, "queueId");
  w.Int(mq.queue_id);
  json::Key(w, "topic");
  json::String(w, mq.topic);
  w.EndObject();
}

Status ReadQueue(const json::Value& value, const std::string& path, MessageQueue* mq) {
  if (!value.IsObject()) return Status::Corruption(path + ": expected a MessageQueue object");
  APOGEE_RETURN_IF_ERROR(json::ReadString(value, "topic", path, &mq->topic, /*required=*/true));
  APOGEE_RETURN_IF_ERROR(json::ReadString(value, "brokerName", path, &mq->broker_name, true));
  return json::ReadInt32(value, "queueId", path, &mq->queue_id, true);
}

Status ReadQueueSet(const json::Value& object, std::string_view key, std::string_view path,
                    std::set<MessageQueue>* out) {
  APOGEE_ASSIGN_OR_RETURN(const json::Value* queues, json::FindArray(object, key, path));
  if (queues == nullptr) return Status::OK();
  for (rapidjson::SizeType i = 0; i < queues->Size(); ++i) {
    MessageQueue mq;
    APOGEE_RETURN_IF_ERROR(
        ReadQueue((*queues)[i],
                  std::string(path) + "." + std::string(key) + "[" + std::to_string(i) + "]", &mq));
    out->insert(std::move(mq));
  }
  return Status::OK();
}

void WriteQueueSet(json::Writer& w, std::string_view key, const std::set<MessageQueue>& queues) {
  json::Key(w, key);
  w.StartArray();
  for (const MessageQueue& mq : queues) WriteQueue(w, mq);
  w.EndArray();
}

}  // namespace

std::string ToString(const MessageQueue& mq) {
  return "MessageQueue [topic=" + mq.topic + ", brokerName=" + mq.broker_name +
         ", queueId=" + std::to_string(mq.queue_id) + "]";
}

Result<LockBatchRequestBody> DecodeLockBatchRequestBody(std::string_view text) {
  constexpr std::string_view kPath = "LockBatchRequestBody";
  rapidjson::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, kPath, &doc));
  LockBatchRequestBody body;
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "consumerGroup", kPath, &body.consumer_group));
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "clientId", kPath, &body.client_id));
  APOGEE_RETURN_IF_ERROR(json::ReadBool(doc, "onlyThisBroker", kPath, &body.only_this_broker));
  APOGEE_RETURN_IF_ERROR(ReadQueueSet(doc, "mqSet", kPath, &body.mq_set));
  return body;
}

std::string EncodeLockBatchRequestBody(const LockBatchRequestBody& body) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  json::Key(w, "clientId");
  json::String(w, body.client_id);
  json::Key(w, "consumerGroup");
  json::String(w, body.consumer_group);
  WriteQueueSet(w, "mqSet", body.mq_set);
  json::Key(w, "onlyThisBroker");
  w.Bool(body.only_this_broker);
  w.EndObject();
  return out;
}

Result<LockBatchResponseBody> DecodeLockBatchResponseBody(std::string_view text) {
  constexpr std::string_view kPath = "LockBatchResponseBody";
  rapidjson::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, kPath, &doc));
  LockBatchResponseBody body;
  APOGEE_RETURN_IF_ERROR(ReadQueueSet(doc, "lockOKMQSet", kPath, &body.lock_ok_mq_set));
  return body;
}

std::string EncodeLockBatchResponseBody(const LockBatchResponseBody& body) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  WriteQueueSet(w, "lockOKMQSet", body.lock_ok_mq_set);
  w.EndObject();
  return out;
}

std::string EncodeMessageQueue(const MessageQueue& mq) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  WriteQueue(w, mq);
  return out;
}

Result<MessageQueue> DecodeMessageQueue(std::string_view text) {
  rapidjson::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "MessageQueue", &doc));
  MessageQueue mq;
  APOGEE_RETURN_IF_ERROR(ReadQueue(doc, "MessageQueue", &mq));
  return mq;
}

}  // namespace apogee::protocol
