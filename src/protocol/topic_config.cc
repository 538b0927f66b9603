#include "protocol/topic_config.h"

#include <string>
#include <vector>

#include "base/string_util.h"
#include "protocol/custom_header.h"
#include "protocol/topic_config_json.h"

namespace apogee::protocol {
namespace {

// Java's TopicFilterType default (TopicConfig's field initializer).
constexpr std::string_view kDefaultTopicFilterType = "SINGLE_TAG";

Status CheckObject(const json::Value& v, std::string_view path) {
  if (!v.IsObject()) return Status::Corruption(std::string(path) + ": expected an object");
  return Status::OK();
}

std::string Child(std::string_view path, std::string_view key) {
  return std::string(path) + "." + std::string(key);
}

void WriteAttributes(json::Writer& w, const std::map<std::string, std::string>& attributes) {
  w.StartObject();
  for (const auto& [key, value] : attributes) {
    json::Key(w, key);
    json::String(w, value);
  }
  w.EndObject();
}

Status ReadAttributes(const json::Value& v, std::string_view path,
                      std::map<std::string, std::string>* out) {
  APOGEE_ASSIGN_OR_RETURN(const json::Value* attributes, json::FindObject(v, "attributes", path));
  if (attributes == nullptr) return Status::OK();
  for (auto it = attributes->MemberBegin(); it != attributes->MemberEnd(); ++it) {
    if (it->value.IsNull()) continue;
    APOGEE_ASSIGN_OR_RETURN(std::string value,
                            json::AsString(it->value, Child(path, "attributes")));
    (*out)[std::string(json::KeyOf(it->name))] = std::move(value);
  }
  return Status::OK();
}

template <typename T, typename WriteFn>
std::string EncodeWith(const T& value, WriteFn write) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  write(w, value);
  return out;
}

template <typename T, typename ReadFn>
Result<T> DecodeWith(std::string_view text, std::string_view what, ReadFn read) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, what, &doc));
  T value;
  APOGEE_RETURN_IF_ERROR(read(doc, what, &value));
  return value;
}

}  // namespace

void WriteDataVersion(json::Writer& w, const DataVersion& version) {
  w.StartObject();
  json::Key(w, "counter");
  w.Int64(version.counter);
  json::Key(w, "stateVersion");
  w.Int64(version.state_version);
  json::Key(w, "timestamp");
  w.Int64(version.timestamp);
  w.EndObject();
}

Status ReadDataVersion(const json::Value& v, std::string_view path, DataVersion* out) {
  APOGEE_RETURN_IF_ERROR(CheckObject(v, path));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "counter", path, &out->counter));
  APOGEE_RETURN_IF_ERROR(json::ReadInt64(v, "stateVersion", path, &out->state_version));
  return json::ReadInt64(v, "timestamp", path, &out->timestamp);
}

void WriteTopicConfig(json::Writer& w, const TopicConfig& config) {
  w.StartObject();
  if (!config.attributes.empty()) {
    json::Key(w, "attributes");
    WriteAttributes(w, config.attributes);
  }
  json::Key(w, "order");
  w.Bool(config.order);
  json::Key(w, "perm");
  w.Int(config.perm);
  json::Key(w, "readQueueNums");
  w.Int(config.read_queue_nums);
  json::Key(w, "topicFilterType");
  json::String(w, config.topic_filter_type);
  json::Key(w, "topicName");
  json::String(w, config.topic_name);
  json::Key(w, "topicSysFlag");
  w.Int(config.topic_sys_flag);
  json::Key(w, "writeQueueNums");
  w.Int(config.write_queue_nums);
  w.EndObject();
}

Status ReadTopicConfig(const json::Value& v, std::string_view path, TopicConfig* out) {
  APOGEE_RETURN_IF_ERROR(CheckObject(v, path));
  APOGEE_RETURN_IF_ERROR(json::ReadString(v, "topicName", path, &out->topic_name));
  APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "readQueueNums", path, &out->read_queue_nums));
  APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "writeQueueNums", path, &out->write_queue_nums));
  APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "perm", path, &out->perm));
  APOGEE_RETURN_IF_ERROR(json::ReadString(v, "topicFilterType", path, &out->topic_filter_type));
  APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "topicSysFlag", path, &out->topic_sys_flag));
  APOGEE_RETURN_IF_ERROR(json::ReadBool(v, "order", path, &out->order));
  return ReadAttributes(v, path, &out->attributes);
}

void WriteTopicConfigSerializeWrapper(json::Writer& w, const TopicConfigSerializeWrapper& wrapper) {
  w.StartObject();
  json::Key(w, "dataVersion");
  WriteDataVersion(w, wrapper.data_version);
  json::Key(w, "topicConfigTable");
  w.StartObject();
  for (const auto& [name, config] : wrapper.topic_config_table) {
    json::Key(w, name);
    WriteTopicConfig(w, config);
  }
  w.EndObject();
  w.EndObject();
}

