// PullMessageProcessor: PULL_MESSAGE (11) and LITE_PULL_MESSAGE (361) (Java's
// PullMessageProcessor + DefaultPullMessageResultHandler; docs/protocol/remoting.md §5.3.1,
// §9.4, pitfalls 10-13; docs/protocol/store_ha.md §8.2, §8.5).
//
// Checks in Java's order: broker readable, subscription group (auto-created when allowed,
// consumeEnable), topic exists and is readable, queue id, then the subscription: rebuilt
// from the header when FLAG_SUBSCRIPTION is set (C++, ali-ons), otherwise the group's
// heartbeat subscription from ConsumerManager (24 / 25 when missing / stale). The read
// filters by tag code in the store; the body is the CommitLog records themselves, sent by
// scatter-gather from mapped memory (BodySegments with the files as keepalive), never
// copied. Every pull outcome carries suggestWhichBrokerId, nextBeginOffset, minOffset and
// maxOffset. Nothing found with FLAG_SUSPEND parks the request in the
// PullRequestHoldService; it is re-executed once, with suspension disallowed, when data
// arrives or its suspendTimeoutMillis passes (then PULL_NOT_FOUND). With
// FLAG_COMMIT_OFFSET the first execution also stores commitOffset as the group's offset.
// A SLAVE serves pulls exactly as Java 4.x's does, also without slaveReadEnable (which only
// changes suggestWhichBrokerId): it never corrects offsets (PULL_OFFSET_MOVED becomes
// PULL_RETRY_IMMEDIATELY) and never stores commitOffset.
//
// Dependencies: exactly the members of Deps plus the hold service (filled by
// CreateSendPullProcessors from the broker's services; a unit test fills them itself).
//
// Thread-safety: ProcessRequest may run concurrently on any threads. Held requests keep
// only a weak reference to the processor.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "remoting/request_processor.h"

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::broker {

class BrokerConfig;
class BrokerStatsManager;
class ConsumerManager;
class ConsumerOffsetManager;
class PullRequestHoldService;
class SubscriptionGroupManager;
class TopicConfigManager;

class PullMessageProcessor : public remoting::RequestProcessor,
                             public std::enable_shared_from_this<PullMessageProcessor> {
 public:
  // What the processor uses; every non-null pointer must outlive it.
  struct Deps {
    const BrokerConfig* config = nullptr;  // settings, read once per execution
    store::MessageStore* store = nullptr;
    TopicConfigManager* topics = nullptr;
    SubscriptionGroupManager* groups = nullptr;  // lookup and auto-creation
    // Pull and commit offsets. Null: none are recorded (unit tests only).
    ConsumerOffsetManager* offsets = nullptr;
    // The heartbeat subscriptions, for a pull without FLAG_SUBSCRIPTION. Null: such a
    // pull answers SUBSCRIPTION_NOT_EXIST, as for a group that never sent a heartbeat.
    ConsumerManager* consumers = nullptr;
    BrokerStatsManager* stats = nullptr;  // null: nothing is counted
  };

  // `hold` may be null: then nothing is ever parked (every pull is answered at once).
  PullMessageProcessor(const Deps& deps, std::shared_ptr<PullRequestHoldService> hold);

  void ProcessRequest(protocol::RemotingCommand request, remoting::Responder responder) override;
  // A pull whose first message is in memory by Java's own test (CheckInDiskByConsumeOffset:
  // within accessMessageInMemoryMaxRatio of the CommitLog's end), or that is at the queue's
  // end (nothing to read, or to hold), runs on the IO thread; one further back, or of a group
  // the broker does not know yet (auto-creating it writes a file), goes to the pull pool, as
  // every pull does in Java. The pool cannot keep page faults of the records
  // off the IO thread anyway: the body is written from the mapping by the IO thread. What it
  // costs is two thread hand-offs per pull (docs/benchmarks.md, "Catch-up read").
  bool ServesInline(const protocol::RemotingCommand& request) const override;

  // One execution (Java's processRequest(channel, request, brokerAllowSuspend)). With
  // `allow_suspend` false (a held request woken up) it answers and commits nothing, except
  // that a wake-up whose new messages all failed the tag filter goes back to waiting until
  // `hold_deadline_ms` (steady clock): Java's hold service never wakes a pull for a
  // message its filter rejects.
  void Process(std::shared_ptr<const protocol::RemotingCommand> request,
               remoting::Responder responder, bool allow_suspend, int64_t hold_deadline_ms = 0);

 private:
  // Parks the pull until a message past `wait_past_offset` arrives or `deadline_ms`.
  void Hold(std::shared_ptr<const protocol::RemotingCommand> request,
            const remoting::Responder& responder, const std::string& topic, int32_t queue_id,
            int64_t wait_past_offset, int64_t deadline_ms);

  const Deps deps_;
  std::shared_ptr<PullRequestHoldService> hold_;
};

}  // namespace apogee::broker
