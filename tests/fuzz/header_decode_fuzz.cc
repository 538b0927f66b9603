// libFuzzer target for the typed request/response headers: byte 0 picks a header type, the
// rest is a remoting command (what follows the 4-byte frame length). Whatever
// DecodeCustomHeader<H> accepts must re-encode (EncodeCustomHeader) into extFields that
// decode again and re-encode to the same extFields; DecodeSendMessageRequestHeader runs on
// every command (its code picks the key set). ParseJavaInt / ParseJavaLong see the raw bytes
// and every extFields value: an accepted number prints back to itself, and a value that is
// an int is the same long.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/admin_headers.h"
#include "protocol/client_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/namesrv_headers.h"
#include "protocol/pop_headers.h"
#include "protocol/remoting_command.h"
#include "protocol/send_headers.h"

namespace {

using namespace apogee::protocol;  // NOLINT: a fuzz driver over the whole module

void Check(bool ok) {
  if (!ok) std::abort();
}

void CheckNumber(std::string_view text) {
  std::optional<int32_t> i = ParseJavaInt(text);
  std::optional<int64_t> l = ParseJavaLong(text);
  if (i) {
    Check(l.has_value() && *l == *i);
    Check(ParseJavaInt(std::to_string(*i)) == i);
  }
  if (l) Check(ParseJavaLong(std::to_string(*l)) == l);
}

template <typename H>
void RoundTrip(const RemotingCommand& command) {
  apogee::Result<H> first = DecodeCustomHeader<H>(command);
  if (!first.ok()) return;
  RemotingCommand once;
  EncodeCustomHeader(*first, &once);
  apogee::Result<H> second = DecodeCustomHeader<H>(once);
  Check(second.ok());
  RemotingCommand twice;
  EncodeCustomHeader(*second, &twice);
  Check(once.ext_fields == twice.ext_fields);
}

template <typename... H>
struct HeaderList {
  static constexpr size_t kSize = sizeof...(H);
  static void Run(size_t index, const RemotingCommand& command) {
    size_t i = 0;
    ((i++ == index ? RoundTrip<H>(command) : void()), ...);
  }
};

using AllHeaders = HeaderList<
    // admin_headers.h
    CreateTopicRequestHeader, DeleteTopicRequestHeader, GetAllTopicConfigRequestHeader,
    GetAllTopicConfigResponseHeader, GetBrokerConfigResponseHeader,
    GetAllSubscriptionGroupRequestHeader, GetAllSubscriptionGroupResponseHeader,
    DeleteSubscriptionGroupRequestHeader, GetSubscriptionGroupConfigRequestHeader,
    GetTopicStatsInfoRequestHeader, GetConsumeStatsRequestHeader,
    GetConsumerConnectionListRequestHeader, GetProducerConnectionListRequestHeader,
    QueryTopicConsumeByWhoRequestHeader, QueryConsumeTimeSpanRequestHeader,
    QueryCorrectionOffsetHeader, ViewBrokerStatsDataRequestHeader, GetConsumeStatsInBrokerHeader,
    QueryConsumeQueueRequestHeader, QueryTopicsByConsumerRequestHeader,
    QuerySubscriptionByConsumerRequestHeader, GetTopicConfigRequestHeader,
    ResumeCheckHalfMessageRequestHeader, CloneGroupOffsetRequestHeader,
    RedriveDlqMessageRequestHeader, RedriveDlqMessageResponseHeader,
    // client_headers.h
    NotifyConsumerIdsChangedRequestHeader, CheckTransactionStateRequestHeader,
    ResetOffsetRequestHeader, GetConsumerRunningInfoRequestHeader,
    ConsumeMessageDirectlyResultRequestHeader, GetConsumerStatusRequestHeader,
    // consumer_headers.h
    PullMessageRequestHeader, PullMessageResponseHeader, QueryConsumerOffsetRequestHeader,
    QueryConsumerOffsetResponseHeader, UpdateConsumerOffsetRequestHeader,
    GetConsumerListByGroupRequestHeader, SearchOffsetRequestHeader, SearchOffsetResponseHeader,
    GetMaxOffsetRequestHeader, GetMaxOffsetResponseHeader, GetMinOffsetRequestHeader,
    GetMinOffsetResponseHeader, GetEarliestMsgStoretimeRequestHeader,
    GetEarliestMsgStoretimeResponseHeader, ViewMessageRequestHeader, QueryMessageRequestHeader,
    QueryMessageResponseHeader, UnregisterClientRequestHeader,
    // namesrv_headers.h
    RegisterBrokerRequestHeader, RegisterBrokerResponseHeader, UnRegisterBrokerRequestHeader,
    GetRouteInfoRequestHeader, PutKVConfigRequestHeader, GetKVConfigRequestHeader,
    GetKVConfigResponseHeader, DeleteKVConfigRequestHeader, GetKVListByNamespaceRequestHeader,
    QueryDataVersionRequestHeader, QueryDataVersionResponseHeader, BrokerHeartbeatRequestHeader,
    GetTopicsByClusterRequestHeader, DeleteTopicFromNamesrvRequestHeader,
    RegisterTopicRequestHeader, WipeWritePermOfBrokerRequestHeader,
    WipeWritePermOfBrokerResponseHeader, AddWritePermOfBrokerRequestHeader,
    AddWritePermOfBrokerResponseHeader, GetBrokerMemberGroupRequestHeader,
    // pop_headers.h
    PopMessageRequestHeader, PopMessageResponseHeader, AckMessageRequestHeader,
    ChangeInvisibleTimeRequestHeader, ChangeInvisibleTimeResponseHeader,
    NotificationRequestHeader, NotificationResponseHeader,
    // send_headers.h
    SendMessageRequestHeader, SendMessageRequestHeaderV2, SendMessageResponseHeader,
    ReplyMessageRequestHeader, EndTransactionRequestHeader, ConsumerSendMsgBackRequestHeader,
    RecallMessageRequestHeader, RecallMessageResponseHeader>;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  CheckNumber(rest);
  apogee::Result<RemotingCommand> command = DecodeCommand(rest);
  if (!command.ok()) return 0;
  for (const auto& [key, value] : command->ext_fields) CheckNumber(value);
  AllHeaders::Run(data[0] % AllHeaders::kSize, *command);

  apogee::Result<SendMessageRequestHeader> send = DecodeSendMessageRequestHeader(*command);
  if (send.ok()) {
    // Re-encoded in the key set of the command's code, it decodes to the same fields.
    RemotingCommand again;
    again.code = command->code;
    if (command->code == 310 || command->code == 320 || command->code == 325) {
      EncodeCustomHeader(SendMessageRequestHeaderV2{*send}, &again);
    } else {
      EncodeCustomHeader(*send, &again);
    }
    apogee::Result<SendMessageRequestHeader> back = DecodeSendMessageRequestHeader(again);
    Check(back.ok());
    RemotingCommand a, b;
    EncodeCustomHeader(*send, &a);
    EncodeCustomHeader(*back, &b);
    Check(a.ext_fields == b.ext_fields);
  }
  return 0;
}
