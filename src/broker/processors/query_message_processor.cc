#include "broker/processors/query_message_processor.h"

#include <fmt/format.h>

#include <memory>
#include <string>
#include <utility>

#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "store/get_result.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;

namespace {

RemotingCommand Reply(const RemotingCommand& request, int32_t code, std::string remark) {
  return RemotingCommand::MakeResponse(request, code, std::move(remark));
}

// Java's decodeCommandCustomHeader throws, and the remoting layer answers SYSTEM_ERROR
// with the exception text ("the custom field <key> is null").
RemotingCommand Malformed(const RemotingCommand& request, const Status& status) {
  return Reply(request, rc::kSystemError,
               fmt::format("malformed {} request header: {}", req::Name(request.code),
                           status.message()));
}

// Points the response body at the records of `result` in mapped memory; the segments
// hold the result (and with it the mapped files) until the frame has been written.
void AttachRecords(store::QueryMessageResult result, RemotingCommand* response) {
  auto held = std::make_shared<store::QueryMessageResult>(std::move(result));
  for (const store::MessageRef& ref : held->messages) {
    response->body_segments.segments.push_back(ref.view());
  }
  response->body_segments.keepalive = std::move(held);
}

}  // namespace

QueryMessageProcessor::QueryMessageProcessor(store::MessageStore* store) : store_(store) {}

void QueryMessageProcessor::ProcessRequest(RemotingCommand request, remoting::Responder responder) {
  switch (request.code) {
    case req::kQueryMessage:
      responder.Send(QueryMessage(request));
      return;
    case req::kViewMessageById:
      responder.Send(ViewMessageById(request));
      return;
    default:
      responder.SendCode(rc::kRequestCodeNotSupported,
                         fmt::format(" request type {} not supported", request.code));
  }
}

RemotingCommand QueryMessageProcessor::QueryMessage(const RemotingCommand& request) const {
  auto header = protocol::DecodeCustomHeader<protocol::QueryMessageRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());

  int32_t max_num = header->max_num;
  // A lookup by UNIQ_KEY may match several copies (retries); Java answers up to the
  // store's default instead of the caller's number.
  if (request.ext_fields.Get(kUniqueMsgQueryFlag) == std::optional<std::string_view>("true")) {
    max_num = store_->config().default_query_max_num;
  }
  store::QueryMessageResult result = store_->QueryMessages(
      header->topic, header->key, max_num, header->begin_timestamp, header->end_timestamp);

  protocol::QueryMessageResponseHeader response_header;
  response_header.index_last_update_timestamp = result.index_last_update_timestamp;
  response_header.index_last_update_phyoffset = result.index_last_update_phy_offset;

  if (result.messages.empty()) {
    // Java sets the response header before deciding, so the miss carries it too.
    RemotingCommand response = Reply(request, rc::kQueryNotFound,
                                      "can not find message, maybe time range not correct");
    protocol::EncodeCustomHeader(response_header, &response);
    return response;
  }
  RemotingCommand response = RemotingCommand::MakeResponse(request, rc::kSuccess);
  protocol::EncodeCustomHeader(response_header, &response);
  AttachRecords(std::move(result), &response);
  return response;
}

RemotingCommand QueryMessageProcessor::ViewMessageById(const RemotingCommand& request) const {
  auto header = protocol::DecodeCustomHeader<protocol::ViewMessageRequestHeader>(request);
  if (!header.ok()) return Malformed(request, header.status());

  auto found = store_->GetMessageByOffset(header->offset);
  if (!found.ok() || found->messages.empty()) {
    return Reply(request, rc::kSystemError,
                 fmt::format("can not find message by the offset, {}", header->offset));
  }
  RemotingCommand response = RemotingCommand::MakeResponse(request, rc::kSuccess);
  AttachRecords(std::move(*found), &response);
  return response;
}

}  // namespace apogee::broker
