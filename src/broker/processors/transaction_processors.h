// The transaction family: END_TRANSACTION (37), the half / op topics and the check-back
// service that sends CHECK_TRANSACTION_STATE to producers; also APOGEE_REDRIVE_DLQ_MESSAGE.
//
// RegisterTransactionProcessors is called by BrokerController once per server (main, then fast),
// after the client, send/pull and admin families. Services it creates are started and
// stopped through BrokerContext start/shutdown hooks (added on the first call only).
#pragma once

namespace apogee::remoting {
class RemotingServer;
}  // namespace apogee::remoting

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;

void RegisterTransactionProcessors(BrokerContext& context, remoting::RemotingServer& server,
                           env::Env* env);

}  // namespace apogee::broker
