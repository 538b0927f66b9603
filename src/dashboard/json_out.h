// Small helpers over protocol's compact JSON writer for the API's answers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/json_util.h"

namespace apogee::dashboard {

using JsonWriter = protocol::json::Writer;

inline void Field(JsonWriter& w, std::string_view key, std::string_view value) {
  protocol::json::Key(w, key);
  protocol::json::String(w, value);
}
inline void Field(JsonWriter& w, std::string_view key, const char* value) {
  Field(w, key, std::string_view(value));
}
inline void Field(JsonWriter& w, std::string_view key, const std::string& value) {
  Field(w, key, std::string_view(value));
}
inline void Field(JsonWriter& w, std::string_view key, int64_t value) {
  protocol::json::Key(w, key);
  w.Int64(value);
}
inline void Field(JsonWriter& w, std::string_view key, int32_t value) {
  protocol::json::Key(w, key);
  w.Int(value);
}
inline void Field(JsonWriter& w, std::string_view key, double value) {
  protocol::json::Key(w, key);
  w.Double(value);
}
inline void Field(JsonWriter& w, std::string_view key, bool value) {
  protocol::json::Key(w, key);
  w.Bool(value);
}

// "key":["a","b"]
template <typename Strings>
void StringArrayField(JsonWriter& w, std::string_view key, const Strings& values) {
  protocol::json::Key(w, key);
  w.StartArray();
  for (const auto& v : values) protocol::json::String(w, v);
  w.EndArray();
}

// "key":{"k":"v",...}
template <typename Map>
void StringMapField(JsonWriter& w, std::string_view key, const Map& values) {
  protocol::json::Key(w, key);
  w.StartObject();
  for (const auto& [k, v] : values) Field(w, k, v);
  w.EndObject();
}

// {"error":"..."}: every failed call's body.
std::string ErrorJson(std::string_view message);

}  // namespace apogee::dashboard
