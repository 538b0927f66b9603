#include "broker/client/broker_to_client.h"

#include <utility>

#include "base/logging.h"
#include "protocol/custom_header.h"
#include "protocol/request_code.h"

namespace apogee::broker {
namespace {

// Logs a frame that never reached the socket; the client's next heartbeat or its
// periodic rebalance recovers, so there is nothing else to do.
remoting::WriteCallback LogFailure(std::string what, std::string address) {
  return [what = std::move(what), address = std::move(address)](Status status) {
    if (!status.ok()) {
      GetLogger("broker")->warn("{} to {} failed: {}", what, address, status.ToString());
    }
  };
}

}  // namespace

void NotifyConsumerIdsChanged(const remoting::ChannelPtr& channel, const std::string& group) {
  if (channel == nullptr) return;
  protocol::RemotingCommand request =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kNotifyConsumerIdsChanged);
  protocol::EncodeCustomHeader(protocol::NotifyConsumerIdsChangedRequestHeader{group}, &request);
  channel->InvokeOneway(
      std::move(request),
      LogFailure("NOTIFY_CONSUMER_IDS_CHANGED of group " + group, channel->RemoteAddress()));
}

void CheckProducerTransactionState(const remoting::ChannelPtr& channel,
                                   const protocol::CheckTransactionStateRequestHeader& header,
                                   std::string half_message_record) {
  if (channel == nullptr) return;
  protocol::RemotingCommand request =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kCheckTransactionState);
  protocol::EncodeCustomHeader(header, &request);
  request.body = std::move(half_message_record);
  channel->InvokeOneway(std::move(request),
                        LogFailure("CHECK_TRANSACTION_STATE", channel->RemoteAddress()));
}

void ResetConsumerClientOffset(const remoting::ChannelPtr& channel,
                               const protocol::ResetOffsetRequestHeader& header, std::string body) {
  if (channel == nullptr) return;
  protocol::RemotingCommand request =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kResetConsumerClientOffset);
  protocol::EncodeCustomHeader(header, &request);
  request.body = std::move(body);
  channel->InvokeOneway(std::move(request),
                        LogFailure("RESET_CONSUMER_CLIENT_OFFSET of group " + header.group,
                                   channel->RemoteAddress()));
}

}  // namespace apogee::broker
