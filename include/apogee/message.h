// Message (what a producer sends) and MessageExt (a stored message as a consumer receives
// it), shaped as Java's org.apache.rocketmq.common.message.Message / MessageExt. Tags, keys,
// delay level and the other well-known attributes live in the properties map under
// RocketMQ's property names, exactly as Java keeps them, so that whatever one client sets
// another client reads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apogee {

// Property names shared with every RocketMQ client (MessageConst.java).
inline constexpr std::string_view kPropertyKeys = "KEYS";
inline constexpr std::string_view kPropertyTags = "TAGS";
inline constexpr std::string_view kPropertyWaitStoreMsgOk = "WAIT";
inline constexpr std::string_view kPropertyDelayTimeLevel = "DELAY";
inline constexpr std::string_view kPropertyUniqClientMessageIdKeyIdx = "UNIQ_KEY";
inline constexpr std::string_view kPropertyShardingKey = "__SHARDINGKEY";

class Message {
 public:
  Message() = default;
  Message(std::string topic, std::string body);
  Message(std::string topic, std::string tags, std::string body);
  Message(std::string topic, std::string tags, std::string keys, std::string body);

  const std::string& topic() const { return topic_; }
  void set_topic(std::string topic) { topic_ = std::move(topic); }

  // The user flag (Java's Message.flag): carried, never interpreted.
  int32_t flag() const { return flag_; }
  void set_flag(int32_t flag) { flag_ = flag; }

  const std::string& body() const { return body_; }
  void set_body(std::string body) { body_ = std::move(body); }

  // TAGS: one tag; consumers subscribe by "tagA || tagB".
  std::string tags() const;
  void set_tags(std::string_view tags);

  // KEYS: business keys, space-separated on the wire; QUERY_MESSAGE finds messages by them.
  std::string keys() const;
  void set_keys(std::string_view keys);
  void set_keys(const std::vector<std::string>& keys);

  // DELAY: schedule level 1..18 (1s 5s 10s 30s 1m ... 2h); 0 = deliver now.
  int32_t delay_time_level() const;
  void set_delay_time_level(int32_t level);

  // WAIT: whether the broker answers only after the store policy is met (default true).
  bool wait_store_msg_ok() const;
  void set_wait_store_msg_ok(bool wait);

  // Java's putUserProperty/getUserProperty (and the raw property table underneath).
  // Names and values must not contain '\x01' or '\x02' (the wire separators).
  void PutProperty(std::string_view name, std::string_view value);
  std::optional<std::string> GetProperty(std::string_view name) const;
  void ClearProperty(std::string_view name);
  const std::map<std::string, std::string, std::less<>>& properties() const { return properties_; }
  // Replaces the whole table (Java's package-private setProperties), e.g. with one built by
  // moving the strings of a decoded message.
  void set_properties(std::map<std::string, std::string, std::less<>> properties) {
    properties_ = std::move(properties);
  }

  // Set by TransactionProducer on a half message (Java's transactionId).
  const std::string& transaction_id() const { return transaction_id_; }
  void set_transaction_id(std::string id) { transaction_id_ = std::move(id); }

 private:
  std::string topic_;
  int32_t flag_ = 0;
  std::map<std::string, std::string, std::less<>> properties_;
  std::string body_;
  std::string transaction_id_;
};

// A stored message: everything the broker added. Bodies arrive decompressed.
class MessageExt : public Message {
 public:
  // The id applications see (Java's MessageClientExt.getMsgId): UNIQ_KEY when the
  // producer set one, else the broker's offset id.
  std::string msg_id() const;
  // The broker-made id: store host and CommitLog offset, 32 hex digits.
  const std::string& offset_msg_id() const { return offset_msg_id_; }
  void set_offset_msg_id(std::string id) { offset_msg_id_ = std::move(id); }

  const std::string& broker_name() const { return broker_name_; }
  void set_broker_name(std::string name) { broker_name_ = std::move(name); }
  int32_t queue_id() const { return queue_id_; }
  void set_queue_id(int32_t id) { queue_id_ = id; }
  int64_t queue_offset() const { return queue_offset_; }
  void set_queue_offset(int64_t offset) { queue_offset_ = offset; }
  int64_t commit_log_offset() const { return commit_log_offset_; }
  void set_commit_log_offset(int64_t offset) { commit_log_offset_ = offset; }
  int32_t store_size() const { return store_size_; }
  void set_store_size(int32_t size) { store_size_ = size; }
  int32_t sys_flag() const { return sys_flag_; }
  void set_sys_flag(int32_t flag) { sys_flag_ = flag; }
  int32_t body_crc() const { return body_crc_; }
  void set_body_crc(int32_t crc) { body_crc_ = crc; }
  int64_t born_timestamp() const { return born_timestamp_; }
  void set_born_timestamp(int64_t ms) { born_timestamp_ = ms; }
  // "ip:port".
  const std::string& born_host() const { return born_host_; }
  void set_born_host(std::string host) { born_host_ = std::move(host); }
  int64_t store_timestamp() const { return store_timestamp_; }
  void set_store_timestamp(int64_t ms) { store_timestamp_ = ms; }
  const std::string& store_host() const { return store_host_; }
  void set_store_host(std::string host) { store_host_ = std::move(host); }
  int32_t reconsume_times() const { return reconsume_times_; }
  void set_reconsume_times(int32_t times) { reconsume_times_ = times; }
  int64_t prepared_transaction_offset() const { return prepared_transaction_offset_; }
  void set_prepared_transaction_offset(int64_t offset) { prepared_transaction_offset_ = offset; }

 private:
  std::string offset_msg_id_;
  std::string broker_name_;
  int32_t queue_id_ = 0;
  int64_t queue_offset_ = 0;
  int64_t commit_log_offset_ = 0;
  int32_t store_size_ = 0;
  int32_t sys_flag_ = 0;
  int32_t body_crc_ = 0;
  int64_t born_timestamp_ = 0;
  std::string born_host_;
  int64_t store_timestamp_ = 0;
  std::string store_host_;
  int32_t reconsume_times_ = 0;
  int64_t prepared_transaction_offset_ = 0;
};

}  // namespace apogee
