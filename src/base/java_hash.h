// Java's String.hashCode() over a UTF-8 string, computed on its UTF-16 code units with
// 32-bit wrap-around. RocketMQ uses it for tag codes in the ConsumeQueue and heartbeat
// codeSet, and for IndexFile keys; hashing the UTF-8 bytes instead would silently break
// non-ASCII tags and keys.
#pragma once

#include <cstdint>
#include <string_view>

namespace apogee {

int32_t JavaStringHashCode(std::string_view utf8);

}  // namespace apogee
