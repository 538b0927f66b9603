#include "base/crc32.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

namespace apogee {

uint32_t Crc32(const void* data, size_t n, uint32_t crc) {
  auto* p = static_cast<const Bytef*>(data);
  uLong c = crc;
  // zlib takes uInt lengths; feed large buffers in chunks.
  while (n > 0) {
    size_t chunk = std::min<size_t>(n, std::numeric_limits<uInt>::max());
    c = crc32(c, p, static_cast<uInt>(chunk));
    p += chunk;
    n -= chunk;
  }
  return static_cast<uint32_t>(c);
}

}  // namespace apogee
