#include "protocol/custom_header.h"

#include <charconv>
#include <string>

#include "base/string_util.h"

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

Status MissingField(std::string_view key) {
  return Status::InvalidArgument("the custom field " + std::string(key) + " is null");
}

}  // namespace custom_header_internal
}  // namespace apogee::protocol
