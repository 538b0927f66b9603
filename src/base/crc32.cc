#include "base/crc32.h"

// ISA-L's crc32_gzip_refl is the same CRC as zlib's crc32 (reflected 0xEDB88320, pre- and
// post-inverted, so the running value chains the same way) and picks a PCLMULQDQ/VPCLMULQDQ
// folding loop at run time. zlib 1.2.13's table CRC ran at ~1.1 GB/s here and was a third of
// crash recovery's CPU (docs/benchmarks.md, "Restart after kill -9").
#include <isa-l/crc.h>

namespace apogee {

uint32_t Crc32(const void* data, size_t n, uint32_t crc) {
  if (n == 0) return crc;
  return crc32_gzip_refl(crc, static_cast<const unsigned char*>(data), n);
}

}  // namespace apogee
