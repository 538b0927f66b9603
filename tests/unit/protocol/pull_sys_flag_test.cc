// PullSysFlag: the bit values and builders are Java's (PullSysFlag.java).
#include "protocol/pull_sys_flag.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(PullSysFlagTest, BitsAsJava) {
  EXPECT_EQ(kPullFlagCommitOffset, 1);
  EXPECT_EQ(kPullFlagSuspend, 2);
  EXPECT_EQ(kPullFlagSubscription, 4);
  EXPECT_EQ(kPullFlagClassFilter, 8);
  EXPECT_EQ(kPullFlagLitePull, 16);
}

TEST(PullSysFlagTest, BuildSetsExactlyTheNamedBits) {
  EXPECT_EQ(BuildPullSysFlag(false, true, false, false), 2);
  EXPECT_EQ(BuildPullSysFlag(true, true, true, false), 7);
  EXPECT_EQ(BuildPullSysFlag(false, false, false, true), 8);
  EXPECT_EQ(BuildPullSysFlag(false, false, false, false), 0);
}

TEST(PullSysFlagTest, QueriesAndClear) {
  const int32_t flag = BuildPullSysFlag(true, true, true, false) | kPullFlagLitePull;
  EXPECT_TRUE(HasCommitOffsetFlag(flag));
  EXPECT_TRUE(HasSuspendFlag(flag));
  EXPECT_TRUE(HasSubscriptionFlag(flag));
  EXPECT_FALSE(HasClassFilterFlag(flag));
  EXPECT_TRUE(HasLitePullFlag(flag));
  const int32_t cleared = ClearCommitOffsetFlag(flag);
  EXPECT_FALSE(HasCommitOffsetFlag(cleared));
  EXPECT_EQ(cleared, flag - kPullFlagCommitOffset);
  EXPECT_EQ(ClearCommitOffsetFlag(cleared), cleared);
}

}  // namespace
}  // namespace apogee::protocol
