#include "acl/address_pattern.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <charconv>

#include "base/string_util.h"

namespace apogee::acl {

namespace {

// The binary form of an IPv4 (4 bytes) or IPv6 (16 bytes) address, or "" if neither.
std::string Binary(std::string_view text) {
  std::string s(TrimWhitespace(text));
  unsigned char buf[16];
  if (inet_pton(AF_INET, s.c_str(), buf) == 1) return std::string(reinterpret_cast<char*>(buf), 4);
  if (inet_pton(AF_INET6, s.c_str(), buf) == 1) {
    return std::string(reinterpret_cast<char*>(buf), 16);
  }
  return "";
}

bool ParseOctet(std::string_view text, int* out) {
  text = TrimWhitespace(text);
  if (text.empty() || text.size() > 3) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && p == text.data() + text.size() && *out >= 0 && *out <= 255;
}

}  // namespace

std::string HostOfRemoteAddress(std::string_view remote) {
  size_t colon = remote.rfind(':');
  std::string_view host = colon == std::string_view::npos ? remote : remote.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return std::string(host);
}

Result<AddressPattern> AddressPattern::Parse(std::string_view pattern) {
  AddressPattern p;
  std::string_view text = TrimWhitespace(pattern);
  p.text_ = std::string(text);
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument(fmt::format("address pattern '{}': {}", text, why));
  };
  if (text.empty()) return p;  // matches nothing
  if (text == "*" || text == "*.*.*.*" || text == "*:*:*:*:*:*:*:*") {
    p.kind_ = Kind::kAll;
    return p;
  }
  auto add_all = [&](const std::vector<std::string>& items) -> Status {
    for (const std::string& item : items) {
      std::string bin = Binary(item);
      if (bin.empty()) return bad(fmt::format("'{}' is not an IP address", TrimWhitespace(item)));
      p.set_.push_back(std::move(bin));
    }
    p.kind_ = Kind::kSet;
    return Status::OK();
  };
  if (text.back() == '}') {
    size_t brace = text.rfind('{');
    if (brace == std::string_view::npos) return bad("'}' without '{'");
    std::string_view prefix = text.substr(0, brace);
    bool v6 = prefix.find(':') != std::string_view::npos;
    if (prefix.empty() || prefix.back() != (v6 ? ':' : '.')) {
      return bad("'{...}' must be the last part of the address");
    }
    if (!v6 && SplitString(prefix, '.').size() != 4) return bad("needs four parts");
    std::vector<std::string> items;
    for (const std::string& last : SplitString(text.substr(brace + 1, text.size() - brace - 2), ',', true)) {
      items.push_back(std::string(prefix) + std::string(TrimWhitespace(last)));
    }
    if (items.empty()) return bad("'{}' lists nothing");
    APOGEE_RETURN_IF_ERROR(add_all(items));
    return p;
  }
  if (text.find(',') != std::string_view::npos) {
    APOGEE_RETURN_IF_ERROR(add_all(SplitString(text, ',', true)));
    return p;
  }
  if (text.find('*') != std::string_view::npos || text.find('-') != std::string_view::npos) {
    if (text.find(':') != std::string_view::npos) return bad("IPv6 ranges are not supported");
    std::vector<std::string> parts = SplitString(text, '.');
    if (parts.size() < 2 || parts.size() > 4) return bad("needs two to four parts");
    int index = -1;
    for (size_t i = 0; i < parts.size(); ++i) {
      std::string_view part = TrimWhitespace(parts[i]);
      if (index >= 0) {
        if (part != "*") return bad("every part after the range must be '*'");
        continue;
      }
      if (part == "*") {
        index = static_cast<int>(i);
        p.start_ = 0;
        p.end_ = 255;
      } else if (size_t dash = part.find('-'); dash != std::string_view::npos) {
        if (!ParseOctet(part.substr(0, dash), &p.start_) ||
            !ParseOctet(part.substr(dash + 1), &p.end_) || p.start_ > p.end_) {
          return bad(fmt::format("range '{}' must be a-b with 0 <= a <= b <= 255", part));
        }
        index = static_cast<int>(i);
      } else {
        int octet = 0;
        if (!ParseOctet(part, &octet)) return bad(fmt::format("'{}' is not 0..255", part));
        p.head_[i] = static_cast<uint8_t>(octet);
      }
    }
    if (index <= 0) return bad("the first part cannot be a range (use '*' for every address)");
    p.index_ = index;
    p.kind_ = Kind::kRange;
    return p;
  }
  APOGEE_RETURN_IF_ERROR(add_all({std::string(text)}));
  return p;
}

bool AddressPattern::Matches(std::string_view address) const {
  switch (kind_) {
    case Kind::kNone:
      return false;
    case Kind::kAll:
      return true;
    case Kind::kSet: {
      std::string bin = Binary(address);
      if (bin.empty()) return false;
      for (const std::string& s : set_) {
        if (s == bin) return true;
      }
      return false;
    }
    case Kind::kRange: {
      std::string bin = Binary(address);
      if (bin.size() != 4) return false;
      for (int i = 0; i < index_; ++i) {
        if (static_cast<uint8_t>(bin[i]) != head_[i]) return false;
      }
      int v = static_cast<uint8_t>(bin[index_]);
      return v >= start_ && v <= end_;
    }
  }
  return false;
}

}  // namespace apogee::acl