Status ReadTopicConfigSerializeWrapper(const json::Value& v, std::string_view path,
                                       TopicConfigSerializeWrapper* out) {
  APOGEE_RETURN_IF_ERROR(CheckObject(v, path));
  if (const json::Value* dv = json::Find(v, "dataVersion")) {
    APOGEE_RETURN_IF_ERROR(ReadDataVersion(*dv, Child(path, "dataVersion"), &out->data_version));
  }
  APOGEE_ASSIGN_OR_RETURN(const json::Value* table, json::FindObject(v, "topicConfigTable", path));
  if (table == nullptr) return Status::OK();
  for (auto it = table->MemberBegin(); it != table->MemberEnd(); ++it) {
    if (it->value.IsNull()) continue;
    const std::string name(json::KeyOf(it->name));
    TopicConfig config;
    config.topic_name = name;  // the map key, unless the entry names itself
    APOGEE_RETURN_IF_ERROR(
        ReadTopicConfig(it->value, Child(path, "topicConfigTable." + name), &config));
    out->topic_config_table[name] = std::move(config);
  }
  return Status::OK();
}

std::string EncodeDataVersion(const DataVersion& version) {
  return EncodeWith(version, WriteDataVersion);
}
Result<DataVersion> DecodeDataVersion(std::string_view text) {
  return DecodeWith<DataVersion>(text, "DataVersion", ReadDataVersion);
}
std::string EncodeTopicConfig(const TopicConfig& config) {
  return EncodeWith(config, WriteTopicConfig);
}
Result<TopicConfig> DecodeTopicConfig(std::string_view text) {
  return DecodeWith<TopicConfig>(text, "TopicConfig", ReadTopicConfig);
}
std::string EncodeTopicConfigSerializeWrapper(const TopicConfigSerializeWrapper& wrapper) {
  return EncodeWith(wrapper, WriteTopicConfigSerializeWrapper);
}
Result<TopicConfigSerializeWrapper> DecodeTopicConfigSerializeWrapper(std::string_view text) {
  return DecodeWith<TopicConfigSerializeWrapper>(text, "TopicConfigSerializeWrapper",
                                                 ReadTopicConfigSerializeWrapper);
}

std::string EncodeTopicConfigText(const TopicConfig& config) {
  std::string out = config.topic_name;
  out += ' ';
  out += std::to_string(config.read_queue_nums);
  out += ' ';
  out += std::to_string(config.write_queue_nums);
  out += ' ';
  out += std::to_string(config.perm);
  out += ' ';
  // An empty type would leave two adjacent separators that Java's split (and ours) reads as
  // a missing field; Java's TopicFilterType cannot be empty, so its default stands in.
  out += config.topic_filter_type.empty() ? kDefaultTopicFilterType : config.topic_filter_type;
  if (!config.attributes.empty()) {
    out += ' ';
    out += EncodeWith(config.attributes, WriteAttributes);
  }
  return out;
}

Result<TopicConfig> DecodeTopicConfigText(std::string_view text) {
  // Java's String.split(" ") keeps inner empty tokens and drops trailing ones.
  std::vector<std::string> tokens = SplitString(text, ' ');
  while (!tokens.empty() && tokens.back().empty()) tokens.pop_back();
  if (tokens.size() < 5) {
    return Status::Corruption("topic config text \"" + std::string(text) + "\" has " +
                              std::to_string(tokens.size()) + " fields, expected at least 5");
  }
  TopicConfig config;
  config.topic_name = tokens[0];
  std::optional<int32_t> read = ParseJavaInt(tokens[1]);
  std::optional<int32_t> write = ParseJavaInt(tokens[2]);
  std::optional<int32_t> perm = ParseJavaInt(tokens[3]);
  if (!read || !write || !perm) {
    return Status::Corruption("topic config text \"" + std::string(text) +
                              "\" has a non-numeric queue count or perm");
  }
  config.read_queue_nums = *read;
  config.write_queue_nums = *write;
  config.perm = *perm;
  // "t 1 1 6  {}" (an empty type followed by attributes): Java's TopicFilterType.valueOf
  // refuses "", we read it as the default, which is also what the encoder then writes.
  if (!tokens[4].empty()) config.topic_filter_type = tokens[4];
  if (tokens.size() > 5) {
    std::string attributes_json;
    for (size_t i = 5; i < tokens.size(); ++i) {
      if (i > 5) attributes_json += ' ';
      attributes_json += tokens[i];
    }
    json::Document doc;
    APOGEE_RETURN_IF_ERROR(json::ParseObject(attributes_json, "topic config attributes", &doc));
    const json::Value& attributes = doc;  // const iterators: clang rejects the mutable ones
    for (auto it = attributes.MemberBegin(); it != attributes.MemberEnd(); ++it) {
      if (it->value.IsNull()) continue;
      APOGEE_ASSIGN_OR_RETURN(std::string value, json::AsString(it->value, "attributes"));
      config.attributes[std::string(json::KeyOf(it->name))] = std::move(value);
    }
  }
  return config;
}

}  // namespace apogee::protocol
