// The client-management request family: HEART_BEAT (34), UNREGISTER_CLIENT (35),
// GET_CONSUMER_LIST_BY_GROUP (38), LOCK_BATCH_MQ (41), UNLOCK_BATCH_MQ (42),
// CHECK_CLIENT_CONFIG (46); executors and ports are in processor_table.cc.
//
// CreateClientProcessors is called once by BrokerController, after it built the services
// (broker_services.h): the consumer and producer tables and the housekeeping (120 s channel
// expiry; a channel listener of both servers) come from there. It creates one processor
// per code and hands the housekeeping to the table.
#pragma once

namespace apogee::broker {

struct BrokerContext;
struct BrokerProcessors;
struct BrokerServices;

void CreateClientProcessors(BrokerContext& context, const BrokerServices& services,
                            BrokerProcessors* out);

}  // namespace apogee::broker
