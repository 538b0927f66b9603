// "host:port" addresses as RocketMQ spells them (NameServer lists, broker addresses in
// route data), parsed once and validated, and endpoint formatting for log lines.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::net {

struct HostPort {
  std::string host;
  uint16_t port = 0;

  std::string ToString() const;
  bool operator==(const HostPort&) const = default;
};

// Accepts "host:port", "1.2.3.4:port" and "[v6]:port". The port must be 1..65535.
// Errors name the input and what is wrong with it.
Result<HostPort> ParseHostPort(std::string_view address);

// "127.0.0.1:10911" ("[::1]:10911" for IPv6), for log lines and Channel addresses.
std::string FormatEndpoint(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace apogee::net
