// The admin and message-query request families (AdminBrokerProcessor,
// QueryMessageProcessor): see admin_broker_processor.h and query_message_processor.h for
// the codes.
//
// RegisterAdminProcessors is called by BrokerController once per server (main, then
// fast), after the client and send/pull families, so the consumer, producer and offset
// managers exist. The first call also creates the runtime statistics and chains them into
// context.message_arriving_hook (keeping the hook already there).
#pragma once

namespace apogee::remoting {
class RemotingServer;
}  // namespace apogee::remoting

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;

void RegisterAdminProcessors(BrokerContext& context, remoting::RemotingServer& server);

// The same with the Env delayOffset.json is read through (tests use a MemEnv; the plain
// form uses env::Env::Default()).
void RegisterAdminProcessors(BrokerContext& context, remoting::RemotingServer& server,
                             env::Env* env);

}  // namespace apogee::broker
