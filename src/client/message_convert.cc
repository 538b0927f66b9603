#include "client/message_convert.h"

#include <fmt/format.h>

namespace apogee::client {

Result<message::MessageProperties> ToWireProperties(const Message& msg) {
  message::MessageProperties properties;
  for (const auto& [name, value] : msg.properties()) {
    Status status = properties.Set(name, value);
    if (!status.ok()) {
      return status.Prefixed(fmt::format("message property \"{}\" of topic {}", name, msg.topic()));
    }
  }
  return properties;
}

Result<message::Message> ToWireMessage(const Message& msg) {
  message::Message wire;
  APOGEE_ASSIGN_OR_RETURN(wire.properties, ToWireProperties(msg));
  wire.topic = msg.topic();
  wire.flag = msg.flag();
  wire.body = msg.body();
  return wire;
}

namespace {

// Everything but the body, the offset id, the properties and the hosts, which the two overloads
// copy, move or format.
void SetStoredFields(const message::MessageExt& ext, const std::string& broker_name,
                     MessageExt* out) {
  out->set_topic(ext.topic);
  out->set_flag(ext.flag);
  out->set_broker_name(broker_name);
  out->set_queue_id(ext.queue_id);
  out->set_queue_offset(ext.queue_offset);
  out->set_commit_log_offset(ext.commit_log_offset);
  out->set_store_size(ext.store_size);
  out->set_sys_flag(ext.sys_flag);
  out->set_body_crc(ext.body_crc);
  out->set_born_timestamp(ext.born_timestamp);
  out->set_store_timestamp(ext.store_timestamp);
  out->set_reconsume_times(ext.reconsume_times);
  out->set_prepared_transaction_offset(ext.prepared_transaction_offset);
}

}  // namespace

const std::string& HostTextCache::Text(const message::HostAddress& host) {
  for (size_t i = 0; i < used_; ++i) {
    if (entries_[i].host == host) return entries_[i].text;
  }
  // The first host seen (a pull's first store host) stays in slot 0; later new hosts take
  // turns in slot 1, so a run of born hosts never evicts the store host.
  Entry& entry = entries_[used_ == 0 ? 0 : 1];
  entry.host = host;
  entry.text = host.ToString();
  if (used_ < 2) ++used_;
  return entry.text;
}

MessageExt ToPublicMessageExt(const message::MessageExt& ext, const std::string& broker_name) {
  MessageExt out;
  SetStoredFields(ext, broker_name, &out);
  out.set_born_host(ext.born_host.ToString());
  out.set_store_host(ext.store_host.ToString());
  out.set_body(ext.body);
  for (const auto& [name, value] : ext.properties) out.PutProperty(name, value);
  out.set_offset_msg_id(ext.offset_msg_id);
  return out;
}

MessageExt ToPublicMessageExt(message::MessageExt&& ext, const std::string& broker_name,
                              HostTextCache* hosts) {
  MessageExt out;
  SetStoredFields(ext, broker_name, &out);
  out.set_store_host(hosts->Text(ext.store_host));
  out.set_born_host(hosts->Text(ext.born_host));
  out.set_body(std::move(ext.body));
  out.set_offset_msg_id(std::move(ext.offset_msg_id));
  // A decoded table holds each name once (a later duplicate replaced the earlier in place),
  // so inserting every pair gives the same map PutProperty would.
  std::map<std::string, std::string, std::less<>> properties;
  for (auto& [name, value] : ext.properties.TakeEntries()) {
    properties.insert_or_assign(std::move(name), std::move(value));
  }
  out.set_properties(std::move(properties));
  return out;
}

}  // namespace apogee::client
