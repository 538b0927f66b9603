#include "ha/ha_format.h"

#include <gtest/gtest.h>

namespace apogee::ha {
namespace {

TEST(HaFormatTest, TransferHeaderIsBigEndianOffsetThenSize) {
  uint8_t buf[kTransferHeaderSize];
  EncodeTransferHeader(TransferHeader{0x0102030405060708LL, 0x0A0B0C0D}, buf);
  const uint8_t want[] = {1, 2, 3, 4, 5, 6, 7, 8, 0x0A, 0x0B, 0x0C, 0x0D};
  for (size_t i = 0; i < kTransferHeaderSize; ++i) EXPECT_EQ(buf[i], want[i]) << i;
  TransferHeader h = DecodeTransferHeader(buf);
  EXPECT_EQ(h.offset, 0x0102030405060708LL);
  EXPECT_EQ(h.body_size, 0x0A0B0C0D);
}

TEST(HaFormatTest, ReportIsEightBigEndianBytes) {
  uint8_t buf[kReportSize];
  EncodeReport(1073741824LL + 5, buf);
  EXPECT_EQ(buf[4], 0x40);
  EXPECT_EQ(buf[7], 5);
  EXPECT_EQ(DecodeReport(buf), 1073741824LL + 5);
}

TEST(HaFormatTest, ResumeCheckStartStaysInTheLastFile) {
  EXPECT_EQ(ResumeCheckStart(0, 1024), 0);
  EXPECT_EQ(ResumeCheckStart(100, 1 << 20), 0);  // whole tail is shorter than the check
  EXPECT_EQ(ResumeCheckStart(10000, 1 << 20), 10000 - kResumeCheckBytes);
  // Just past a file start: only the bytes of that file.
  EXPECT_EQ(ResumeCheckStart(4096 + 10, 4096), 4096);
  // Exactly at a file end: the check covers the previous (full) file's tail.
  EXPECT_EQ(ResumeCheckStart(8192, 4096), 4096);
  EXPECT_EQ(ResumeCheckStart(3 * 8192, 8192), 3 * 8192 - kResumeCheckBytes);
}

TEST(HaFormatTest, FreshSlaveStartsAtTheMastersLastFileUnlessFullCopy) {
  EXPECT_EQ(FirstTransferOffset(0, 3000, 0, 1024, false), 2048);
  EXPECT_EQ(FirstTransferOffset(0, 3000, 1024, 1024, true), 1024);
  EXPECT_EQ(FirstTransferOffset(777, 3000, 0, 1024, false), 777);
  EXPECT_EQ(FirstTransferOffset(0, 0, 0, 1024, false), 0);
}

}  // namespace
}  // namespace apogee::ha
