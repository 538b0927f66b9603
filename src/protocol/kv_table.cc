#include "protocol/kv_table.h"

#include "protocol/json_util.h"

namespace apogee::protocol {

std::string EncodeKVTable(const KVTable& table) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  json::Key(w, "table");
  w.StartObject();
  for (const auto& [key, value] : table.table) {
    json::Key(w, key);
    json::String(w, value);
  }
  w.EndObject();
  w.EndObject();
  return out;
}

Result<KVTable> DecodeKVTable(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "KVTable", &doc));
  KVTable table;
  APOGEE_ASSIGN_OR_RETURN(const json::Value* entries, json::FindObject(doc, "table", "KVTable"));
  if (entries == nullptr) return table;
  for (auto it = entries->MemberBegin(); it != entries->MemberEnd(); ++it) {
    if (it->value.IsNull()) continue;
    const std::string key(json::KeyOf(it->name));
    APOGEE_ASSIGN_OR_RETURN(table.table[key], json::AsString(it->value, "KVTable.table." + key));
  }
  return table;
}

}  // namespace apogee::protocol
