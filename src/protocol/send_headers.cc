#include "protocol/send_headers.h"

#include <utility>

#include "protocol/request_code.h"

namespace apogee::protocol {

Result<SendMessageRequestHeader> DecodeSendMessageRequestHeader(const RemotingCommand& request) {
  if (request.code == request_code::kSendMessageV2 ||
      request.code == request_code::kSendBatchMessage ||
      request.code == request_code::kSendReplyMessageV2) {
    APOGEE_ASSIGN_OR_RETURN(SendMessageRequestHeaderV2 v2,
                            DecodeCustomHeader<SendMessageRequestHeaderV2>(request));
    // Moved, not copied, into the base: the copy cost every V2 send two string allocations.
    return static_cast<SendMessageRequestHeader&&>(std::move(v2));
  }
  return DecodeCustomHeader<SendMessageRequestHeader>(request);
}

}  // namespace apogee::protocol
