#include "protocol/heartbeat_data.h"

#include <array>
#include <utility>

#include "protocol/custom_header.h"
#include "protocol/json_util.h"

namespace apogee::protocol {
namespace {

// Names in ordinal order, as the Java enums declare them.
constexpr std::array<std::string_view, 3> kConsumeTypeNames = {"CONSUME_ACTIVELY",
                                                               "CONSUME_PASSIVELY", "CONSUME_POP"};
constexpr std::array<std::string_view, 2> kMessageModelNames = {"BROADCASTING", "CLUSTERING"};
constexpr std::array<std::string_view, 6> kConsumeFromWhereNames = {
    "CONSUME_FROM_LAST_OFFSET",  "CONSUME_FROM_LAST_OFFSET_AND_FROM_MIN_WHEN_BOOT_FIRST",
    "CONSUME_FROM_MIN_OFFSET",   "CONSUME_FROM_MAX_OFFSET",
    "CONSUME_FROM_FIRST_OFFSET", "CONSUME_FROM_TIMESTAMP"};

std::string Indexed(std::string_view path, std::string_view key, rapidjson::SizeType i) {
  return std::string(path) + "." + std::string(key) + "[" + std::to_string(i) + "]";
}

// fastjson's EnumDeserializer: a string token is the constant's name, an integer token
// its ordinal. With numbers parsed as text both arrive as strings, told apart by form.
template <typename E, size_t N>
Status ReadEnum(const json::Value& object, std::string_view key, std::string_view path,
                std::string_view enum_name, const std::array<std::string_view, N>& names, E* out) {
  const json::Value* v = json::Find(object, key);
  if (v == nullptr) return Status::OK();
  const std::string field_path = std::string(path) + "." + std::string(key);
  if (!v->IsString()) {
    return Status::Corruption(field_path + ": expected a " + std::string(enum_name) +
                              " name or ordinal");
  }
  const std::string_view text(v->GetString(), v->GetStringLength());
  if (std::optional<int32_t> ordinal = ParseJavaInt(text)) {
    if (*ordinal < 0 || static_cast<size_t>(*ordinal) >= N) {
      return Status::Corruption(field_path + ": " + std::string(enum_name) + " ordinal " +
                                std::string(text) + " out of range");
    }
    *out = static_cast<E>(*ordinal);
    return Status::OK();
  }
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == text) {
      *out = static_cast<E>(i);
      return Status::OK();
    }
  }
  return Status::Corruption(field_path + ": unknown " + std::string(enum_name) + " \"" +
                            std::string(text) + "\"");
}

Status ReadSubscription(const json::Value& object, std::string_view path, SubscriptionData* sub) {
  if (!object.IsObject()) return Status::Corruption(std::string(path) + ": expected an object");
  APOGEE_RETURN_IF_ERROR(json::ReadString(object, "topic", path, &sub->topic));
  APOGEE_RETURN_IF_ERROR(json::ReadString(object, "subString", path, &sub->sub_string));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* tags, json::FindArray(object, "tagsSet", path));
  if (tags != nullptr) {
    for (rapidjson::SizeType i = 0; i < tags->Size(); ++i) {
      APOGEE_ASSIGN_OR_RETURN(std::string tag,
                              json::AsString((*tags)[i], Indexed(path, "tagsSet", i)));
      sub->tags_set.insert(std::move(tag));
    }
  }
  APOGEE_ASSIGN_OR_RETURN(const json::Value* codes, json::FindArray(object, "codeSet", path));
  if (codes != nullptr) {
    for (rapidjson::SizeType i = 0; i < codes->Size(); ++i) {
      APOGEE_ASSIGN_OR_RETURN(int32_t code,
                              json::AsInt32((*codes)[i], Indexed(path, "codeSet", i)));
      sub->code_set.insert(code);
    }
  }
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(object, "subVersion", path, &sub->sub_version));
  APOGEE_RETURN_IF_ERROR(json::ReadString(object, "expressionType", path, &sub->expression_type));
  // Java's isTagType treats "" as TAG too; normalise so comparisons are simple.
  if (sub->expression_type.empty()) sub->expression_type = std::string(kExpressionTypeTag);
  return json::ReadBool(object, "classFilterMode", path, &sub->class_filter_mode);
}

