// Topic configuration bodies (docs/protocol/remoting.md §7.5): DataVersion, TopicConfig and
// TopicConfigSerializeWrapper, the JSON a broker registers with (and keeps in
// config/topics.json). Encoders write compact JSON with keys sorted as fastjson does;
// decoders are as lenient as fastjson (json_util.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "base/status.h"
#include "protocol/perm_name.h"

namespace apogee::protocol {

// RQ:rp/DataVersion.java. The NameServer compares all three to decide "changed".
struct DataVersion {
  int64_t state_version = 0;  // 5.x; 4.9.7 peers ignore it
  int64_t timestamp = 0;
  int64_t counter = 0;

  bool operator==(const DataVersion&) const = default;
};
std::string EncodeDataVersion(const DataVersion& version);
Result<DataVersion> DecodeDataVersion(std::string_view json);

// RQ:cm/TopicConfig.java with Java's defaults.
struct TopicConfig {
  std::string topic_name;
  int32_t read_queue_nums = 16;
  int32_t write_queue_nums = 16;
  int32_t perm = kPermRead | kPermWrite;
  std::string topic_filter_type = "SINGLE_TAG";  // or "MULTI_TAG"
  int32_t topic_sys_flag = 0;
  bool order = false;
  std::map<std::string, std::string> attributes;  // 5.x; written only when not empty

  bool operator==(const TopicConfig&) const = default;
};
std::string EncodeTopicConfig(const TopicConfig& config);
Result<TopicConfig> DecodeTopicConfig(std::string_view json);

// TopicConfig.encode()/decode(): the space-separated text form used inside the compressed
// RegisterBrokerBody: "name read write perm filterType", plus " <attributes JSON>" when
// there are attributes (4.9.7 decoders want exactly five tokens, 5.x accepts more).
// topicSysFlag and order are not carried.
std::string EncodeTopicConfigText(const TopicConfig& config);
Result<TopicConfig> DecodeTopicConfigText(std::string_view text);

// RQ:rp/body/TopicConfigSerializeWrapper.java. 5.x brokers send the subclass with
// static-topic mapping members; they are ignored here.
struct TopicConfigSerializeWrapper {
  std::map<std::string, TopicConfig> topic_config_table;  // keyed by topic name
  DataVersion data_version;

  bool operator==(const TopicConfigSerializeWrapper&) const = default;
};
std::string EncodeTopicConfigSerializeWrapper(const TopicConfigSerializeWrapper& wrapper);
Result<TopicConfigSerializeWrapper> DecodeTopicConfigSerializeWrapper(std::string_view json);

}  // namespace apogee::protocol
