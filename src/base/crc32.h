// CRC-32 as java.util.zip.CRC32 computes it (zlib's polynomial), which RocketMQ uses for
// message body CRCs and for the NameServer registration body check. Not CRC-32C.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace apogee {

// zlib crc32 of `data`, continuing from `crc` (0 to start).
uint32_t Crc32(const void* data, size_t n, uint32_t crc = 0);
inline uint32_t Crc32(std::string_view data) { return Crc32(data.data(), data.size()); }

// RocketMQ's UtilAll.crc32: the CRC with the top bit cleared, so it fits a Java int
// as a non-negative value. This is what BODYCRC and bodyCrc32 carry.
inline uint32_t Crc32Masked(const void* data, size_t n) { return Crc32(data, n) & 0x7FFFFFFFu; }
inline uint32_t Crc32Masked(std::string_view data) { return Crc32Masked(data.data(), data.size()); }

}  // namespace apogee
