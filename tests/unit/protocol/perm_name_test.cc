// PermName: Java's bit values, checks and perm2String.
#include "protocol/perm_name.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(PermNameTest, BitsAsJava) {
  EXPECT_EQ(kPermPriority, 8);
  EXPECT_EQ(kPermRead, 4);
  EXPECT_EQ(kPermWrite, 2);
  EXPECT_EQ(kPermInherit, 1);
  EXPECT_EQ(kPermReadWrite, 6);
}

TEST(PermNameTest, BitsAndStrings) {
  EXPECT_TRUE(IsReadable(6));
  EXPECT_TRUE(IsWriteable(6));
  EXPECT_FALSE(IsInherited(6));
  EXPECT_TRUE(IsInherited(7));
  EXPECT_TRUE(IsPriority(kPermPriority | kPermRead));
  EXPECT_EQ(PermToString(6), "RW-");
  EXPECT_EQ(PermToString(7), "RWX");
  EXPECT_EQ(PermToString(4), "R--");
  EXPECT_EQ(PermToString(2), "-W-");
  EXPECT_EQ(PermToString(1), "--X");
  EXPECT_EQ(PermToString(0), "---");
}

TEST(PermNameTest, ValidPerm) {
  EXPECT_TRUE(IsValidPerm(0));
  EXPECT_TRUE(IsValidPerm(15));
  EXPECT_FALSE(IsValidPerm(16));
  EXPECT_FALSE(IsValidPerm(-1));
}

}  // namespace
}  // namespace apogee::protocol
