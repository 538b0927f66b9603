// The send / pull request family: SEND_MESSAGE (10), SEND_MESSAGE_V2 (310),
// SEND_BATCH_MESSAGE (320), PULL_MESSAGE (11), LITE_PULL_MESSAGE (361),
// QUERY_CONSUMER_OFFSET (14), UPDATE_CONSUMER_OFFSET (15), SEARCH_OFFSET_BY_TIMESTAMP (29),
// GET_MAX_OFFSET (30), GET_MIN_OFFSET (31), GET_EARLIEST_MSG_STORETIME (32); which code goes
// to which executor and port is in processor_table.cc.
//
// CreateSendPullProcessors is called once by BrokerController, after it built the
// services (broker_services.h): the consumer offsets (context.consumer_offset_manager) and
// the long-polling PullRequestHoldService come from there. It creates the send,
// consumer-manage and pull processors only.
#pragma once

namespace apogee::broker {

struct BrokerContext;
struct BrokerProcessors;
struct BrokerServices;

void CreateSendPullProcessors(BrokerContext& context, const BrokerServices& services,
                              BrokerProcessors* out);

}  // namespace apogee::broker
