// libFuzzer target for the admin response and request bodies (protocol/admin_bodies.h):
// byte 0 picks the decoder, the rest is the body. Whatever decodes must re-encode into a
// body that decodes to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "protocol/admin_bodies.h"

namespace {

using namespace apogee::protocol;  // NOLINT: a fuzz driver over the module's admin bodies

template <typename Decode, typename Encode>
void RoundTrip(std::string_view input, Decode decode, Encode encode) {
  auto first = decode(input);
  if (!first.ok()) return;
  auto second = decode(encode(*first));
  if (!second.ok() || !(*second == *first)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 7) {
    case 0:
      RoundTrip(input, DecodeTopicStatsTable, EncodeTopicStatsTable);
      break;
    case 1:
      RoundTrip(input, DecodeConsumeStats, EncodeConsumeStats);
      break;
    case 2:
      RoundTrip(input, DecodeConsumerConnection, EncodeConsumerConnection);
      break;
    case 3:
      RoundTrip(input, DecodeProducerConnection, EncodeProducerConnection);
      break;
    case 4:
      RoundTrip(input, DecodeGroupList, EncodeGroupList);
      break;
    case 5:
      RoundTrip(input, DecodeResetOffsetBody, EncodeResetOffsetBody);
      break;
    default:
      RoundTrip(input, DecodeResetOffsetBodyForC, EncodeResetOffsetBodyForC);
      break;
  }
  return 0;
}
