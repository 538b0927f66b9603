#include "base/coding.h"

#include <gtest/gtest.h>

namespace apogee {
namespace {

TEST(CodingTest, BigEndianRoundTrip) {
  std::string buf;
  ByteWriter w(&buf);
  w.PutU16(0x0102);
  w.PutI32(-2);
  w.PutU64(0x0102030405060708ull);
  ASSERT_EQ(buf.size(), 14u);
  EXPECT_EQ(static_cast<uint8_t>(buf[0]), 0x01);
  EXPECT_EQ(static_cast<uint8_t>(buf[6]), 0x01);
  EXPECT_EQ(static_cast<uint8_t>(buf[13]), 0x08);

  ByteReader r(buf);
  uint16_t a;
  int32_t b;
  uint64_t c;
  ASSERT_TRUE(r.ReadU16(&a));
  ASSERT_TRUE(r.ReadI32(&b));
  ASSERT_TRUE(r.ReadU64(&c));
  EXPECT_EQ(a, 0x0102);
  EXPECT_EQ(b, -2);
  EXPECT_EQ(c, 0x0102030405060708ull);
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_FALSE(r.ReadU8(nullptr));
}

TEST(CodingTest, ShortReadFails) {
  std::string buf("\x01\x02\x03", 3);
  ByteReader r(buf);
  uint32_t v;
  EXPECT_FALSE(r.ReadU32(&v));
  std::string_view view;
  EXPECT_FALSE(r.ReadBytes(4, &view));
  EXPECT_TRUE(r.ReadBytes(3, &view));
}

TEST(CodingTest, PatchU32) {
  std::string buf;
  ByteWriter w(&buf);
  w.PutU32(0);
  w.PutU8(9);
  w.PatchU32(0, 5);
  EXPECT_EQ(DecodeFixed32(reinterpret_cast<const uint8_t*>(buf.data())), 5u);
}

}  // namespace
}  // namespace apogee
