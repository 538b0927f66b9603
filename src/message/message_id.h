// The broker's offset message id (MessageDecoder.createMessageId / decodeMessageId): the
// store host's address and port plus the record's physical CommitLog offset, as upper-case
// hex; 32 characters with an IPv4 store host, 56 with IPv6. Clients decode it to find the
// broker holding a message (VIEW_MESSAGE_BY_ID, END_TRANSACTION).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "message/host_address.h"

namespace apogee::message {

struct OffsetMsgId {
  HostAddress store_host;
  int64_t physical_offset = 0;
};

std::string CreateOffsetMsgId(const HostAddress& store_host, int64_t physical_offset);
// Writes the id into `out` (which must hold 32 or 56 chars per the host); for hot paths.
void CreateOffsetMsgIdTo(const HostAddress& store_host, int64_t physical_offset, char* out);
// Accepts either hex case. The address width comes from the length: 32 -> IPv4, 56 -> IPv6;
// any other length or a non-hex digit is an InvalidArgument naming the id.
Result<OffsetMsgId> ParseOffsetMsgId(std::string_view id);
// A batch send's response msgId: the ids joined with ','.
std::string JoinMsgIds(const std::vector<std::string>& ids);

}  // namespace apogee::message
