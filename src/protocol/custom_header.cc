#include "protocol/custom_header.h"

#include <charconv>
#include <cstring>
#include <string>

#include "base/string_util.h"
#include "protocol/json_header_codec.h"

namespace apogee::protocol {
namespace {

// Integer.parseInt / Long.parseLong accept one leading '+' or '-', then decimal digits
// only. from_chars takes the '-' itself but not the '+'.
template <typename T>
std::optional<T> ParseJavaInteger(std::string_view text) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return std::nullopt;
  }
  if (text.empty()) return std::nullopt;
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

std::optional<int32_t> ParseJavaInt(std::string_view text) {
  return ParseJavaInteger<int32_t>(text);
}
std::optional<int64_t> ParseJavaLong(std::string_view text) {
  return ParseJavaInteger<int64_t>(text);
}

namespace custom_header_internal {

bool ParseValue(std::string_view text, bool* out) {
  *out = ParseJavaBoolean(text);
  return true;
}

namespace {

bool NeedsNoJsonEscape(std::string_view text) {
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == '"' || byte == '\\') return false;
  }
  return true;
}

// `"key":` after a comma unless `out` is empty. Keys are Java field names, which need no
// escape: copied with one append (through the escaping writer, 14 keys of a send header cost
// about 1k instructions, callgrind); any other key still goes through it.
void AppendJsonKey(std::string_view key, std::string* out) {
  constexpr size_t kMaxPlainKey = 40;
  if (key.size() <= kMaxPlainKey && NeedsNoJsonEscape(key)) {
    char piece[kMaxPlainKey + 4];
    size_t n = 0;
    if (!out->empty()) piece[n++] = ',';
    piece[n++] = '"';
    std::memcpy(piece + n, key.data(), key.size());
    n += key.size();
    piece[n++] = '"';
    piece[n++] = ':';
    out->append(piece, n);
    return;
  }
  if (!out->empty()) out->push_back(',');
  AppendJsonString(key, out);
  out->push_back(':');
}

// Digits never need a JSON escape.
template <typename T>
void AppendJsonInteger(std::string_view key, T value, std::string* out) {
  AppendJsonKey(key, out);
  char digits[24];
  digits[0] = '"';
  char* end = std::to_chars(digits + 1, digits + sizeof(digits) - 1, value).ptr;
  *end++ = '"';
  out->append(digits, static_cast<size_t>(end - digits));
}

}  // namespace

void AppendJsonField(std::string_view key, std::string_view value, std::string* out) {
  AppendJsonKey(key, out);
  AppendJsonString(value, out);
}
void AppendJsonField(std::string_view key, int32_t value, std::string* out) {
  AppendJsonInteger(key, value, out);
}
void AppendJsonField(std::string_view key, int64_t value, std::string* out) {
  AppendJsonInteger(key, value, out);
}
void AppendJsonField(std::string_view key, bool value, std::string* out) {
  AppendJsonKey(key, out);
  out->append(value ? R"("true")" : R"("false")");
}

Status MissingField(std::string_view key) {
  return Status::InvalidArgument("the custom field " + std::string(key) + " is null");
}

}  // namespace custom_header_internal

void AddExtFieldToSend(std::string_view key, std::string_view value, RemotingCommand* command) {
  command->has_ext_fields = true;
  if (command->serialize_type == SerializeType::kJson) {
    ReserveJsonExtFields(&command->json_ext_fields);
    custom_header_internal::AppendJsonField(key, value, &command->json_ext_fields);
  } else {
    command->ext_fields.Set(key, std::string(value));
  }
}

}  // namespace apogee::protocol
