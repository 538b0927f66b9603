#include "base/string_util.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace apogee {
namespace {

TEST(StringUtilTest, ParseIntegers) {
  EXPECT_EQ(ParseInt64(" 42 "), 42);
  EXPECT_EQ(ParseInt64("-9223372036854775808"), INT64_MIN);
  EXPECT_FALSE(ParseInt64("9223372036854775808"));
  EXPECT_FALSE(ParseInt64("4x"));
  EXPECT_FALSE(ParseInt32("3000000000"));
  EXPECT_FALSE(ParseInt32(""));
}

// Trimming drops exactly the bytes the C locale's isspace calls space, at either end.
TEST(StringUtilTest, TrimDropsWhatIsspaceCallsSpace) {
  for (int c = 0; c < 256; ++c) {
    const std::string one(1, static_cast<char>(c));
    EXPECT_EQ(TrimWhitespace(one).empty(), std::isspace(c) != 0) << c;
    EXPECT_EQ(TrimWhitespace(one + "7" + one), std::isspace(c) != 0 ? "7" : one + "7" + one) << c;
  }
  EXPECT_EQ(ParseInt32("\t\r\n 12 \v\f"), 12);
}

TEST(StringUtilTest, Booleans) {
  EXPECT_TRUE(ParseJavaBoolean("TRUE"));
  EXPECT_FALSE(ParseJavaBoolean("yes"));
  EXPECT_EQ(ParseBoolStrict("False"), false);
  EXPECT_FALSE(ParseBoolStrict("1"));
}

TEST(StringUtilTest, SplitAndHex) {
  auto parts = SplitString("a;b;;c", ';', true);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2], "c");
  EXPECT_EQ(HexEncodeUpper(std::string("\x0a\xff", 2)), "0AFF");
  EXPECT_EQ(HexDecode("0aFF"), std::string("\x0a\xff", 2));
  EXPECT_FALSE(HexDecode("0G"));
}

}  // namespace
}  // namespace apogee
