// Requests the broker sends on a client's own connection (Java's Broker2Client;
// docs/protocol/remoting.md §5.4). All oneway and best effort: ali-ons never answers
// server-initiated requests and Go drops codes it does not know (pitfall 18), so nothing
// here waits for a client.
//
// Thread-safety: free functions; any thread.
#pragma once

#include <string>

#include "protocol/client_headers.h"
#include "remoting/channel.h"

namespace apogee::broker {

// NOTIFY_CONSUMER_IDS_CHANGED (40): the client rebalances at once.
void NotifyConsumerIdsChanged(const remoting::ChannelPtr& channel, const std::string& group);

// CHECK_TRANSACTION_STATE (39): `half_message_record` is the half message in stored
// format with its real topic and queue restored.
void CheckProducerTransactionState(const remoting::ChannelPtr& channel,
                                   const protocol::CheckTransactionStateRequestHeader& header,
                                   std::string half_message_record);

// RESET_CONSUMER_CLIENT_OFFSET (220) with a body already encoded by the caller
// (ResetOffsetBody, or ResetOffsetBodyForC for C++ clients).
void ResetConsumerClientOffset(const remoting::ChannelPtr& channel,
                               const protocol::ResetOffsetRequestHeader& header, std::string body);

}  // namespace apogee::broker
