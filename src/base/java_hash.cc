#include "base/java_hash.h"

#include <cstring>

namespace apogee {

int32_t JavaStringHashCode(std::string_view utf8) {
  uint32_t h = 0;
  auto add = [&h](uint32_t unit) { h = 31 * h + unit; };
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  const auto* end = p + utf8.size();
  while (p < end) {
    // ASCII is one UTF-16 unit per byte: four bytes at a time while no high bit is set (index
    // keys and tags are ASCII; this was a fifth of crash recovery's instructions).
    while (end - p >= 4) {
      uint32_t word;
      std::memcpy(&word, p, 4);
      if ((word & 0x80808080u) != 0) break;
      h = h * (31u * 31u * 31u * 31u) + p[0] * (31u * 31u * 31u) + p[1] * (31u * 31u) +
          p[2] * 31u + p[3];
      p += 4;
    }
    if (p == end) break;
    uint32_t c = *p;
    if (c < 0x80) {
      add(c);
      ++p;
      continue;
    }
    size_t len = 1;
    uint32_t cp = c;
    if (c >= 0xF0 && c <= 0xF4 && end - p >= 4) {
      len = 4;
      cp = ((c & 0x07) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
    } else if (c >= 0xE0 && end - p >= 3) {
      len = 3;
      cp = ((c & 0x0F) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
    } else if (c >= 0xC0 && end - p >= 2) {
      len = 2;
      cp = ((c & 0x1F) << 6) | (p[1] & 0x3Fu);
    } else if (c >= 0x80) {
      cp = 0xFFFD;  // Java decodes malformed UTF-8 to U+FFFD.
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      add(0xD800 + (cp >> 10));
      add(0xDC00 + (cp & 0x3FF));
    } else {
      add(cp);
    }
    p += len;
  }
  return static_cast<int32_t>(h);
}

}  // namespace apogee
