// TopicSysFlag (RQ:cm/sysflag/TopicSysFlag.java): the topicSysFlag bits of a topic config and
// a route's queue data (docs/protocol/remoting.md §8.4). Only Alibaba's unit mode uses them.
#pragma once

#include <cstdint>

namespace apogee::protocol {

inline constexpr int32_t kTopicSysFlagUnit = 0x1;
inline constexpr int32_t kTopicSysFlagUnitSub = 0x2;

constexpr bool HasUnitFlag(int32_t flag) { return (flag & kTopicSysFlagUnit) != 0; }
constexpr bool HasUnitSubFlag(int32_t flag) { return (flag & kTopicSysFlagUnitSub) != 0; }

}  // namespace apogee::protocol
