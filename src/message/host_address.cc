#include "message/host_address.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

#include "base/coding.h"
#include "base/string_util.h"
#include "message/message_format.h"

namespace apogee::message {

HostAddress HostAddress::IPv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, int32_t port) {
  HostAddress h;
  h.ip[0] = a;
  h.ip[1] = b;
  h.ip[2] = c;
  h.ip[3] = d;
  h.port = port;
  return h;
}

HostAddress HostAddress::IPv6(const std::array<uint8_t, 16>& bytes, int32_t port) {
  HostAddress h;
  h.ip = bytes;
  h.ipv6 = true;
  h.port = port;
  return h;
}

Result<HostAddress> HostAddress::Parse(std::string_view text) {
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument("bad host address '" + std::string(text) +
                                   "': " + std::string(why));
  };
  std::string_view addr = text;
  std::string_view port_text;
  if (!addr.empty() && addr.front() == '[') {
    size_t close = addr.find(']');
    if (close == std::string_view::npos) return bad("missing ']'");
    std::string_view rest = addr.substr(close + 1);
    addr = addr.substr(1, close - 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return bad("expected ':' after ']'");
      port_text = rest.substr(1);
    }
  } else if (std::count(addr.begin(), addr.end(), ':') == 1) {
    size_t colon = addr.find(':');
    port_text = addr.substr(colon + 1);
    addr = addr.substr(0, colon);
  }
  HostAddress h;
  const std::string addr_str(addr);
  if (inet_pton(AF_INET, addr_str.c_str(), h.ip.data()) == 1) {
    h.ipv6 = false;
  } else if (inet_pton(AF_INET6, addr_str.c_str(), h.ip.data()) == 1) {
    h.ipv6 = true;
  } else {
    return bad("not an IPv4 or IPv6 address");
  }
  if (!port_text.empty() || (text.size() > 0 && text.back() == ':')) {
    auto port = ParseInt64(port_text);
    if (!port.has_value() || *port < 0 || *port > 65535) return bad("port must be 0..65535");
    h.port = static_cast<int32_t>(*port);
  }
  return h;
}

size_t HostAddress::address_length() const {
  return ipv6 ? kIPv6AddressLength : kIPv4AddressLength;
}

size_t HostAddress::encoded_length() const { return ipv6 ? kIPv6HostLength : kIPv4HostLength; }

void HostAddress::EncodeTo(uint8_t* dst) const {
  const size_t n = address_length();
  std::memcpy(dst, ip.data(), n);
  EncodeFixed32(dst + n, static_cast<uint32_t>(port));
}

HostAddress HostAddress::DecodeFrom(const uint8_t* src, bool is_ipv6) {
  HostAddress h;
  h.ipv6 = is_ipv6;
  const size_t n = h.address_length();
  std::memcpy(h.ip.data(), src, n);
  h.port = static_cast<int32_t>(DecodeFixed32(src + n));
  return h;
}

std::string HostAddress::AddressString() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(ipv6 ? AF_INET6 : AF_INET, ip.data(), buf, sizeof(buf));
  return buf;
}

std::string HostAddress::ToString() const {
  std::string out = ipv6 ? "[" + AddressString() + "]" : AddressString();
  out += ':';
  out += std::to_string(port);
  return out;
}

bool operator==(const HostAddress& a, const HostAddress& b) {
  return a.ipv6 == b.ipv6 && a.port == b.port &&
         std::memcmp(a.ip.data(), b.ip.data(), a.address_length()) == 0;
}

}  // namespace apogee::message
