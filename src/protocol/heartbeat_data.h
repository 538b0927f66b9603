// HeartbeatData, the body of HEART_BEAT (34), and CheckClientRequestBody, the body of
// CHECK_CLIENT_CONFIG (46) (RQ:rp/heartbeat/*.java, RQ:rp/body/CheckClientRequestBody.java;
// docs/protocol/remoting.md §7.6, §5.3.10).
//
// Clients disagree on the JSON (§7.6): Java, Go and ali-ons send enum names
// ("CONSUME_PASSIVELY"), the C++ client sends ordinals (1) and subVersion as a string, and
// leaves out empty arrays, expressionType, classFilterMode and unitMode. The decoder
// accepts all of them, as fastjson does for the Java broker: an enum is its name or its
// ordinal, a number may be a numeric string, a missing array is empty, a missing
// expressionType is TAG.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::protocol {

// RQ:rp/heartbeat/ConsumeType.java; enumerators in ordinal order.
enum class ConsumeType : int32_t { kConsumeActively = 0, kConsumePassively = 1, kConsumePop = 2 };
// RQ:rp/heartbeat/MessageModel.java.
enum class MessageModel : int32_t { kBroadcasting = 0, kClustering = 1 };
// RQ:cm/consumer/ConsumeFromWhere.java.
enum class ConsumeFromWhere : int32_t {
  kConsumeFromLastOffset = 0,
  kConsumeFromLastOffsetAndFromMinWhenBootFirst = 1,
  kConsumeFromMinOffset = 2,
  kConsumeFromMaxOffset = 3,
  kConsumeFromFirstOffset = 4,
  kConsumeFromTimestamp = 5,
};

// Java enum names ("CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET").
std::string_view ConsumeTypeName(ConsumeType type);
std::string_view MessageModelName(MessageModel model);
std::string_view ConsumeFromWhereName(ConsumeFromWhere where);

// ExpressionType names (RQ:cm/filter/ExpressionType.java).
inline constexpr std::string_view kExpressionTypeTag = "TAG";
inline constexpr std::string_view kExpressionTypeSql92 = "SQL92";
// Java's ExpressionType.isTagType: null, empty and "TAG" all mean TAG.
bool IsTagExpressionType(std::string_view type);

// SubscriptionData.SUB_ALL: the subscription that takes every tag.
inline constexpr std::string_view kSubAll = "*";

struct SubscriptionData {
  std::string topic;
  std::string sub_string;
  // Java keeps HashSets; sorted sets give a stable encoding and cheap lookups.
  std::set<std::string> tags_set;
  // Java String.hashCode of each tag; the pull path filters ConsumeQueue tag codes by it.
  std::set<int32_t> code_set;
  // Time (ms) the client built this subscription; a newer one replaces an older one.
  int64_t sub_version = 0;
  std::string expression_type = std::string(kExpressionTypeTag);
  bool class_filter_mode = false;

  bool operator==(const SubscriptionData&) const = default;
};

struct ConsumerData {
  std::string group_name;
  ConsumeType consume_type = ConsumeType::kConsumePassively;
  MessageModel message_model = MessageModel::kClustering;
  ConsumeFromWhere consume_from_where = ConsumeFromWhere::kConsumeFromLastOffset;
  std::vector<SubscriptionData> subscription_data_set;
  bool unit_mode = false;

  bool operator==(const ConsumerData&) const = default;
};

struct ProducerData {
  std::string group_name;

  bool operator==(const ProducerData&) const = default;
};

struct HeartbeatData {
  // "ip@instanceName[@unitName]"; Java spells the key "clientID".
  std::string client_id;
  std::vector<ProducerData> producer_data_set;
  std::vector<ConsumerData> consumer_data_set;
  // 5.x heartbeat v2 fields; 0 / false mean a classic heartbeat.
  int32_t heartbeat_fingerprint = 0;
  bool without_sub = false;

  bool operator==(const HeartbeatData&) const = default;
};

// Fails with Corruption naming the field ("HeartbeatData.consumerDataSet[0].consumeType:
// unknown ConsumeType \"X\"") on anything fastjson would reject.
Result<HeartbeatData> DecodeHeartbeatData(std::string_view json);
// Java's shape: enum names, every array present, compact.
std::string EncodeHeartbeatData(const HeartbeatData& data);

// One SubscriptionData as its own JSON document; bodies that embed subscriptions
// (ConsumerConnection's subscriptionTable) can splice it in with Writer::RawValue.
std::string EncodeSubscriptionData(const SubscriptionData& data);
Result<SubscriptionData> DecodeSubscriptionData(std::string_view json);

// CHECK_CLIENT_CONFIG body: {"clientId","group","subscriptionData":{...},"namespace"}.
struct CheckClientRequestBody {
  std::string client_id;
  std::string group;
  std::optional<SubscriptionData> subscription_data;
  std::optional<std::string> namespace_name;  // 5.x

  bool operator==(const CheckClientRequestBody&) const = default;
};

Result<CheckClientRequestBody> DecodeCheckClientRequestBody(std::string_view json);
std::string EncodeCheckClientRequestBody(const CheckClientRequestBody& body);

}  // namespace apogee::protocol
