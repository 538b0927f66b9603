#include "message/message_id.h"

#include "base/coding.h"
#include "base/string_util.h"
#include "message/message_format.h"

namespace apogee::message {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

}  // namespace

void CreateOffsetMsgIdTo(const HostAddress& store_host, int64_t physical_offset, char* out) {
  uint8_t raw[kIPv6HostLength + 8];
  store_host.EncodeTo(raw);
  const size_t host_len = store_host.encoded_length();
  EncodeFixed64(raw + host_len, static_cast<uint64_t>(physical_offset));
  for (size_t i = 0; i < host_len + 8; ++i) {
    out[2 * i] = kHexDigits[raw[i] >> 4];
    out[2 * i + 1] = kHexDigits[raw[i] & 0xF];
  }
}

std::string CreateOffsetMsgId(const HostAddress& store_host, int64_t physical_offset) {
  std::string id(store_host.ipv6 ? kOffsetMsgIdLengthIPv6 : kOffsetMsgIdLengthIPv4, '\0');
  CreateOffsetMsgIdTo(store_host, physical_offset, id.data());
  return id;
}

Result<OffsetMsgId> ParseOffsetMsgId(std::string_view id) {
  if (id.size() != kOffsetMsgIdLengthIPv4 && id.size() != kOffsetMsgIdLengthIPv6) {
    return Status::InvalidArgument("offset msgId '" + std::string(id) + "' has " +
                                   std::to_string(id.size()) + " characters, expected " +
                                   std::to_string(kOffsetMsgIdLengthIPv4) + " or " +
                                   std::to_string(kOffsetMsgIdLengthIPv6));
  }
  std::optional<std::string> raw = HexDecode(id);
  if (!raw) return Status::InvalidArgument("offset msgId '" + std::string(id) + "' is not hex");
  const auto* bytes = reinterpret_cast<const uint8_t*>(raw->data());
  OffsetMsgId out;
  out.store_host = HostAddress::DecodeFrom(bytes, id.size() == kOffsetMsgIdLengthIPv6);
  out.physical_offset =
      static_cast<int64_t>(DecodeFixed64(bytes + out.store_host.encoded_length()));
  return out;
}

std::string JoinMsgIds(const std::vector<std::string>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out.push_back(kMsgIdBatchSeparator);
    out += ids[i];
  }
  return out;
}

}  // namespace apogee::message
