#include "net/host_port.h"

#include <fmt/format.h>

#include "base/string_util.h"

namespace apogee::net {

std::string HostPort::ToString() const {
  if (host.find(':') != std::string::npos) return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

Result<HostPort> ParseHostPort(std::string_view address) {
  size_t colon = address.rfind(':');
  if (colon == std::string_view::npos) {
    return Status::InvalidArgument(fmt::format("address '{}' has no ':port'", address));
  }
  std::string_view host = address.substr(0, colon);
  std::string_view port_text = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.empty()) {
    return Status::InvalidArgument(fmt::format("address '{}' has an empty host", address));
  }
  auto port = ParseInt64(port_text);
  if (!port || *port < 1 || *port > 65535) {
    return Status::InvalidArgument(
        fmt::format("address '{}': port '{}' is not a number in 1..65535", address, port_text));
  }
  return HostPort{std::string(host), static_cast<uint16_t>(*port)};
}

std::string FormatEndpoint(const boost::asio::ip::tcp::endpoint& endpoint) {
  auto ip = endpoint.address();
  if (ip.is_v6() && !ip.to_v6().is_v4_mapped()) {
    return fmt::format("[{}]:{}", ip.to_string(), endpoint.port());
  }
  if (ip.is_v6()) {
    return fmt::format("{}:{}", ip.to_v6().to_v4().to_string(), endpoint.port());
  }
  return fmt::format("{}:{}", ip.to_string(), endpoint.port());
}

}  // namespace apogee::net
