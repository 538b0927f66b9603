// The send / pull request family: SEND_MESSAGE (10), SEND_MESSAGE_V2 (310),
// SEND_BATCH_MESSAGE (320), PULL_MESSAGE (11), LITE_PULL_MESSAGE (361),
// QUERY_CONSUMER_OFFSET (14), UPDATE_CONSUMER_OFFSET (15), SEARCH_OFFSET_BY_TIMESTAMP (29),
// GET_MAX_OFFSET (30), GET_MIN_OFFSET (31), GET_EARLIEST_MSG_STORETIME (32); which code goes
// to which executor and port is in processor_table.cc.
//
// CreateSendPullProcessors is called once by BrokerController. It creates
// context.consumer_offset_manager (consumerOffset.json in the config directory, loaded and
// periodically persisted through start hooks, persisted again at shutdown), the
// long-polling PullRequestHoldService (added to context.arrival_observers) and the
// send, consumer-manage and pull processors.
#pragma once

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;
struct BrokerProcessors;

// `env` persists the consumer offsets (tests use a MemEnv).
void CreateSendPullProcessors(BrokerContext& context, BrokerProcessors* out, env::Env* env);

}  // namespace apogee::broker
