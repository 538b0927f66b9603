// The SEND_BATCH_MESSAGE body (MessageDecoder.encodeMessages / decodeMessages): messages back
// to back, each
//   int32 TOTALSIZE (= 22 + body + properties) | int32 MAGICCODE (0) | int32 BODYCRC (0) |
//   int32 FLAG | int32 body length + body | int16 properties length + properties.
// Topic, queue, sysFlag and timestamps come from the request header and apply to all.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "message/message.h"
#include "message/properties.h"

namespace apogee::message {

// One message of a batch body; the views point into the decoded body.
struct BatchEntry {
  int32_t flag = 0;
  std::string_view body;
  std::string_view properties;  // encoded property string
};

// Splits a batch body. Any inconsistency (a length past the end, TOTALSIZE disagreeing with
// the lengths, negative lengths, no message at all) is InvalidArgument naming the entry index and
// byte offset: the broker answers such a request MESSAGE_ILLEGAL.
Result<std::vector<BatchEntry>> DecodeBatchBody(std::string_view body);

// Encodes messages into a batch body (client side). Topics are not part of the body; the
// caller checks they are all the same. Properties over 32767 bytes are InvalidArgument.
Result<std::string> EncodeBatchBody(const std::vector<Message>& messages);

// The properties a batch entry is stored with: its own, then the batch-level properties from
// the request header (4.9.x/5.x append them so that e.g. CLUSTER reaches every message),
// except UNIQ_KEY, which would give every entry the batch's id (fixed upstream in 2025).
// A batch key already set on the entry is overwritten (later duplicates win on decode).
std::string MergeBatchProperties(std::string_view own, const MessageProperties& batch);

}  // namespace apogee::message
