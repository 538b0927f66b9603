// PermName (RQ:cm/constant/PermName.java): the permission bits of a broker, a topic and a
// route's queue data (docs/protocol/remoting.md §8.4). The one home of these bits; every
// module that reads or writes a perm uses these names and checks.
#pragma once

#include <cstdint>
#include <string>

namespace apogee::protocol {

inline constexpr int32_t kPermPriority = 0x8;
inline constexpr int32_t kPermRead = 0x4;
inline constexpr int32_t kPermWrite = 0x2;
inline constexpr int32_t kPermInherit = 0x1;
// The default of topics, brokers and queue data.
inline constexpr int32_t kPermReadWrite = kPermRead | kPermWrite;

constexpr bool IsReadable(int32_t perm) { return (perm & kPermRead) != 0; }
constexpr bool IsWriteable(int32_t perm) { return (perm & kPermWrite) != 0; }
constexpr bool IsInherited(int32_t perm) { return (perm & kPermInherit) != 0; }
constexpr bool IsPriority(int32_t perm) { return (perm & kPermPriority) != 0; }

// True when `perm` uses only the four known bits (0..15).
constexpr bool IsValidPerm(int32_t perm) {
  return perm >= 0 && (perm & ~(kPermPriority | kPermRead | kPermWrite | kPermInherit)) == 0;
}

// PermName.perm2String: "RWX" with '-' for a missing bit, X = inherit ("RW-" for 6).
std::string PermToString(int32_t perm);

}  // namespace apogee::protocol
