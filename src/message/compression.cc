#include "message/compression.h"

#include <zlib.h>

#include <algorithm>

namespace apogee::message {

CompressionType CompressionTypeFromSysFlag(int32_t sys_flag) {
  switch (sys_flag & kCompressionTypeMask) {
    case kCompressionLz4:
      return CompressionType::kLz4;
    case kCompressionZstd:
      return CompressionType::kZstd;
    default:
      return CompressionType::kZlib;  // kCompressionZlib, 0, and undefined values
  }
}

std::string_view CompressionTypeName(CompressionType type) {
  switch (type) {
    case CompressionType::kZlib:
      return "ZLIB";
    case CompressionType::kLz4:
      return "LZ4";
    case CompressionType::kZstd:
      return "ZSTD";
  }
  return "unknown";
}

Result<std::string> CompressBody(std::string_view body, int level) {
  if (level < 0 || level > 9) {
    return Status::InvalidArgument("zlib level " + std::to_string(level) + " outside 0..9");
  }
  uLongf bound = compressBound(static_cast<uLong>(body.size()));
  std::string out(bound, '\0');
  int rc = compress2(reinterpret_cast<Bytef*>(out.data()), &bound,
                     reinterpret_cast<const Bytef*>(body.data()), static_cast<uLong>(body.size()),
                     level);
  if (rc != Z_OK) return Status::Internal("zlib compress2 failed with code " + std::to_string(rc));
  out.resize(bound);
  return out;
}

Result<std::string> DecompressBody(std::string_view body, int32_t sys_flag, size_t max_size) {
  if ((sys_flag & kCompressedFlag) == 0) {
    return Status::InvalidArgument("sysFlag " + std::to_string(sys_flag) +
                                   " does not mark the body compressed");
  }
  const CompressionType type = CompressionTypeFromSysFlag(sys_flag);
  if (type != CompressionType::kZlib) {
    return Status::NotSupported("body compressed with " + std::string(CompressionTypeName(type)) +
                                "; only ZLIB is supported");
  }
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return Status::Internal("zlib inflateInit failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  zs.avail_in = static_cast<uInt>(body.size());
  std::string out;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    const size_t chunk = std::max<size_t>(body.size() * 4, 4096);
    const size_t old = out.size();
    if (old >= max_size + 1) break;
    const size_t grow = std::min(chunk, max_size + 1 - old);
    out.resize(old + grow);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + old);
    zs.avail_out = static_cast<uInt>(grow);
    rc = inflate(&zs, Z_NO_FLUSH);
    out.resize(old + grow - zs.avail_out);
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK) {
      inflateEnd(&zs);
      return Status::Corruption("compressed body does not inflate (zlib code " +
                                std::to_string(rc) + (zs.msg ? std::string(", ") + zs.msg : "") +
                                ")");
    }
    if (zs.avail_in == 0 && zs.avail_out != 0) {
      inflateEnd(&zs);
      return Status::Corruption("compressed body ends before the zlib stream does");
    }
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || out.size() > max_size) {
    return Status::Corruption("compressed body inflates to more than " + std::to_string(max_size) +
                              " bytes");
  }
  return out;
}

int32_t MarkZlibCompressed(int32_t sys_flag) {
  return (sys_flag & ~kCompressionTypeMask) | kCompressedFlag | kCompressionZlib;
}

}  // namespace apogee::message
