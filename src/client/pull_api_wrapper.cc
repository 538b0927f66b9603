#include "client/pull_api_wrapper.h"

#include "client/consumer_subscription.h"
#include "client/message_convert.h"
#include "message/message_format.h"
#include "message/message_record.h"
#include "protocol/response_code.h"

namespace apogee::client {

Result<PullResult> ProcessPullResponse(const PullResponse& response,
                                       const protocol::MessageQueue& mq,
                                       const protocol::SubscriptionData& sub) {
  PullResult result;
  switch (response.code) {
    case protocol::response_code::kSuccess:
      result.status = PullStatus::kFound;
      break;
    case protocol::response_code::kPullNotFound:
      result.status = PullStatus::kNoNewMsg;
      break;
    case protocol::response_code::kPullRetryImmediately:
      result.status = PullStatus::kNoMatchedMsg;
      break;
    case protocol::response_code::kPullOffsetMoved:
      result.status = PullStatus::kOffsetIllegal;
      break;
    default:
      return Status::InvalidArgument("pull " + protocol::ToString(mq) +
                                     ": unexpected response code " + std::to_string(response.code));
  }
  result.next_begin_offset = response.header.next_begin_offset;
  result.min_offset = response.header.min_offset;
  result.max_offset = response.header.max_offset;
  if (result.status != PullStatus::kFound) return result;

  auto decoded = message::DecodeMessages(response.body);
  if (!decoded.ok()) {
    return Status::Corruption("pull " + protocol::ToString(mq) + ": " + decoded.status().message());
  }
  const std::string min_offset = std::to_string(result.min_offset);
  const std::string max_offset = std::to_string(result.max_offset);
  result.msgs.reserve(decoded->size());
  HostTextCache hosts;
  for (message::MessageExt& ext : *decoded) {
    std::optional<std::string_view> tags = ext.tags();
    if (!SubscriptionMatchesTag(sub, tags.value_or(""), tags.has_value())) continue;
    MessageExt& msg =
        result.msgs.emplace_back(ToPublicMessageExt(std::move(ext), mq.broker_name, &hosts));
    msg.PutProperty(message::kPropertyMinOffset, min_offset);
    msg.PutProperty(message::kPropertyMaxOffset, max_offset);
  }
  return result;
}

}  // namespace apogee::client
