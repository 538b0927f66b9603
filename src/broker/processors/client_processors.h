// The client-management request family: HEART_BEAT (34), UNREGISTER_CLIENT (35),
// GET_CONSUMER_LIST_BY_GROUP (38), LOCK_BATCH_MQ (41), UNLOCK_BATCH_MQ (42),
// CHECK_CLIENT_CONFIG (46).
//
// RegisterClientProcessors is called by BrokerController once per server (main, then
// fast). The first call creates context.consumer_manager and context.producer_manager
// and the housekeeping (120 s channel expiry, started and stopped through the context's
// start / shutdown hooks); every call registers the processors and a channel-close
// listener on `server`.
#pragma once

namespace apogee::remoting {
class RemotingServer;
}  // namespace apogee::remoting

namespace apogee::broker {

struct BrokerContext;

void RegisterClientProcessors(BrokerContext& context, remoting::RemotingServer& server);

}  // namespace apogee::broker
