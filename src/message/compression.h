// Body compression as RocketMQ producers do it: zlib (the Java Deflater's format, with the
// zlib header) at level 5 for bodies of at least 4096 bytes, flagged in sysFlag bit 0 plus the
// type bits 8-10. The broker stores compressed bodies as they come; consumers inflate them.
// Only zlib is implemented; LZ4 and ZSTD bodies (5.x type bits) are reported NotSupported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "message/message_format.h"

namespace apogee::message {

enum class CompressionType { kZlib, kLz4, kZstd };

// The compression a sysFlag announces; type bits 0 mean zlib (pre-4.9.4 clients).
CompressionType CompressionTypeFromSysFlag(int32_t sys_flag);
std::string_view CompressionTypeName(CompressionType type);

// zlib-compresses `body` (level 0..9).
Result<std::string> CompressBody(std::string_view body, int level = kDefaultZlibLevel);
// Inflates a body stored under `sys_flag` (which must have kCompressedFlag). Output larger
// than `max_size` is Corruption (a guard against decompression bombs).
Result<std::string> DecompressBody(std::string_view body, int32_t sys_flag,
                                   size_t max_size = kDefaultMaxMessageSize * 16);
// sys_flag with kCompressedFlag and the zlib type bits set, as Java 4.9.4+ producers send.
int32_t MarkZlibCompressed(int32_t sys_flag);

}  // namespace apogee::message
