#include "admin/message_send.h"

#include <chrono>

#include "apogee/producer.h"

namespace apogee::admin {
namespace {

constexpr char kToolsProducerGroup[] = "TOOLS_PRODUCER";

}  // namespace

Result<SendSummary> SendOneMessage(std::string_view namesrv_addr, const SendRequest& request) {
  ProducerConfig config;
  config.namesrv_addr = std::string(namesrv_addr);
  config.group_name = kToolsProducerGroup;
  // A client id of its own, so a concurrently running producer in this process (tests)
  // does not share this one's group table (Java's setInstanceName(currentTimeMillis)).
  config.instance_name = "mqadmin-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  Producer producer(config);
  APOGEE_RETURN_IF_ERROR(producer.Start());
  Message msg(request.topic, request.tags, request.keys, request.body);
  Result<SendResult> result =
      request.queue ? producer.Send(msg, MessageQueue(request.topic, request.queue->first, request.queue->second))
                    : producer.Send(msg);
  producer.Shutdown();
  if (!result.ok()) return result.status();
  SendSummary s;
  s.broker_name = result->message_queue.broker_name();
  s.queue_id = result->message_queue.queue_id();
  s.send_status = std::string(SendStatusName(result->send_status));
  s.msg_id = result->msg_id;
  s.offset_msg_id = result->offset_msg_id;
  s.queue_offset = result->queue_offset;
  return s;
}

}  // namespace apogee::admin
