#include "base/java_hash.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace apogee
