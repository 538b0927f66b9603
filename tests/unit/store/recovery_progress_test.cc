#include "store/recovery_progress.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/clock.h"

namespace apogee::store {
namespace {

TEST(RecoveryProgressTest, FormatsBytesPercentRateAndEta) {
  EXPECT_EQ(RecoveryProgress::Format(512LL << 20, 2048LL << 20, 2000),
            "recovering CommitLog: 512.0 MiB of 2.0 GiB (25%), 256.0 MiB/s, ETA 6 s");
  EXPECT_EQ(RecoveryProgress::Format(0, 100, 0), "recovering CommitLog: 0 B of 100 B (0%)");
}

TEST(RecoveryProgressTest, ReportsAtMostOncePerSecond) {
  ManualClock clock(0);
  std::vector<std::string> lines;
  RecoveryProgress p(1000, 1000 + (1 << 20), &clock, [&](const std::string& l) { lines.push_back(l); });
  for (int i = 1; i <= 4096 * 3; ++i) p.Update(1000 + i);  // no time passed: silent
  EXPECT_TRUE(lines.empty());
  clock.Advance(1500);
  for (int i = 0; i < 4096; ++i) p.Update(1000 + (1 << 19));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("(50%)"), std::string::npos) << lines[0];
  EXPECT_EQ(p.scanned(), 1 << 19);
  EXPECT_EQ(p.total(), 1 << 20);
}

}  // namespace
}  // namespace apogee::store
