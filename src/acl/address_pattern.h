// The address patterns of plain_acl.yml (`globalWhiteRemoteAddresses`,
// `whiteRemoteAddress`), as RocketMQ 4.x's RemoteAddressStrategyFactory reads them:
//   ""                      matches nothing
//   "*", "*.*.*.*"          matches every address (also "*:*:*:*:*:*:*:*")
//   "192.168.0.{1,2,3}"     the listed last parts
//   "10.0.0.1,10.0.0.2"     a list of addresses (IPv4 or IPv6)
//   "192.168.*" / "192.168.1.*" / "192.168.1.1-5" / "10.1-5.*"
//                           the first part that is "*" or "a-b" is a range 0..255 / a..b;
//                           every later part must be "*" (Java ignores later parts, which
//                           would silently widen "10.1-5.3.4"; Apogee refuses it)
//   "127.0.0.1", "::1"      one address
// IPv6 ranges are refused at load with a reason (Java accepts them; nobody we know uses
// them, and a wrong reading of one widens access).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::acl {

class AddressPattern {
 public:
  // InvalidArgument naming the pattern and what is wrong with it.
  static Result<AddressPattern> Parse(std::string_view pattern);
  // Matches nothing (the blank pattern).
  AddressPattern() = default;

  // `address` is a bare IP ("127.0.0.1", "::1"); see HostOfRemoteAddress.
  bool Matches(std::string_view address) const;
  const std::string& text() const { return text_; }

 private:
  enum class Kind { kNone, kAll, kSet, kRange };

  std::string text_;
  Kind kind_ = Kind::kNone;
  std::vector<std::string> set_;  // canonical binary forms (4 or 16 bytes)
  std::array<uint8_t, 4> head_{};
  int index_ = 0;  // parts [0, index_) must equal head_, part index_ in [start_, end_]
  int start_ = 0;
  int end_ = 0;
};

// "1.2.3.4:5678" -> "1.2.3.4", "[::1]:5678" -> "::1" (Java's parse keeps what is before
// the last ':').
std::string HostOfRemoteAddress(std::string_view remote_address);

}  // namespace apogee::acl
