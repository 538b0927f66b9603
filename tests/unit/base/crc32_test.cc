#include "base/crc32.h"

#include <gtest/gtest.h>

namespace apogee {
namespace {

TEST(Crc32Test, MatchesJavaUtilZipCrc32) {
  // java.util.zip.CRC32 of "123456789" is 0xCBF43926 (the standard check value).
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(Crc32(""), 0u);
}

TEST(Crc32Test, MaskedClearsTopBit) {
  EXPECT_EQ(Crc32Masked("123456789"), 0xCBF43926u & 0x7FFFFFFFu);
}

TEST(Crc32Test, Incremental) {
  uint32_t c = Crc32("12345", 5);
  c = Crc32("6789", 4, c);
  EXPECT_EQ(c, 0xCBF43926u);
}

}  // namespace
}  // namespace apogee