Status ReadConsumer(const json::Value& object, std::string_view path, ConsumerData* data) {
  if (!object.IsObject()) return Status::Corruption(std::string(path) + ": expected an object");
  APOGEE_RETURN_IF_ERROR(json::ReadString(object, "groupName", path, &data->group_name));
  APOGEE_RETURN_IF_ERROR(
      ReadEnum(object, "consumeType", path, "ConsumeType", kConsumeTypeNames, &data->consume_type));
  APOGEE_RETURN_IF_ERROR(ReadEnum(object, "messageModel", path, "MessageModel", kMessageModelNames,
                                  &data->message_model));
  APOGEE_RETURN_IF_ERROR(ReadEnum(object, "consumeFromWhere", path, "ConsumeFromWhere",
                                  kConsumeFromWhereNames, &data->consume_from_where));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* subs,
                          json::FindArray(object, "subscriptionDataSet", path));
  if (subs != nullptr) {
    for (rapidjson::SizeType i = 0; i < subs->Size(); ++i) {
      SubscriptionData sub;
      APOGEE_RETURN_IF_ERROR(
          ReadSubscription((*subs)[i], Indexed(path, "subscriptionDataSet", i), &sub));
      data->subscription_data_set.push_back(std::move(sub));
    }
  }
  return json::ReadBool(object, "unitMode", path, &data->unit_mode);
}

// fastjson writes bean fields sorted by name; so do we, to match Java byte for byte.
void WriteSubscription(json::Writer& w, const SubscriptionData& sub) {
  w.StartObject();
  json::Key(w, "classFilterMode");
  w.Bool(sub.class_filter_mode);
  json::Key(w, "codeSet");
  w.StartArray();
  for (int32_t code : sub.code_set) w.Int(code);
  w.EndArray();
  json::Key(w, "expressionType");
  json::String(w, sub.expression_type);
  json::Key(w, "subString");
  json::String(w, sub.sub_string);
  json::Key(w, "subVersion");
  w.Int64(sub.sub_version);
  json::Key(w, "tagsSet");
  w.StartArray();
  for (const std::string& tag : sub.tags_set) json::String(w, tag);
  w.EndArray();
  json::Key(w, "topic");
  json::String(w, sub.topic);
  w.EndObject();
}

void WriteConsumer(json::Writer& w, const ConsumerData& data) {
  w.StartObject();
  json::Key(w, "consumeFromWhere");
  json::String(w, ConsumeFromWhereName(data.consume_from_where));
  json::Key(w, "consumeType");
  json::String(w, ConsumeTypeName(data.consume_type));
  json::Key(w, "groupName");
  json::String(w, data.group_name);
  json::Key(w, "messageModel");
  json::String(w, MessageModelName(data.message_model));
  json::Key(w, "subscriptionDataSet");
  w.StartArray();
  for (const SubscriptionData& sub : data.subscription_data_set) WriteSubscription(w, sub);
  w.EndArray();
  json::Key(w, "unitMode");
  w.Bool(data.unit_mode);
  w.EndObject();
}

template <typename E, size_t N>
std::string_view NameOf(E value, const std::array<std::string_view, N>& names) {
  const auto index = static_cast<size_t>(value);
  return index < N ? names[index] : std::string_view("UNKNOWN");
}

}  // namespace

std::string_view ConsumeTypeName(ConsumeType type) { return NameOf(type, kConsumeTypeNames); }
std::string_view MessageModelName(MessageModel model) { return NameOf(model, kMessageModelNames); }
std::string_view ConsumeFromWhereName(ConsumeFromWhere where) {
  return NameOf(where, kConsumeFromWhereNames);
}

bool IsTagExpressionType(std::string_view type) {
  return type.empty() || type == kExpressionTypeTag;
}

namespace {

Status ReadHeartbeat(const json::Value& doc, HeartbeatData* out) {
  constexpr std::string_view kPath = "HeartbeatData";
  HeartbeatData& data = *out;
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "clientID", kPath, &data.client_id));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* producers,
                          json::FindArray(doc, "producerDataSet", kPath));
  if (producers != nullptr) {
    for (rapidjson::SizeType i = 0; i < producers->Size(); ++i) {
      const std::string path = Indexed(kPath, "producerDataSet", i);
      if (!(*producers)[i].IsObject()) return Status::Corruption(path + ": expected an object");
      ProducerData producer;
      APOGEE_RETURN_IF_ERROR(
          json::ReadString((*producers)[i], "groupName", path, &producer.group_name));
      data.producer_data_set.push_back(std::move(producer));
    }
  }
  APOGEE_ASSIGN_OR_RETURN(const json::Value* consumers,
                          json::FindArray(doc, "consumerDataSet", kPath));
  if (consumers != nullptr) {
    for (rapidjson::SizeType i = 0; i < consumers->Size(); ++i) {
      ConsumerData consumer;
      APOGEE_RETURN_IF_ERROR(
          ReadConsumer((*consumers)[i], Indexed(kPath, "consumerDataSet", i), &consumer));
      data.consumer_data_set.push_back(std::move(consumer));
    }
  }
  APOGEE_RETURN_IF_ERROR(
      json::ReadInt32(doc, "heartbeatFingerprint", kPath, &data.heartbeat_fingerprint));
  return json::ReadBool(doc, "withoutSub", kPath, &data.without_sub);
}

}  // namespace

