// Big-endian fixed-width coding, the byte order of Java's ByteBuffer and so of every
// RocketMQ wire and disk format. All fixed-width encoding in Apogee goes through here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee {

inline void EncodeFixed16(uint8_t* dst, uint16_t v) {
  dst[0] = static_cast<uint8_t>(v >> 8);
  dst[1] = static_cast<uint8_t>(v);
}
inline void EncodeFixed32(uint8_t* dst, uint32_t v) {
  dst[0] = static_cast<uint8_t>(v >> 24);
  dst[1] = static_cast<uint8_t>(v >> 16);
  dst[2] = static_cast<uint8_t>(v >> 8);
  dst[3] = static_cast<uint8_t>(v);
}
inline void EncodeFixed64(uint8_t* dst, uint64_t v) {
  EncodeFixed32(dst, static_cast<uint32_t>(v >> 32));
  EncodeFixed32(dst + 4, static_cast<uint32_t>(v));
}
inline uint16_t DecodeFixed16(const uint8_t* p) {
  return static_cast<uint16_t>((uint16_t{p[0]} << 8) | p[1]);
}
inline uint32_t DecodeFixed32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}
inline uint64_t DecodeFixed64(const uint8_t* p) {
  return (uint64_t{DecodeFixed32(p)} << 32) | DecodeFixed32(p + 4);
}

// Appends big-endian values to a std::string used as a byte buffer.
class ByteWriter {
 public:
  explicit ByteWriter(std::string* out) : out_(out) {}
  void PutU8(uint8_t v) { out_->push_back(static_cast<char>(v)); }
  void PutU16(uint16_t v) { Put<2>(v, EncodeFixed16); }
  void PutU32(uint32_t v) { Put<4>(v, EncodeFixed32); }
  void PutU64(uint64_t v) { Put<8>(v, EncodeFixed64); }
  void PutI16(int16_t v) { PutU16(static_cast<uint16_t>(v)); }
  void PutI32(int32_t v) { PutU32(static_cast<uint32_t>(v)); }
  void PutI64(int64_t v) { PutU64(static_cast<uint64_t>(v)); }
  void PutBytes(std::string_view bytes) { out_->append(bytes); }
  void PutBytes(const void* data, size_t n) { out_->append(static_cast<const char*>(data), n); }
  size_t size() const { return out_->size(); }
  // Overwrites a 32-bit value already written at `pos` (e.g. a length known only later).
  void PatchU32(size_t pos, uint32_t v) {
    EncodeFixed32(reinterpret_cast<uint8_t*>(out_->data() + pos), v);
  }

 private:
  template <size_t N, typename T, typename F>
  void Put(T v, F encode) {
    uint8_t buf[N];
    encode(buf, v);
    out_->append(reinterpret_cast<const char*>(buf), N);
  }
  std::string* out_;
};

// Reads big-endian values from a bounded span. Every read checks the remaining length;
// a short read returns false and leaves the reader positioned at the failure.
class ByteReader {
 public:
  ByteReader(const void* data, size_t size)
      : p_(static_cast<const uint8_t*>(data)), end_(p_ + size), begin_(p_) {}
  explicit ByteReader(std::string_view s) : ByteReader(s.data(), s.size()) {}

  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  size_t position() const { return static_cast<size_t>(p_ - begin_); }
  const uint8_t* current() const { return p_; }

  bool ReadU8(uint8_t* v) { return Read<1>(v, [](const uint8_t* p) { return p[0]; }); }
  bool ReadU16(uint16_t* v) { return Read<2>(v, DecodeFixed16); }
  bool ReadU32(uint32_t* v) { return Read<4>(v, DecodeFixed32); }
  bool ReadU64(uint64_t* v) { return Read<8>(v, DecodeFixed64); }
  bool ReadI8(int8_t* v) {
    uint8_t u;
    if (!ReadU8(&u)) return false;
    *v = static_cast<int8_t>(u);
    return true;
  }
  bool ReadI16(int16_t* v) {
    uint16_t u;
    if (!ReadU16(&u)) return false;
    *v = static_cast<int16_t>(u);
    return true;
  }
  bool ReadI32(int32_t* v) {
    uint32_t u;
    if (!ReadU32(&u)) return false;
    *v = static_cast<int32_t>(u);
    return true;
  }
  bool ReadI64(int64_t* v) {
    uint64_t u;
    if (!ReadU64(&u)) return false;
    *v = static_cast<int64_t>(u);
    return true;
  }
  // A view of the next n bytes (no copy), valid while the underlying buffer lives.
  bool ReadBytes(size_t n, std::string_view* out) {
    if (remaining() < n) return false;
    *out = std::string_view(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return true;
  }
  bool Skip(size_t n) {
    if (remaining() < n) return false;
    p_ += n;
    return true;
  }

 private:
  template <size_t N, typename T, typename F>
  bool Read(T* v, F decode) {
    if (remaining() < N) return false;
    *v = static_cast<T>(decode(p_));
    p_ += N;
    return true;
  }
  const uint8_t* p_;
  const uint8_t* end_;
  const uint8_t* begin_;
};

}  // namespace apogee
