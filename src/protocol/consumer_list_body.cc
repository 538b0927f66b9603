#include "protocol/consumer_list_body.h"

#include <utility>

#include "protocol/json_util.h"

namespace apogee::protocol {

std::string EncodeConsumerListBody(const GetConsumerListByGroupResponseBody& body) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  json::Key(w, "consumerIdList");
  w.StartArray();
  for (const std::string& id : body.consumer_id_list) json::String(w, id);
  w.EndArray();
  w.EndObject();
  return out;
}

Result<GetConsumerListByGroupResponseBody> DecodeConsumerListBody(std::string_view text) {
  constexpr std::string_view kPath = "GetConsumerListByGroupResponseBody";
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, kPath, &doc));
  GetConsumerListByGroupResponseBody body;
  APOGEE_ASSIGN_OR_RETURN(const json::Value* ids, json::FindArray(doc, "consumerIdList", kPath));
  if (ids != nullptr) {
    for (rapidjson::SizeType i = 0; i < ids->Size(); ++i) {
      APOGEE_ASSIGN_OR_RETURN(std::string id,
                              json::AsString((*ids)[i], std::string(kPath) + ".consumerIdList[" +
                                                            std::to_string(i) + "]"));
      body.consumer_id_list.push_back(std::move(id));
    }
  }
  return body;
}

}  // namespace apogee::protocol
