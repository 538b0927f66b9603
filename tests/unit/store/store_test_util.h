// Helpers shared by the store's unit tests: small configs and message fields.
#pragma once

#include <string>

#include "message/host_address.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "store/store_config.h"

namespace apogee::store::testing {

// A store config with tiny files so tests roll files quickly.
inline StoreConfig SmallConfig(const std::string& root) {
  StoreConfig c;
  c.store_path_root_dir = root;
  c.mapped_file_size_commit_log = 64 * 1024;
  c.mapped_file_size_consume_queue = 20 * 64;
  c.max_hash_slot_num = 128;
  c.max_index_num = 512;
  c.flush_interval_commit_log = 10;
  c.flush_interval_consume_queue = 10;
  c.warm_mapped_file_enable = false;
  return c;
}

// Record fields whose views point into the owned strings (keep the object alive).
struct TestMessage {
  std::string topic = "TopicTest";
  std::string body = "hello";
  std::string properties;
  message::RecordFields fields;

  TestMessage(std::string t, int32_t queue_id, std::string b, std::string tags = "",
              std::string keys = "", std::string uniq = "")
      : topic(std::move(t)), body(std::move(b)) {
    message::MessageProperties props;
    if (!tags.empty()) (void)props.Set("TAGS", tags);
    if (!keys.empty()) (void)props.Set("KEYS", keys);
    if (!uniq.empty()) (void)props.Set("UNIQ_KEY", uniq);
    properties = props.Encode();
    fields.queue_id = queue_id;
    fields.born_timestamp = 1700000000000;
    fields.born_host = message::HostAddress::IPv4(127, 0, 0, 1, 40000);
    fields.store_host = message::HostAddress::IPv4(10, 0, 0, 1, 10911);
    Rebind();
  }
  TestMessage(const TestMessage& o)
      : topic(o.topic), body(o.body), properties(o.properties), fields(o.fields) {
    Rebind();
  }
  void Rebind() {
    fields.topic = topic;
    fields.body = body;
    fields.properties = properties;
  }
};

}  // namespace apogee::store::testing
