#include "base/java_hash.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace apogee {
namespace {

TEST(JavaHashTest, AsciiMatchesJava) {
  EXPECT_EQ(JavaStringHashCode(""), 0);
  EXPECT_EQ(JavaStringHashCode("TagA"), 2598919);        // "TagA".hashCode()
  EXPECT_EQ(JavaStringHashCode("hello world"), 1794106052);
  // Overflow wraps like Java int arithmetic.
  EXPECT_EQ(JavaStringHashCode("TopicTest#key-0123456789"), -390309707);
}

TEST(JavaHashTest, NonAsciiUsesUtf16Units) {
  // "é" is U+00E9: one UTF-16 unit 233, two UTF-8 bytes.
  EXPECT_EQ(JavaStringHashCode("\xC3\xA9"), 233);
  // "中" U+4E2D = 20013.
  EXPECT_EQ(JavaStringHashCode("\xE4\xB8\xAD"), 20013);
  // U+1F600 is the surrogate pair D83D DE00: 31*0xD83D + 0xDE00.
  EXPECT_EQ(JavaStringHashCode("\xF0\x9F\x98\x80"), 31 * 0xD83D + 0xDE00);
}

// Strings built from pieces whose UTF-16 units are known, so the expected hash is Java's
// definition (h = 31 * h + unit over the units) and not this implementation: checks the
// four-bytes-at-a-time ASCII path across every mix of ASCII runs and multi-byte characters,
// at every alignment (an ASCII prefix of 0-3 bytes).
TEST(JavaHashTest, AsciiRunsMixedWithMultiByteMatchTheUnitDefinition) {
  struct Piece {
    std::string utf8;
    std::vector<uint32_t> units;
  };
  auto ascii = [](std::string s) { return Piece{s, std::vector<uint32_t>(s.begin(), s.end())}; };
  const Piece pieces[] = {ascii("a"), ascii("TopicTest#"), ascii("key-0123456789 "),
                          Piece{"\xC3\xA9", {0xE9}}, Piece{"\xE4\xB8\xAD", {0x4E2D}},
                          Piece{"\xF0\x9F\x98\x80", {0xD83D, 0xDE00}}};
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) {
    Piece s = ascii(std::string(rng() % 4, 'x'));
    const int n = static_cast<int>(rng() % 12);
    for (int k = 0; k < n; ++k) {
      const Piece& p = pieces[rng() % std::size(pieces)];
      s.utf8 += p.utf8;
      s.units.insert(s.units.end(), p.units.begin(), p.units.end());
    }
    uint32_t expected = 0;
    for (uint32_t u : s.units) expected = 31 * expected + u;
    ASSERT_EQ(JavaStringHashCode(s.utf8), static_cast<int32_t>(expected)) << i;
  }
}

}  // namespace
}  // namespace apogee
