// DlqRedriveProcessor: APOGEE_REDRIVE_DLQ_MESSAGE (30001, Apogee only), which sends the
// messages of %DLQ%<group> back to the topic they failed in. Request and response fields:
// protocol::RedriveDlqMessageRequestHeader / RedriveDlqMessageResponseHeader
// (protocol/admin_headers.h).
//
// Progress is the consume offset of the system group CID_APOGEE_DLQ_REDRIVE on the DLQ
// (consumerOffset.json), independent of the group's own offsets, so a second redrive never
// resends what the first one moved. Each message goes to its RETRY_TOPIC (the topic the
// consumer read it from; REAL_TOPIC when absent) on a round-robin write queue of that
// topic, with reconsume times reset to 0; the original msgId stays in ORIGIN_MESSAGE_ID
// and UNIQ_KEY, so clients see the same id.
//
// Thread-safety: one redrive at a time per broker (a mutex); any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string_view>

#include "message/host_address.h"
#include "protocol/remoting_command.h"
#include "remoting/request_processor.h"

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::broker {

class BrokerConfig;
class ConsumerOffsetManager;
class SubscriptionGroupManager;
class TopicConfigManager;

// The consumer group whose offset on %DLQ%<group> marks what was redriven.
inline constexpr std::string_view kDlqRedriveConsumerGroup = "CID_APOGEE_DLQ_REDRIVE";

class DlqRedriveProcessor : public remoting::RequestProcessor {
 public:
  // What the processor uses; none may be null, and each must outlive the processor.
  struct Deps {
    const BrokerConfig* config = nullptr;
    store::MessageStore* store = nullptr;
    // Where the redrive got to, under kDlqRedriveConsumerGroup.
    ConsumerOffsetManager* offsets = nullptr;
    SubscriptionGroupManager* groups = nullptr;  // is the group known at all
    TopicConfigManager* topics = nullptr;        // its DLQ and the original topics
  };

  DlqRedriveProcessor(const Deps& deps, message::HostAddress store_host);

  void ProcessRequest(protocol::RemotingCommand request, remoting::Responder responder) override;

  // What ProcessRequest answers, without a channel (tests, tools).
  protocol::RemotingCommand Redrive(const protocol::RemotingCommand& request);

 private:
  const Deps deps_;
  message::HostAddress store_host_;
  std::mutex mu_;  // one redrive at a time: two would resend the same messages
  std::atomic<uint64_t> round_robin_{0};
};

}  // namespace apogee::broker
