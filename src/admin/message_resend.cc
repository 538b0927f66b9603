#include "admin/message_resend.h"

#include "protocol/custom_header.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"

namespace apogee::admin {

Status ResendToGroup(MQAdminClient* admin, std::string_view broker_addr, const message::MessageExt& msg,
                     std::string_view group, Millis timeout) {
  if (group.empty()) return Status::InvalidArgument("name the consumer group to resend to");
  protocol::ConsumerSendMsgBackRequestHeader header;
  header.offset = msg.commit_log_offset;
  header.group = std::string(group);
  header.delay_level = kResendDelayLevel;
  header.origin_msg_id = std::string(msg.msg_id());
  header.origin_topic = msg.topic;
  protocol::RemotingCommand request =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kConsumerSendMsgBack);
  protocol::EncodeCustomHeader(header, &request);
  APOGEE_ASSIGN_OR_RETURN(protocol::RemotingCommand response,
                          admin->transport()->Invoke(broker_addr, std::move(request), timeout));
  if (response.code != protocol::response_code::kSuccess) return ResponseError(broker_addr, response);
  return Status::OK();
}

}  // namespace apogee::admin
