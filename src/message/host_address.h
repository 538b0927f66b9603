// HostAddress: the IPv4 or IPv6 address plus port that the record's BORNHOST and
// STOREHOSTADDRESS fields hold (Java's InetSocketAddress as MessageDecoder writes it: the
// raw address bytes then an int32 port).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::message {

struct HostAddress {
  // IPv4 uses bytes [0, 4); IPv6 uses all 16.
  std::array<uint8_t, 16> ip{};
  bool ipv6 = false;
  int32_t port = 0;

  static HostAddress IPv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, int32_t port);
  static HostAddress IPv6(const std::array<uint8_t, 16>& bytes, int32_t port);
  // Parses "1.2.3.4:10911", "[::1]:10911" (brackets required for IPv6) or, without a port,
  // "1.2.3.4" / "::1" (port 0). Rejects anything else with a message naming the input.
  static Result<HostAddress> Parse(std::string_view text);

  // Bytes of the address alone (4 or 16).
  size_t address_length() const;
  // Bytes of the record field: address + int32 port (8 or 20).
  size_t encoded_length() const;
  // Writes the record field (address then big-endian port); `dst` has encoded_length() bytes.
  void EncodeTo(uint8_t* dst) const;
  // Reads a record field of `ipv6` shape from `src`.
  static HostAddress DecodeFrom(const uint8_t* src, bool ipv6);

  // "10.0.0.1:10911" or "[fe80::1]:10911": what RocketMQ prints for an address.
  std::string ToString() const;
  // The address without the port ("10.0.0.1", "fe80::1").
  std::string AddressString() const;

  friend bool operator==(const HostAddress& a, const HostAddress& b);
};

}  // namespace apogee::message
