// SendMessageProcessor: SEND_MESSAGE (10), SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320)
// (Java's SendMessageProcessor + AbstractSendMessageProcessor; docs/protocol/remoting.md §5.2.1,
// docs/protocol/store_ha.md §1.7, §3, §4).
//
// Batch or not is decided by the header's batch flag (`m` / `batch`), never by the code:
// the C++ client sends batches as 310 with m=true. Checks run in Java's order (header,
// broker permission for order topics, topic name, not-sendable system topics, topic
// existence with auto-creation through TBW102, queue id, retry/DLQ handling, transaction
// permission, sizes), each refusal answering Java's code with a remark naming the topic,
// queue or limit involved. The put completes asynchronously: the response is sent from
// the store's callback, so no executor thread waits for a disk or a slave.
//
// Redirects (broker/schedule/message_redirect.h): a prepared transaction message is stored in
// RMQ_SYS_TRANS_HALF_TOPIC, a timer message (TIMER_*, __STARTDELIVERTIME) in
// rmq_sys_wheel_timer, a message with a DELAY level in SCHEDULE_TOPIC_XXXX (queue level-1);
// the response still names the queue the producer asked for. A %RETRY% message past its
// max reconsume times goes to %DLQ%<group> undelayed.
//
// Every response carries MSG_REGION and TRACE_ON; every stored outcome (0, 10, 11, 12)
// also msgId (the offset msgId of the broker's store host; comma-joined for a batch),
// queueId, queueOffset and transactionId (the UNIQ_KEY) (docs/protocol/remoting.md pitfall 8).
//
// A batch is stored message by message in order (the store has no atomic multi-record
// put yet); the answer reports the first queue offset and the worst status.
//
// Dependencies: exactly the members of Deps (filled by CreateSendPullProcessors from the
// broker's context; a unit test fills them itself).
//
// Thread-safety: ProcessRequest may run concurrently on any threads.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "message/host_address.h"
#include "remoting/request_processor.h"
#include "store/delay_level_table.h"

namespace apogee::message {
class UniqKeyGenerator;
}  // namespace apogee::message

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::protocol {
struct SendMessageRequestHeader;
struct TopicConfig;
}  // namespace apogee::protocol

namespace apogee::broker {

class BrokerConfig;
class BrokerStatsManager;
class SubscriptionGroupManager;
class TopicConfigManager;
struct BrokerSettings;

class SendMessageProcessor : public remoting::RequestProcessor {
 public:
  // What the processor uses; every pointer must outlive it.
  struct Deps {
    const BrokerConfig* config = nullptr;  // settings, read once per request
    store::MessageStore* store = nullptr;
    TopicConfigManager* topics = nullptr;  // lookup and auto-creation (TBW102, retry, DLQ)
    SubscriptionGroupManager* groups = nullptr;  // a %RETRY% send's retryMaxTimes
    BrokerStatsManager* stats = nullptr;         // null: nothing is counted
    // "brokerIP1:listenPort": the store host written into msgIds.
    std::string broker_addr;
    // Failover fencing (BrokerContext::may_acknowledge): a send is acknowledged only while
    // it returns true; empty means always.
    std::function<bool()> may_acknowledge;
  };

  explicit SendMessageProcessor(Deps deps);
  ~SendMessageProcessor() override;

  void ProcessRequest(protocol::RemotingCommand request, remoting::Responder responder) override;

 private:
  struct Target;  // the topic config, queue and group data a checked request goes to

  // The send itself; ProcessRequest keeps the request's buffers for the next one after it.
  void Serve(const protocol::RemotingCommand& request,
             const Result<protocol::SendMessageRequestHeader>& header,
             remoting::Responder responder);

  // Java's msgCheck plus topic lookup / auto-creation. On refusal fills `response`.
  bool CheckAndResolve(const BrokerSettings& settings, const protocol::RemotingCommand& request,
                       const remoting::Responder& responder,
                       const protocol::SendMessageRequestHeader& header,
                       protocol::RemotingCommand* response, Target* target);
  void SendSingle(const BrokerSettings& settings, const protocol::RemotingCommand& request,
                  const protocol::SendMessageRequestHeader& header, Target target,
                  protocol::RemotingCommand response, remoting::Responder responder);
  void SendBatch(const BrokerSettings& settings, const protocol::RemotingCommand& request,
                 const protocol::SendMessageRequestHeader& header, Target target,
                 protocol::RemotingCommand response, remoting::Responder responder);
  message::HostAddress BornHost(const remoting::Responder& responder) const;

  bool MayAcknowledge() const { return !deps_.may_acknowledge || deps_.may_acknowledge(); }

  const Deps deps_;
  message::HostAddress store_host_;
  std::unique_ptr<message::UniqKeyGenerator> uniq_keys_;
  store::DelayLevelTable delay_levels_;  // messageDelayLevel, for the DELAY redirect
};

}  // namespace apogee::broker
