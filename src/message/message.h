// Message and MessageExt: the in-memory model of a RocketMQ message, mirroring Java's
// org.apache.rocketmq.common.message.Message / MessageExt. A Message is what a producer sends;
// a MessageExt is a stored message with everything the broker added.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "message/host_address.h"
#include "message/properties.h"

namespace apogee::message {

struct Message {
  std::string topic;
  int32_t flag = 0;
  MessageProperties properties;
  std::string body;

  // Shortcuts over well-known properties (message_format.h).
  std::optional<std::string_view> tags() const;
  // KEYS split on single spaces, empty pieces dropped.
  std::vector<std::string> keys() const;
  // UNIQ_KEY, the client-side id.
  std::optional<std::string_view> uniq_key() const;
  // DELAY as a number; 0 when absent or not a number.
  int32_t delay_time_level() const;
  // WAIT: absent means true, as Java's isWaitStoreMsgOK.
  bool wait_store_msg_ok() const;
};

struct MessageExt : Message {
  int32_t store_size = 0;  // TOTALSIZE of the record
  int32_t queue_id = 0;
  int64_t queue_offset = 0;
  int64_t commit_log_offset = 0;  // PHYSICALOFFSET
  int32_t sys_flag = 0;
  int64_t born_timestamp = 0;
  HostAddress born_host;
  int64_t store_timestamp = 0;
  HostAddress store_host;
  int32_t body_crc = 0;  // as stored (masked CRC of the stored body)
  int32_t reconsume_times = 0;
  int64_t prepared_transaction_offset = 0;
  // The broker-made id: store host + physical offset (MessageExt.msgId in Java).
  std::string offset_msg_id;

  // What Java's MessageClientExt.getMsgId returns: UNIQ_KEY when present, else offset_msg_id.
  std::string_view msg_id() const;
};

}  // namespace apogee::message
