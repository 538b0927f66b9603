// The send / pull request family: SEND_MESSAGE (10), SEND_MESSAGE_V2 (310),
// SEND_BATCH_MESSAGE (320), PULL_MESSAGE (11), LITE_PULL_MESSAGE (361),
// QUERY_CONSUMER_OFFSET (14), UPDATE_CONSUMER_OFFSET (15), SEARCH_OFFSET_BY_TIMESTAMP (29),
// GET_MAX_OFFSET (30), GET_MIN_OFFSET (31), GET_EARLIEST_MSG_STORETIME (32).
//
// RegisterSendPullProcessors is called by BrokerController once per server (main, then
// fast). The first call creates context.consumer_offset_manager (consumerOffset.json in
// the config directory, loaded and periodically persisted through start hooks, persisted
// again at shutdown) and, for the main server, the long-polling PullRequestHoldService,
// which it wires to context.message_arriving_hook. Pulls are registered on the main server
// only (Java's fast server has no pull processor).
#pragma once

namespace apogee::remoting {
class RemotingServer;
}  // namespace apogee::remoting

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;

void RegisterSendPullProcessors(BrokerContext& context, remoting::RemotingServer& server);

// The same with the Env the consumer offsets are persisted through (tests use a MemEnv;
// the plain form uses env::Env::Default()).
void RegisterSendPullProcessors(BrokerContext& context, remoting::RemotingServer& server,
                                env::Env* env);

}  // namespace apogee::broker
