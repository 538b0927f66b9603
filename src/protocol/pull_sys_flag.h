// PullSysFlag (RQ:cm/sysflag/PullSysFlag.java): the sysFlag bits of a PULL_MESSAGE request
// (docs/protocol/remoting.md §5.3.1). Clients set them, the broker reads them; this header is
// their one home.
#pragma once

#include <cstdint>

namespace apogee::protocol {

// Also store the request's commitOffset as the group's offset (first execution only).
inline constexpr int32_t kPullFlagCommitOffset = 0x1;
// The broker may hold the request when nothing is there (long polling).
inline constexpr int32_t kPullFlagSuspend = 0x2;
// The request carries its subscription (subscription / expressionType headers).
inline constexpr int32_t kPullFlagSubscription = 0x4;
// Obsolete class filter.
inline constexpr int32_t kPullFlagClassFilter = 0x8;
// Lite pull consumer (5.x sends LITE_PULL_MESSAGE with it).
inline constexpr int32_t kPullFlagLitePull = 0x10;

// PullSysFlag.buildSysFlag.
constexpr int32_t BuildPullSysFlag(bool commit_offset, bool suspend, bool subscription,
                                   bool class_filter) {
  return (commit_offset ? kPullFlagCommitOffset : 0) | (suspend ? kPullFlagSuspend : 0) |
         (subscription ? kPullFlagSubscription : 0) | (class_filter ? kPullFlagClassFilter : 0);
}

constexpr bool HasCommitOffsetFlag(int32_t flag) { return (flag & kPullFlagCommitOffset) != 0; }
constexpr bool HasSuspendFlag(int32_t flag) { return (flag & kPullFlagSuspend) != 0; }
constexpr bool HasSubscriptionFlag(int32_t flag) { return (flag & kPullFlagSubscription) != 0; }
constexpr bool HasClassFilterFlag(int32_t flag) { return (flag & kPullFlagClassFilter) != 0; }
constexpr bool HasLitePullFlag(int32_t flag) { return (flag & kPullFlagLitePull) != 0; }

// PullSysFlag.clearCommitOffsetFlag.
constexpr int32_t ClearCommitOffsetFlag(int32_t flag) { return flag & ~kPullFlagCommitOffset; }

}  // namespace apogee::protocol
