#include "protocol/send_headers.h"

#include "protocol/request_code.h"

namespace apogee::protocol {

Result<SendMessageRequestHeader> DecodeSendMessageRequestHeader(const RemotingCommand& request) {
  if (request.code == request_code::kSendMessageV2 ||
      request.code == request_code::kSendBatchMessage ||
      request.code == request_code::kSendReplyMessageV2) {
    APOGEE_ASSIGN_OR_RETURN(SendMessageRequestHeaderV2 v2,
                            DecodeCustomHeader<SendMessageRequestHeaderV2>(request));
    return static_cast<SendMessageRequestHeader>(v2);
  }
  return DecodeCustomHeader<SendMessageRequestHeader>(request);
}

}  // namespace apogee::protocol
