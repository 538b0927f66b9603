// The admin and message-query request families (AdminBrokerProcessor,
// QueryMessageProcessor): see admin_broker_processor.h and query_message_processor.h for
// the codes, processor_table.cc for executors and ports.
//
// CreateAdminProcessors is called once by BrokerController, after the client and send/pull
// families, so the consumer, producer and offset managers exist. It reads the runtime
// statistics the controller created (context.stats).
#pragma once

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;
struct BrokerProcessors;

// `env` reads delayOffset.json (tests use a MemEnv).
void CreateAdminProcessors(BrokerContext& context, BrokerProcessors* out, env::Env* env);

}  // namespace apogee::broker
