// The transaction bookkeeping format (Java's TransactionalMessageUtil): names of the
// internal consumer group and tag, and the body of an op record. Half messages live in
// RMQ_SYS_TRANS_HALF_TOPIC, their decisions in RMQ_SYS_TRANS_OP_HALF_TOPIC (topic names in
// topic_config_manager.h); docs/protocol/store_ha.md §8.4.
//
// An op record's body is the half message's queue offset in decimal. 4.9.x writes one
// offset per record ("17"); 5.x writes several, each followed by a comma ("17,18,"). Both
// are read; this broker writes the 4.9.x form so that either Java line can take over the
// store.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::broker {

// The consumer group whose offsets mark how far the half and op queues were checked.
// Tag of an op record that removes (decides) a half message: commit and rollback alike.
inline constexpr std::string_view kTransOpRemoveTag = "d";
// The only half queue (and op queue) id.
inline constexpr int32_t kTransHalfQueueId = 0;

// "17" for half queue offset 17.
std::string EncodeTransOpBody(int64_t half_queue_offset);

// The half queue offsets an op body names, in order. InvalidArgument naming the piece
// when a piece is not a non-negative decimal number, or when the body names none.
Result<std::vector<int64_t>> DecodeTransOpBody(std::string_view body);

}  // namespace apogee::broker
