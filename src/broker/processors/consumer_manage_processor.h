// ConsumerManageProcessor: the consumer-offset and queue-offset requests
// (docs/protocol/remoting.md §5.3.2, §5.3.3, §5.3.6; docs/protocol/store_ha.md §8.7):
//   QUERY_CONSUMER_OFFSET (14)        the group's committed offset, or QUERY_NOT_FOUND (22)
//                                     for a new group, except offset 0 when the queue's
//                                     min offset is 0 and its first message is still in
//                                     memory (or the queue is empty) (pitfall 13);
//   UPDATE_CONSUMER_OFFSET (15)       stores the offset; oneway (usual) or normal;
//   SEARCH_OFFSET_BY_TIMESTAMP (29), GET_MAX_OFFSET (30), GET_MIN_OFFSET (31),
//   GET_EARLIEST_MSG_STORETIME (32)   queue bounds and times straight from the store
//                                     (Java serves these from the admin processor, so they
//                                     are also answered on the fast port).
// A malformed header answers SYSTEM_ERROR naming the missing field, as Java's
// RemotingCommandException does; a negative queue id answers INVALID_PARAMETER.
//
// Dependencies: exactly the members of Deps (filled by CreateSendPullProcessors).
//
// Thread-safety: ProcessRequest may run concurrently on any threads.
#pragma once

#include <cstdint>
#include <string_view>

#include "remoting/request_processor.h"

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::broker {

class ConsumerOffsetManager;
class SubscriptionGroupManager;
class TopicConfigManager;

class ConsumerManageProcessor : public remoting::RequestProcessor {
 public:
  // What the processor uses; none may be null, and each must outlive the processor.
  struct Deps {
    store::MessageStore* store = nullptr;  // queue bounds, times and in-memory check
    ConsumerOffsetManager* offsets = nullptr;
    // UPDATE_CONSUMER_OFFSET checks that the group and the topic exist.
    SubscriptionGroupManager* groups = nullptr;
    TopicConfigManager* topics = nullptr;
  };

  explicit ConsumerManageProcessor(const Deps& deps);

  void ProcessRequest(protocol::RemotingCommand request, remoting::Responder responder) override;

 private:
  protocol::RemotingCommand QueryConsumerOffset(const protocol::RemotingCommand& request);
  protocol::RemotingCommand UpdateConsumerOffset(const protocol::RemotingCommand& request);
  protocol::RemotingCommand SearchOffsetByTimestamp(const protocol::RemotingCommand& request);
  protocol::RemotingCommand GetMaxOffset(const protocol::RemotingCommand& request);
  protocol::RemotingCommand GetMinOffset(const protocol::RemotingCommand& request);
  protocol::RemotingCommand GetEarliestMsgStoretime(const protocol::RemotingCommand& request);

  // Java's "not checkInDiskByConsumeOffset(topic, queue, 0)": the queue is empty, or its
  // first message lies within the share of RAM (accessMessageInMemoryMaxRatio) behind the
  // CommitLog head.
  bool FirstMessageInMemory(std::string_view topic, int32_t queue_id) const;

  const Deps deps_;
};

}  // namespace apogee::broker
