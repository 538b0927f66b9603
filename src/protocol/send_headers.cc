#include "protocol/send_headers.h"

#include <utility>

#include "protocol/request_code.h"

namespace apogee::protocol {

namespace {

// 310, 320 and 325 carry the V2 keys.
bool UsesV2Keys(int32_t code) {
  return code == request_code::kSendMessageV2 || code == request_code::kSendBatchMessage ||
         code == request_code::kSendReplyMessageV2;
}

}  // namespace

Result<SendMessageRequestHeader> DecodeSendMessageRequestHeader(const RemotingCommand& request) {
  if (UsesV2Keys(request.code)) {
    APOGEE_ASSIGN_OR_RETURN(SendMessageRequestHeaderV2 v2,
                            DecodeCustomHeader<SendMessageRequestHeaderV2>(request));
    // Moved, not copied, into the base: the copy cost every V2 send two string allocations.
    return static_cast<SendMessageRequestHeader&&>(std::move(v2));
  }
  return DecodeCustomHeader<SendMessageRequestHeader>(request);
}

Result<SendMessageRequestHeader> TakeSendMessageRequestHeader(RemotingCommand* request) {
  // DecodeCustomHeader's rule: no extFields member at all checks nothing.
  if (!request->has_ext_fields && request->ext_fields.empty()) return SendMessageRequestHeader{};
  if (UsesV2Keys(request->code)) {
    APOGEE_ASSIGN_OR_RETURN(
        SendMessageRequestHeaderV2 v2,
        HeaderTakenFromExtFields<SendMessageRequestHeaderV2>(&request->ext_fields));
    return static_cast<SendMessageRequestHeader&&>(std::move(v2));
  }
  return HeaderTakenFromExtFields<SendMessageRequestHeader>(&request->ext_fields);
}

}  // namespace apogee::protocol
