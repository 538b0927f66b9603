// Helpers several sub-command families share (Java's CommandUtil and a few toString()s).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "admin/admin_client.h"
#include "admin/option_parser.h"
#include "base/status.h"
#include "protocol/topic_config.h"

namespace apogee::admin {

// The brokers a "-b addr | -c cluster" command acts on: the one address, or every master
// of the cluster. InvalidArgument naming both flags when neither is given.
Result<std::vector<std::string>> TargetBrokers(const ParsedOptions& options, MQAdminClient* admin,
                                               const std::string& broker_flag = "brokerAddr",
                                               const std::string& cluster_flag = "clusterName");

// Java's TopicConfig.toString().
std::string TopicConfigToString(const protocol::TopicConfig& config);

// AttributeParser.parseToMap: "+a=b,+c=d,-e" -> {"+a":"b","+c":"d","-e":""}.
// InvalidArgument for a piece without its + or - sign, or a "+k" without a value.
Result<std::map<std::string, std::string>> ParseAttributes(std::string_view text);

// Pretty-prints compact JSON (two-space indent), as Java's toJson(true) does.
std::string PrettyJson(std::string_view json);

// Milliseconds from "now", a decimal millisecond count, or Java's
// "yyyy-MM-dd#HH:mm:ss:SSS" (local time), as resetOffsetByTime's -s takes them.
Result<int64_t> ParseTimestampArg(std::string_view text, int64_t now_ms);

// Master addresses (by broker name) that may hold a consumer group's state: those serving
// its retry topic %RETRY%<group>, or every master the NameServer knows when the group has
// none (a group that only committed offsets).
Result<std::map<std::string, std::string>> MastersForGroup(MQAdminClient* admin, const std::string& group);

// The broker name whose master (or any member) has `addr`, from the cluster table.
Result<std::string> BrokerNameOfAddr(MQAdminClient* admin, std::string_view addr);

}  // namespace apogee::admin
