#include "base/crc32.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

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

// The CRC is computed by ISA-L; zlib's crc32 is the reference (java.util.zip.CRC32 is zlib's):
// every length around the folding loops' block sizes, every alignment, and chaining.
TEST(Crc32Test, MatchesZlibForEveryLengthAndAlignment) {
  std::mt19937 rng(42);
  std::string data(5000, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  for (size_t offset = 0; offset < 16; ++offset) {
    for (size_t n = 0; n + offset <= data.size(); n += (n < 300 ? 1 : 97)) {
      const auto* p = reinterpret_cast<const Bytef*>(data.data() + offset);
      const uint32_t expected = static_cast<uint32_t>(crc32(0, p, static_cast<uInt>(n)));
      ASSERT_EQ(Crc32(p, n), expected) << "offset " << offset << " length " << n;
      const size_t half = n / 3;
      ASSERT_EQ(Crc32(p + half, n - half, Crc32(p, half)), expected) << "chained at " << half;
    }
  }
}

}  // namespace
}  // namespace apogee
