#include "protocol/json_util.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>

#include <string>
#include <vector>

#include "base/string_util.h"
#include "protocol/custom_header.h"

namespace apogee::protocol::json {
namespace {

bool IsBareKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '-' || c == '+' || c == '.';
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string Describe(const Value& v) {
  if (v.IsString()) return "\"" + std::string(v.GetString(), v.GetStringLength()) + "\"";
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  if (v.IsObject()) return "an object";
  if (v.IsArray()) return "an array";
  return "null";
}

Status TypeError(std::string_view path, std::string_view expected, const Value& v) {
  return Status::Corruption(std::string(path) + ": expected " + std::string(expected) + ", got " +
                            Describe(v));
}

std::string Join(std::string_view path, std::string_view key) {
  std::string p(path);
  if (!p.empty()) p += '.';
  p.append(key);
  return p;
}

}  // namespace

std::string QuoteBareKeys(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  std::vector<char> containers;
  bool expecting_key = false;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      // Copy a string literal, escapes included.
      size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, text.size());
      out.append(text.substr(i, j - i));
      i = j;
      expecting_key = false;
      continue;
    }
    if (expecting_key && IsBareKeyChar(c)) {
      size_t j = i;
      while (j < text.size() && IsBareKeyChar(text[j])) ++j;
      out += '"';
      out.append(text.substr(i, j - i));
      out += '"';
      i = j;
      expecting_key = false;
      continue;
    }
    if (c == '{') {
      containers.push_back('{');
      expecting_key = true;
    } else if (c == '[') {
      containers.push_back('[');
      expecting_key = false;
    } else if (c == '}' || c == ']') {
      if (!containers.empty()) containers.pop_back();
      expecting_key = false;
    } else if (c == ',') {
      expecting_key = !containers.empty() && containers.back() == '{';
    } else if (!IsSpace(c)) {
      expecting_key = false;
    }
    out += c;
    ++i;
  }
  return out;
}

Status ParseObject(std::string_view text, std::string_view what, Document* doc) {
  const std::string normalized = QuoteBareKeys(text);
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag |
                              rapidjson::kParseNumbersAsStringsFlag |
                              rapidjson::kParseStopWhenDoneFlag;
  rapidjson::MemoryStream stream(normalized.data(), normalized.size());
  doc->ParseStream<kFlags>(stream);
  if (doc->HasParseError()) {
    return Status::Corruption(std::string(what) +
                              " is not JSON: " + rapidjson::GetParseError_En(doc->GetParseError()) +
                              " at offset " + std::to_string(doc->GetErrorOffset()));
  }
  for (size_t pos = stream.Tell(); pos < normalized.size(); ++pos) {
    if (!IsSpace(normalized[pos])) {
      return Status::Corruption(std::string(what) + " has trailing bytes after the JSON value");
    }
  }
  if (!doc->IsObject()) return Status::Corruption(std::string(what) + " is not a JSON object");
  return Status::OK();
}

const Value* Find(const Value& object, std::string_view key) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(Value(rapidjson::StringRef(key.data(), key.size())));
  if (it == object.MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}

Result<std::string> AsString(const Value& value, std::string_view path) {
  if (value.IsString()) return std::string(value.GetString(), value.GetStringLength());
  if (value.IsBool()) return std::string(value.GetBool() ? "true" : "false");
  return TypeError(path, "a string", value);
}

Result<int64_t> AsInt64(const Value& value, std::string_view path) {
  if (value.IsString()) {
    std::optional<int64_t> v =
        ParseJavaLong(std::string_view(value.GetString(), value.GetStringLength()));
    if (v) return *v;
  }
  return TypeError(path, "an integer", value);
}

Result<int32_t> AsInt32(const Value& value, std::string_view path) {
  if (value.IsString()) {
    std::optional<int32_t> v =
        ParseJavaInt(std::string_view(value.GetString(), value.GetStringLength()));
    if (v) return *v;
  }
  return TypeError(path, "a 32-bit integer", value);
}

Result<bool> AsBool(const Value& value, std::string_view path) {
  if (value.IsBool()) return value.GetBool();
  if (value.IsString()) {
    // fastjson's castToBoolean: "true"/"false" in any case, and the numbers 1 and 0.
    const std::string lower =
        ToLowerAscii(std::string_view(value.GetString(), value.GetStringLength()));
    if (lower == "true" || lower == "1") return true;
    if (lower == "false" || lower == "0") return false;
  }
  return TypeError(path, "a boolean", value);
}

template <typename T, typename F>
Status ReadWith(const Value& object, std::string_view key, std::string_view path, T* out,
                bool required, F as) {
  const Value* v = Find(object, key);
  const std::string field_path = Join(path, key);
  if (v == nullptr) {
    return required ? Status::Corruption(field_path + " is missing") : Status::OK();
  }
  APOGEE_ASSIGN_OR_RETURN(*out, as(*v, field_path));
  return Status::OK();
}

Status ReadString(const Value& object, std::string_view key, std::string_view path,
                  std::string* out, bool required) {
  return ReadWith(object, key, path, out, required, AsString);
}
Status ReadInt32(const Value& object, std::string_view key, std::string_view path, int32_t* out,
                 bool required) {
  return ReadWith(object, key, path, out, required, AsInt32);
}
Status ReadInt64(const Value& object, std::string_view key, std::string_view path, int64_t* out,
                 bool required) {
  return ReadWith(object, key, path, out, required, AsInt64);
}
Status ReadBool(const Value& object, std::string_view key, std::string_view path, bool* out,
                bool required) {
  return ReadWith(object, key, path, out, required, AsBool);
}

Status ReadOptionalString(const Value& object, std::string_view key, std::string_view path,
                          std::optional<std::string>* out) {
  const Value* v = Find(object, key);
  if (v == nullptr) return Status::OK();
  APOGEE_ASSIGN_OR_RETURN(*out, AsString(*v, Join(path, key)));
  return Status::OK();
}

Result<const Value*> FindObject(const Value& object, std::string_view key, std::string_view path) {
  const Value* v = Find(object, key);
  if (v != nullptr && !v->IsObject()) return TypeError(Join(path, key), "an object", *v);
  return v;
}

Result<const Value*> FindArray(const Value& object, std::string_view key, std::string_view path) {
  const Value* v = Find(object, key);
  if (v != nullptr && !v->IsArray()) return TypeError(Join(path, key), "an array", *v);
  return v;
}

void NumericKey(Writer& w, int64_t key, bool quoted) {
  const std::string text = std::to_string(key);
  if (quoted) {
    w.Key(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  } else {
    // RawValue writes the separator a key needs and then the bare text.
    w.RawValue(text.data(), text.size(), rapidjson::kStringType);
  }
}

}  // namespace apogee::protocol::json
