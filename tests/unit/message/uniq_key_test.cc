#include "message/uniq_key.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <set>

#include "message/message_format.h"

namespace apogee::message {
namespace {

// Pins the local time zone for the month arithmetic, restoring it afterwards.
class UtcZone {
 public:
  UtcZone() {
    const char* old = std::getenv("TZ");
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv("TZ", "UTC", 1);
    tzset();
  }
  ~UtcZone() {
    if (had_) {
      setenv("TZ", old_.c_str(), 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }

 private:
  bool had_ = false;
  std::string old_;
};

// 2026-11-29T11:00:00Z and the start of November 2026 (UTC).
constexpr int64_t kNow = 1795950000000;
constexpr int64_t kNovemberStart = 1793491200000;
constexpr int64_t kDecemberStart = 1796083200000;

TEST(UniqKeyTest, LayoutIsIpPidHashTimeCounter) {
  UtcZone utc;
  ManualClock clock(kNow);
  UniqKeyGenerator gen(HostAddress::IPv4(192, 168, 0, 7, 0), 0x12345678, 0x0A0B0C0D, &clock);
  EXPECT_EQ(gen.prefix(),
            "C0A80007"
            "5678"
            "0A0B0C0D");
  const std::string first = gen.Next();
  ASSERT_EQ(first.size(), kUniqKeyLengthIPv4);
  auto info = ParseUniqKey(first);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->ip, HostAddress::IPv4(192, 168, 0, 7, 0));
  EXPECT_EQ(info->pid, 0x5678);
  EXPECT_EQ(info->loader_hash, 0x0A0B0C0D);
  // 28 days exceed int32 milliseconds: Java's (int) cast wraps, and so do we.
  EXPECT_EQ(info->ms_since_month_start, static_cast<int32_t>(kNow - kNovemberStart));
  EXPECT_LT(info->ms_since_month_start, 0);
  EXPECT_EQ(info->counter, 0);
  EXPECT_EQ(ParseUniqKey(gen.Next())->counter, 1);
}

TEST(UniqKeyTest, MonthOriginMovesForward) {
  UtcZone utc;
  int64_t start = 0, next = 0;
  MonthBoundsLocal(kNow, &start, &next);
  EXPECT_EQ(start, kNovemberStart);
  EXPECT_EQ(next, kDecemberStart);
  ManualClock clock(kNow);
  UniqKeyGenerator gen(HostAddress::IPv4(1, 2, 3, 4, 0), 1, 1, &clock);
  clock.Set(kDecemberStart + 5);
  EXPECT_EQ(ParseUniqKey(gen.Next())->ms_since_month_start, 5);
  // A clock stepping back a little (NTP) gives 0, not a negative span.
  clock.Set(kDecemberStart - 500);
  EXPECT_EQ(ParseUniqKey(gen.Next())->ms_since_month_start, 0);
  // December + 1 wraps into January of the next year.
  MonthBoundsLocal(kDecemberStart + 5, &start, &next);
  EXPECT_EQ(start, kDecemberStart);
  EXPECT_EQ(next, kDecemberStart + 31LL * 24 * 3600 * 1000);
}

TEST(UniqKeyTest, IPv6PrefixGivesFiftySixChars) {
  ManualClock clock(kNow);
  UniqKeyGenerator gen(*HostAddress::Parse("2001:db8::9"), 1, 2, &clock);
  const std::string id = gen.Next();
  EXPECT_EQ(id.size(), kUniqKeyLengthIPv6);
  auto info = ParseUniqKey(id);
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->ip.ipv6);
  EXPECT_EQ(info->ip.AddressString(), "2001:db8::9");
}

TEST(UniqKeyTest, ParsesAnIdFromTheCppClient) {
  // UNIQ_KEY sent by rocketmq-client-cpp 1.2 (client-requests fixture).
  auto info = ParseUniqKey("0100007F000090370000E2BFEE970100");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->ip.AddressString(), "1.0.0.127");  // that client writes the IP little-endian
  EXPECT_EQ(info->pid, 0);
  EXPECT_EQ(info->counter, 0x0100);
  EXPECT_FALSE(ParseUniqKey("XYZ").ok());
  EXPECT_FALSE(ParseUniqKey(std::string(32, 'G')).ok());
}

TEST(UniqKeyTest, DefaultGeneratorMakesDistinctIds) {
  std::set<std::string> ids;
  for (int i = 0; i < 1000; ++i) ids.insert(UniqKeyGenerator::Default().Next());
  EXPECT_EQ(ids.size(), 1000u);
  const std::string id = *ids.begin();
  EXPECT_TRUE(id.size() == kUniqKeyLengthIPv4 || id.size() == kUniqKeyLengthIPv6);
  EXPECT_EQ(id.find_first_not_of("0123456789ABCDEF"), std::string::npos);
}

TEST(UniqKeyTest, PickClientIpNeverFails) {
  HostAddress ip = PickClientIp();
  EXPECT_EQ(ip.port, 0);
  EXPECT_FALSE(ip.AddressString().empty());
}

}  // namespace
}  // namespace apogee::message