Result<HeartbeatData> DecodeHeartbeatData(std::string_view text) {
  return json::ReadFromString<HeartbeatData>(text, "HeartbeatData", ReadHeartbeat);
}

namespace {

void WriteHeartbeat(json::Writer& w, const HeartbeatData& data) {
  w.StartObject();
  json::Key(w, "clientID");
  json::String(w, data.client_id);
  json::Key(w, "consumerDataSet");
  w.StartArray();
  for (const ConsumerData& consumer : data.consumer_data_set) WriteConsumer(w, consumer);
  w.EndArray();
  json::Key(w, "heartbeatFingerprint");
  w.Int(data.heartbeat_fingerprint);
  json::Key(w, "producerDataSet");
  w.StartArray();
  for (const ProducerData& producer : data.producer_data_set) {
    w.StartObject();
    json::Key(w, "groupName");
    json::String(w, producer.group_name);
    w.EndObject();
  }
  w.EndArray();
  json::Key(w, "withoutSub");
  w.Bool(data.without_sub);
  w.EndObject();
}

}  // namespace

std::string EncodeHeartbeatData(const HeartbeatData& data) {
  return json::WriteToString([&](json::Writer& w) { WriteHeartbeat(w, data); });
}

std::string EncodeSubscriptionData(const SubscriptionData& data) {
  return json::WriteToString([&](json::Writer& w) { WriteSubscription(w, data); });
}

Result<SubscriptionData> DecodeSubscriptionData(std::string_view text) {
  return json::ReadFromString<SubscriptionData>(
      text, "SubscriptionData", [](const json::Value& doc, SubscriptionData* sub) {
        return ReadSubscription(doc, "SubscriptionData", sub);
      });
}

namespace {

Status ReadCheckClientRequest(const json::Value& doc, CheckClientRequestBody* out) {
  constexpr std::string_view kPath = "CheckClientRequestBody";
  CheckClientRequestBody& body = *out;
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "clientId", kPath, &body.client_id));
  APOGEE_RETURN_IF_ERROR(json::ReadString(doc, "group", kPath, &body.group));
  APOGEE_RETURN_IF_ERROR(json::ReadOptionalString(doc, "namespace", kPath, &body.namespace_name));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* sub, json::FindObject(doc, "subscriptionData", kPath));
  if (sub != nullptr) {
    SubscriptionData data;
    APOGEE_RETURN_IF_ERROR(
        ReadSubscription(*sub, "CheckClientRequestBody.subscriptionData", &data));
    body.subscription_data = std::move(data);
  }
  return Status::OK();
}

}  // namespace

Result<CheckClientRequestBody> DecodeCheckClientRequestBody(std::string_view text) {
  return json::ReadFromString<CheckClientRequestBody>(text, "CheckClientRequestBody",
                                                      ReadCheckClientRequest);
}

namespace {

void WriteCheckClientRequest(json::Writer& w, const CheckClientRequestBody& body) {
  w.StartObject();
  json::Key(w, "clientId");
  json::String(w, body.client_id);
  json::Key(w, "group");
  json::String(w, body.group);
  if (body.namespace_name) {
    json::Key(w, "namespace");
    json::String(w, *body.namespace_name);
  }
  if (body.subscription_data) {
    json::Key(w, "subscriptionData");
    WriteSubscription(w, *body.subscription_data);
  }
  w.EndObject();
}

}  // namespace

std::string EncodeCheckClientRequestBody(const CheckClientRequestBody& body) {
  return json::WriteToString([&](json::Writer& w) { WriteCheckClientRequest(w, body); });
}

}  // namespace apogee::protocol
