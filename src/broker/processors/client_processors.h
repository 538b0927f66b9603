// The client-management request family: HEART_BEAT (34), UNREGISTER_CLIENT (35),
// GET_CONSUMER_LIST_BY_GROUP (38), LOCK_BATCH_MQ (41), UNLOCK_BATCH_MQ (42),
// CHECK_CLIENT_CONFIG (46); executors and ports are in processor_table.cc.
//
// CreateClientProcessors is called once by BrokerController. It creates
// context.consumer_manager and context.producer_manager, the housekeeping (120 s channel
// expiry; a channel listener of both servers, its scan started and stopped through the
// context's start / shutdown hooks) and one processor per code.
#pragma once

namespace apogee::broker {

struct BrokerContext;
struct BrokerProcessors;

void CreateClientProcessors(BrokerContext& context, BrokerProcessors* out);

}  // namespace apogee::broker
