#include "protocol/topic_list.h"

#include "protocol/json_util.h"

namespace apogee::protocol {

std::string EncodeTopicList(const TopicList& list) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  if (list.broker_addr) {
    json::Key(w, "brokerAddr");
    json::String(w, *list.broker_addr);
  }
  json::Key(w, "topicList");
  w.StartArray();
  for (const std::string& topic : list.topic_list) json::String(w, topic);
  w.EndArray();
  w.EndObject();
  return out;
}

Result<TopicList> DecodeTopicList(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "TopicList", &doc));
  TopicList list;
  APOGEE_RETURN_IF_ERROR(
      json::ReadOptionalString(doc, "brokerAddr", "TopicList", &list.broker_addr));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* topics,
                          json::FindArray(doc, "topicList", "TopicList"));
  if (topics != nullptr) {
    for (rapidjson::SizeType i = 0; i < topics->Size(); ++i) {
      APOGEE_ASSIGN_OR_RETURN(
          std::string topic,
          json::AsString((*topics)[i], "TopicList.topicList[" + std::to_string(i) + "]"));
      list.topic_list.insert(std::move(topic));
    }
  }
  return list;
}

}  // namespace apogee::protocol
