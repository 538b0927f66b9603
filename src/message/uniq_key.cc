#include "message/uniq_key.h"

#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <optional>

#include "base/coding.h"
#include "base/string_util.h"
#include "message/message_format.h"

namespace apogee::message {
namespace {

// Bytes after the address: pid int16 + hash int32 + time int32 + counter int16.
constexpr size_t kPidLength = 2;
constexpr size_t kLoaderHashLength = 4;
constexpr size_t kTimeLength = 4;
constexpr size_t kCounterLength = 2;
// Java clamps a slightly negative time delta (clock stepped back a little) to 0.
constexpr int32_t kNegativeClampMs = -1000000;

std::string HexOf(const uint8_t* p, size_t n) {
  return HexEncodeUpper(std::string_view(reinterpret_cast<const char*>(p), n));
}

bool IsPrivateIPv4(const uint8_t* a) {
  return a[0] == 10 || (a[0] == 172 && a[1] >= 16 && a[1] <= 31) || (a[0] == 192 && a[1] == 168);
}

bool IsUsableIPv4(const uint8_t* a) {
  // Not 0.x, not loopback handled by caller, not link-local 169.254, not multicast/reserved.
  return a[0] != 0 && !(a[0] == 169 && a[1] == 254) && a[0] < 224;
}

bool IsPublicIPv6(const uint8_t* a) {
  static const uint8_t kZero[16] = {};
  if (std::memcmp(a, kZero, 15) == 0) return false;         // :: and ::1
  if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) return false;  // link-local fe80::/10
  if ((a[0] & 0xFE) == 0xFC) return false;                  // unique-local fc00::/7
  if (a[0] == 0xFF) return false;                           // multicast
  return true;
}

}  // namespace

void MonthBoundsLocal(int64_t now_ms, int64_t* month_start_ms, int64_t* next_month_start_ms) {
  time_t secs = static_cast<time_t>(now_ms / 1000);
  struct tm local;
  localtime_r(&secs, &local);
  local.tm_mday = 1;
  local.tm_hour = 0;
  local.tm_min = 0;
  local.tm_sec = 0;
  local.tm_isdst = -1;
  struct tm next = local;
  *month_start_ms = static_cast<int64_t>(mktime(&local)) * 1000;
  next.tm_mon += 1;  // mktime normalises December + 1
  *next_month_start_ms = static_cast<int64_t>(mktime(&next)) * 1000;
}

UniqKeyGenerator::UniqKeyGenerator(const HostAddress& ip, int32_t pid, int32_t loader_hash,
                                   const Clock* clock)
    : clock_(clock) {
  uint8_t tail[kPidLength + kLoaderHashLength];
  EncodeFixed16(tail, static_cast<uint16_t>(pid));
  EncodeFixed32(tail + kPidLength, static_cast<uint32_t>(loader_hash));
  prefix_ = HexOf(ip.ip.data(), ip.address_length()) + HexOf(tail, sizeof(tail));
  MoveMonthLocked(clock_->NowMillis());
}

UniqKeyGenerator& UniqKeyGenerator::Default() {
  static UniqKeyGenerator* const kDefault = [] {
    // Java uses the class loader's identity hash; the address of a static is as good.
    static int anchor = 0;
    const auto hash = static_cast<int32_t>(reinterpret_cast<uintptr_t>(&anchor) >> 4);
    return new UniqKeyGenerator(PickClientIp(), static_cast<int32_t>(getpid()), hash);
  }();
  return *kDefault;
}

void UniqKeyGenerator::MoveMonthLocked(int64_t now_ms) {
  MonthBoundsLocal(now_ms, &month_start_ms_, &next_month_start_ms_);
}

std::string UniqKeyGenerator::Next() {
  std::string id;
  NextTo(&id);
  return id;
}

