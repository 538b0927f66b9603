// UNIQ_KEY: the client-side message id that producers put in property UNIQ_KEY and that
// SendResult.msgId reports (Java's MessageClientIDSetter). Layout, then upper-case hex:
//   client IP (4 or 16 bytes) | pid as int16 | class-loader hash int32 |
//   int32 ms since the start of the current month (local time) | int16 counter.
// The prefix (IP, pid, hash) is fixed per generator; the month origin moves forward when the
// clock passes the next month's start. Ids are not globally unique (pid truncation, month
// wrap); brokers treat them as opaque strings.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/status.h"
#include "message/host_address.h"

namespace apogee::message {

class UniqKeyGenerator {
 public:
  // `ip` supplies the address bytes (its port is ignored). `loader_hash` stands for Java's
  // class-loader hashCode: any per-process constant. `clock` must outlive the generator.
  UniqKeyGenerator(const HostAddress& ip, int32_t pid, int32_t loader_hash,
                   const Clock* clock = Clock::Real());
  UniqKeyGenerator(const UniqKeyGenerator&) = delete;
  UniqKeyGenerator& operator=(const UniqKeyGenerator&) = delete;

  // The process-wide generator: client IP from PickClientIp(), getpid(), a per-process hash.
  static UniqKeyGenerator& Default();

  // A new id. Thread-safe.
  std::string Next();
  // The same into `out` (its capacity reused).
  void NextTo(std::string* out);
  // The fixed hex prefix (IP, pid, hash).
  const std::string& prefix() const { return prefix_; }

 private:
  void MoveMonthLocked(int64_t now_ms);

  const Clock* clock_;
  std::string prefix_;
  std::atomic<uint16_t> counter_{0};
  std::mutex mu_;
  int64_t month_start_ms_ = 0;
  int64_t next_month_start_ms_ = 0;
};

// The parts of a UNIQ_KEY.
struct UniqKeyInfo {
  HostAddress ip;  // port 0
  int16_t pid = 0;
  int32_t loader_hash = 0;
  int32_t ms_since_month_start = 0;
  int16_t counter = 0;
};
// Splits an id made by any RocketMQ client (32 or 56 hex chars).
Result<UniqKeyInfo> ParseUniqKey(std::string_view id);

// Start of the month containing `now_ms` and of the next one, in the local time zone, as
// Java's Calendar computes them for MessageClientIDSetter.
void MonthBoundsLocal(int64_t now_ms, int64_t* month_start_ms, int64_t* next_month_start_ms);

// The address a RocketMQ client reports for itself (UtilAll.getIP): walking the interfaces in
// OS order, the first public IPv4 or IPv6 address; else a private IPv4 (non-127 preferred);
// else a "fake" IPv4 made of the low 4 bytes of the current time in ms.
HostAddress PickClientIp();

}  // namespace apogee::message
