// QUERY_MESSAGE (12) and VIEW_MESSAGE_BY_ID (33): reading messages back by key (through
// the IndexFile) and by CommitLog offset, for `mqadmin queryMsgByKey / queryMsgById` and
// the clients' viewMessage APIs (Java's QueryMessageProcessor; docs/protocol/remoting.md
// §5.3.7).
//
// Both answer with stored records (docs/protocol/store_ha.md §1) as the body, sent from mapped
// CommitLog memory without a copy: the response's body_segments keep the store's file
// handles alive until the frame is written.
//
// Thread-safety: stateless apart from the store; runs on the query-message executor.
#pragma once

#include "protocol/remoting_command.h"
#include "remoting/request_processor.h"

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::broker {

// The extField the Java client adds to a QUERY_MESSAGE by UNIQ_KEY (MixAll's
// UNIQUE_MSG_QUERY_FLAG); the broker then answers at most defaultQueryMaxNum messages.
inline constexpr char kUniqueMsgQueryFlag[] = "_UNIQUE_KEY_QUERY";

class QueryMessageProcessor : public remoting::RequestProcessor {
 public:
  // The store (the only thing it reads) must outlive the processor.
  explicit QueryMessageProcessor(store::MessageStore* store);

  void ProcessRequest(protocol::RemotingCommand request, remoting::Responder responder) override;

 private:
  protocol::RemotingCommand QueryMessage(const protocol::RemotingCommand& request) const;
  protocol::RemotingCommand ViewMessageById(const protocol::RemotingCommand& request) const;

  store::MessageStore* store_;
};

}  // namespace apogee::broker
