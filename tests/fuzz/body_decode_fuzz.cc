// libFuzzer target: every body decoder of the protocol module on arbitrary bytes. The
// first byte picks the decoder. Nothing may crash, and whatever decodes must re-encode
// into something that decodes to the same value.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/consumer_list_body.h"
#include "protocol/heartbeat_data.h"
#include "protocol/kv_table.h"
#include "protocol/lock_batch_body.h"
#include "protocol/register_broker_body.h"
#include "protocol/route_data.h"
#include "protocol/topic_config.h"
#include "protocol/topic_list.h"

namespace {

using namespace apogee::protocol;  // NOLINT: a fuzz driver over the whole module

template <typename T, typename Decode, typename Encode>
void RoundTrip(std::string_view input, Decode decode, Encode encode) {
  auto first = decode(input);
  if (!first.ok()) return;
  auto second = decode(encode(*first));
  if (!second.ok() || !(*second == *first)) abort();
}

std::string Deflate(std::string_view plain) {
  uLongf bound = compressBound(static_cast<uLong>(plain.size()));
  std::string out(bound, '\0');
  compress2(reinterpret_cast<Bytef*>(out.data()), &bound,
            reinterpret_cast<const Bytef*>(plain.data()), static_cast<uLong>(plain.size()), 1);
  out.resize(bound);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t selector = data[0];
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (selector % 16) {
    case 0:
      RoundTrip<TopicRouteData>(input, DecodeTopicRouteData, [](const TopicRouteData& r) {
        return EncodeTopicRouteData(r, MapKeyStyle::kBareNumbers);
      });
      RoundTrip<TopicRouteData>(input, DecodeTopicRouteData, [](const TopicRouteData& r) {
        return EncodeTopicRouteData(r, MapKeyStyle::kQuoted);
      });
      break;
    case 1:
      RoundTrip<ClusterInfo>(input, DecodeClusterInfo,
                             [](const ClusterInfo& c) { return EncodeClusterInfo(c); });
      break;
    case 2:
      RoundTrip<TopicList>(input, DecodeTopicList, EncodeTopicList);
      break;
    case 3:
      RoundTrip<KVTable>(input, DecodeKVTable, EncodeKVTable);
      break;
    case 4:
      RoundTrip<DataVersion>(input, DecodeDataVersion, EncodeDataVersion);
      break;
    case 5:
      RoundTrip<TopicConfig>(input, DecodeTopicConfig, EncodeTopicConfig);
      break;
    case 6:
      RoundTrip<TopicConfigSerializeWrapper>(input, DecodeTopicConfigSerializeWrapper,
                                             EncodeTopicConfigSerializeWrapper);
      break;
    case 7:
      RoundTrip<RegisterBrokerBody>(input, DecodeRegisterBrokerBody, EncodeRegisterBrokerBody);
      break;
    case 8: {
      // The compressed form, fed both raw and (more usefully) as deflated plain bytes.
      auto decode = [](std::string_view in) { return DecodeCompressedRegisterBrokerBody(in); };
      (void)decode(input);
      auto body = decode(Deflate(input));
      if (body.ok()) {
        // The text form drops topicSysFlag and order, which the plain bytes cannot set.
        auto again = decode(EncodeCompressedRegisterBrokerBody(*body));
        if (!again.ok() || !(*again == *body)) abort();
      }
      break;
    }
    case 10:
      RoundTrip<HeartbeatData>(input, DecodeHeartbeatData, EncodeHeartbeatData);
      break;
    case 11:
      RoundTrip<SubscriptionData>(input, DecodeSubscriptionData, EncodeSubscriptionData);
      break;
    case 12:
      RoundTrip<CheckClientRequestBody>(input, DecodeCheckClientRequestBody,
                                        EncodeCheckClientRequestBody);
      break;
    case 13:
      RoundTrip<LockBatchRequestBody>(input, DecodeLockBatchRequestBody,
                                      EncodeLockBatchRequestBody);
      RoundTrip<LockBatchResponseBody>(input, DecodeLockBatchResponseBody,
                                       EncodeLockBatchResponseBody);
      break;
    case 14:
      RoundTrip<GetConsumerListByGroupResponseBody>(input, DecodeConsumerListBody,
                                                    EncodeConsumerListBody);
      break;
    default: {
      auto config = DecodeTopicConfigText(input);
      if (config.ok()) {
        auto again = DecodeTopicConfigText(EncodeTopicConfigText(*config));
        if (!again.ok() || !(*again == *config)) abort();
      }
      break;
    }
  }
  return 0;
}