void UniqKeyGenerator::NextTo(std::string* out) {
  const int64_t now = clock_->NowMillis();
  int64_t delta;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (now >= next_month_start_ms_) MoveMonthLocked(now);
    delta = now - month_start_ms_;
  }
  // Java truncates to int first (wrapping after ~24.8 days) and clamps afterwards.
  auto diff = static_cast<int32_t>(delta);
  if (diff < 0 && diff > kNegativeClampMs) diff = 0;
  uint8_t tail[kTimeLength + kCounterLength];
  EncodeFixed32(tail, static_cast<uint32_t>(diff));
  EncodeFixed16(tail + kTimeLength, counter_.fetch_add(1, std::memory_order_relaxed));
  out->reserve(prefix_.size() + 2 * sizeof(tail));
  out->assign(prefix_);
  out->append(HexOf(tail, sizeof(tail)));  // 12 digits: held inline, no allocation
}

Result<UniqKeyInfo> ParseUniqKey(std::string_view id) {
  if (id.size() != kUniqKeyLengthIPv4 && id.size() != kUniqKeyLengthIPv6) {
    return Status::InvalidArgument("UNIQ_KEY '" + std::string(id) + "' has " +
                                   std::to_string(id.size()) + " characters, expected " +
                                   std::to_string(kUniqKeyLengthIPv4) + " or " +
                                   std::to_string(kUniqKeyLengthIPv6));
  }
  std::optional<std::string> raw = HexDecode(id);
  if (!raw) return Status::InvalidArgument("UNIQ_KEY '" + std::string(id) + "' is not hex");
  const auto* p = reinterpret_cast<const uint8_t*>(raw->data());
  UniqKeyInfo info;
  info.ip.ipv6 = id.size() == kUniqKeyLengthIPv6;
  const size_t ip_len = info.ip.address_length();
  std::memcpy(info.ip.ip.data(), p, ip_len);
  p += ip_len;
  info.pid = static_cast<int16_t>(DecodeFixed16(p));
  info.loader_hash = static_cast<int32_t>(DecodeFixed32(p + kPidLength));
  info.ms_since_month_start =
      static_cast<int32_t>(DecodeFixed32(p + kPidLength + kLoaderHashLength));
  info.counter =
      static_cast<int16_t>(DecodeFixed16(p + kPidLength + kLoaderHashLength + kTimeLength));
  return info;
}

HostAddress PickClientIp() {
  std::optional<HostAddress> private_v4;
  std::optional<HostAddress> loopback_v4;
  struct ifaddrs* list = nullptr;
  if (getifaddrs(&list) == 0) {
    for (struct ifaddrs* it = list; it != nullptr; it = it->ifa_next) {
      if (it->ifa_addr == nullptr) continue;
      if (it->ifa_addr->sa_family == AF_INET) {
        const auto* sin = reinterpret_cast<const sockaddr_in*>(it->ifa_addr);
        const auto* a = reinterpret_cast<const uint8_t*>(&sin->sin_addr);
        HostAddress h = HostAddress::IPv4(a[0], a[1], a[2], a[3], 0);
        if (a[0] == 127) {
          if (!loopback_v4) loopback_v4 = h;
        } else if (IsUsableIPv4(a)) {
          if (!IsPrivateIPv4(a)) {
            freeifaddrs(list);
            return h;
          }
          if (!private_v4) private_v4 = h;
        }
      } else if (it->ifa_addr->sa_family == AF_INET6) {
        const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(it->ifa_addr);
        const auto* a = reinterpret_cast<const uint8_t*>(&sin6->sin6_addr);
        if (IsPublicIPv6(a)) {
          std::array<uint8_t, 16> bytes;
          std::memcpy(bytes.data(), a, 16);
          freeifaddrs(list);
          return HostAddress::IPv6(bytes, 0);
        }
      }
    }
    freeifaddrs(list);
  }
  if (private_v4) return *private_v4;
  if (loopback_v4) return *loopback_v4;
  uint8_t now[8];
  EncodeFixed64(now, static_cast<uint64_t>(NowMillis()));
  return HostAddress::IPv4(now[4], now[5], now[6], now[7], 0);
}

}  // namespace apogee::message
