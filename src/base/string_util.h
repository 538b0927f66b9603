// Small string helpers shared by config parsing and protocol code.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apogee {

std::string_view TrimWhitespace(std::string_view s);
// Splits on `sep`; empty pieces are kept unless skip_empty.
std::vector<std::string> SplitString(std::string_view s, char sep, bool skip_empty = false);
// Strict decimal parses of the whole string (leading/trailing blanks allowed, as Java's
// Long.parseLong after trim()); nullopt when it is not a number or overflows.
std::optional<int64_t> ParseInt64(std::string_view s);
std::optional<int32_t> ParseInt32(std::string_view s);
// Java Boolean.parseBoolean: "true" in any case is true, anything else false.
bool ParseJavaBoolean(std::string_view s);
// Strict boolean for config values: true/false in any case; nullopt otherwise.
std::optional<bool> ParseBoolStrict(std::string_view s);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
std::string ToLowerAscii(std::string_view s);
// Upper-case hex of bytes.
std::string HexEncodeUpper(std::string_view bytes);
// Parses hex (either case) into bytes; nullopt on odd length or a bad digit.
std::optional<std::string> HexDecode(std::string_view hex);

}  // namespace apogee
