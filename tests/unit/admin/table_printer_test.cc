#include "admin/table_printer.h"

#include <gtest/gtest.h>

namespace apogee::admin {
namespace {

TEST(TablePrinterTest, PadsLikePrintf) {
  EXPECT_EQ(Pad("ab", 5, true), "ab   ");
  EXPECT_EQ(Pad("ab", 5, false), "   ab");
  EXPECT_EQ(Pad("abcdef", 3, true), "abcdef");  // never cut
  EXPECT_EQ(Pad("x", 0, true), "x");
}

TEST(TablePrinterTest, HeaderAndRowsAligned) {
  TablePrinter t({{"#Topic", 8}, {"#QID", 4}, {"#Offset", 6, false}, {"#Last", 0}});
  t.AddRow({"T1", "0", "12", "x"});
  t.AddRow({"LongTopicName", "1", "3", "y"});
  EXPECT_EQ(t.ToString(),
            "#Topic    #QID  #Offset  #Last\n"
            "T1        0         12  x\n"
            "LongTopicName  1          3  y\n");
  EXPECT_EQ(t.row_count(), 2u);
}

TEST(TablePrinterTest, LastLeftAlignedColumnHasNoTrailingBlanks) {
  TablePrinter t({{"#A", 4}, {"#B", 10}});
  EXPECT_EQ(t.FormatLine({"a", "b"}), "a     b");
}

TEST(TablePrinterTest, ShortAndLongRows) {
  TablePrinter t({{"#A", 3}, {"#B", 3}});
  EXPECT_EQ(t.FormatLine({"a"}), "a    ");
  EXPECT_EQ(t.FormatLine({"a", "b", "c"}), "a    b c");
  EXPECT_EQ(t.ToString(false), "");
}

TEST(TablePrinterTest, CustomSeparator) {
  TablePrinter t({{"#A", 2, true, " "}, {"#B", 2}});
  EXPECT_EQ(t.FormatLine({"a", "b"}), "a  b");
}

}  // namespace
}  // namespace apogee::admin
