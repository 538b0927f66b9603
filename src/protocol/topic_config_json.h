// The JSON readers and writers behind topic_config.h, for bodies that embed these objects.
// Internal to the protocol module.
#pragma once

#include <string_view>

#include "base/status.h"
#include "protocol/json_util.h"
#include "protocol/topic_config.h"

namespace apogee::protocol {

void WriteDataVersion(json::Writer& w, const DataVersion& version);
Status ReadDataVersion(const json::Value& v, std::string_view path, DataVersion* out);

void WriteTopicConfig(json::Writer& w, const TopicConfig& config);
Status ReadTopicConfig(const json::Value& v, std::string_view path, TopicConfig* out);

void WriteTopicConfigSerializeWrapper(json::Writer& w, const TopicConfigSerializeWrapper& wrapper);
Status ReadTopicConfigSerializeWrapper(const json::Value& v, std::string_view path,
                                       TopicConfigSerializeWrapper* out);

}  // namespace apogee::protocol
