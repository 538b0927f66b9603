// The shared names of RocketMQ's MixAll (RQ:cm/MixAll.java) that more than one Apogee module
// uses: the master's broker id, the retry/DLQ topic prefixes and builders, the well-known
// group names, the reply topic suffix and the NameServer's order-topic KV namespace
// (docs/protocol/remoting.md §8.6). Their one home. System topic names: system_topics.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace apogee::protocol {

// MixAll.MASTER_ID: the broker id of a broker set's master (slaves are > 0).
inline constexpr int64_t kMasterId = 0;

// Per-group retry and dead-letter topics: "%RETRY%<group>", "%DLQ%<group>".
inline constexpr std::string_view kRetryGroupTopicPrefix = "%RETRY%";
inline constexpr std::string_view kDlqGroupTopicPrefix = "%DLQ%";
// MixAll.DLQ_NUMS_PER_GROUP.
inline constexpr int32_t kDlqNumsPerGroup = 1;

std::string RetryTopic(std::string_view group);
std::string DlqTopic(std::string_view group);
constexpr bool IsRetryTopic(std::string_view topic) {
  return topic.starts_with(kRetryGroupTopicPrefix);
}
constexpr bool IsDlqTopic(std::string_view topic) {
  return topic.starts_with(kDlqGroupTopicPrefix);
}

// Well-known groups.
inline constexpr std::string_view kDefaultProducerGroup = "DEFAULT_PRODUCER";
inline constexpr std::string_view kDefaultConsumerGroup = "DEFAULT_CONSUMER";
// Java's internal producer group; every Java heartbeat lists it.
inline constexpr std::string_view kClientInnerProducerGroup = "CLIENT_INNER_PRODUCER";
inline constexpr std::string_view kToolsConsumerGroup = "TOOLS_CONSUMER";
inline constexpr std::string_view kFilterServerConsumerGroup = "FILTERSRV_CONSUMER";
inline constexpr std::string_view kSelfTestConsumerGroup = "SELF_TEST_C_GROUP";
inline constexpr std::string_view kOnsHttpProxyGroup = "CID_ONS-HTTP-PROXY";
inline constexpr std::string_view kCidOnsapiPullGroup = "CID_ONSAPI_PULL";
inline constexpr std::string_view kCidOnsapiPermissionGroup = "CID_ONSAPI_PERMISSION";
inline constexpr std::string_view kCidOnsapiOwnerGroup = "CID_ONSAPI_OWNER";
inline constexpr std::string_view kCidSysRmqTransGroup = "CID_SYS_RMQ_TRANS";
// Groups whose names start with this are the broker's own (MixAll.CID_RMQ_SYS_PREFIX).
inline constexpr std::string_view kSysConsumerGroupPrefix = "CID_RMQ_SYS_";
// The group whose offsets track the transaction half/op queues.
inline constexpr std::string_view kTransSysConsumerGroup = "CID_RMQ_SYS_TRANS";

// Request-reply: the reply topic of a cluster is "<cluster>_REPLY_TOPIC".
inline constexpr std::string_view kReplyTopicPostfix = "REPLY_TOPIC";
std::string ReplyTopic(std::string_view cluster);

// The NameServer KV namespace of order topic configs (Java keeps it in NamesrvUtil).
inline constexpr std::string_view kOrderTopicConfigNamespace = "ORDER_TOPIC_CONFIG";

}  // namespace apogee::protocol
