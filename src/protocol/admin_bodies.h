// JSON bodies of the admin requests a broker answers (docs/protocol/remoting.md §5.5, §7.8,
// §7.9; Java classes RQ:rp/admin/*.java and RQ:rp/body/*.java): TopicStatsTable,
// ConsumeStats, ConsumerConnection, ProducerConnection, GroupList, ResetOffsetBody and
// ResetOffsetBodyForC.
//
// Encoders write fastjson's output: compact, bean properties sorted by name, and maps
// keyed by MessageQueue in fastjson's object-key form
//   {"offsetTable":{{"brokerName":"b","queueId":0,"topic":"t"}:{...}}}
// which Java and Go parse (§7.9 policy 4). Decoders accept that form, the same key as a
// JSON string holding the object, and everything else json_util.h accepts.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "protocol/heartbeat_data.h"
#include "protocol/lock_batch_body.h"  // MessageQueue
#include "protocol/remoting_command.h"

namespace apogee::protocol {

// RQ:rp/admin/TopicOffset.java.
struct TopicOffset {
  int64_t min_offset = 0;
  int64_t max_offset = 0;
  int64_t last_update_timestamp = 0;  // store time of the newest message, 0 when none

  bool operator==(const TopicOffset&) const = default;
};

// GET_TOPIC_STATS_INFO (202) body.
struct TopicStatsTable {
  std::map<MessageQueue, TopicOffset> offset_table;
  double topic_put_tps = 0;  // 5.x; 4.9.7 peers ignore it

  bool operator==(const TopicStatsTable&) const = default;
};
std::string EncodeTopicStatsTable(const TopicStatsTable& table);
Result<TopicStatsTable> DecodeTopicStatsTable(std::string_view json);

// RQ:rp/admin/OffsetWrapper.java.
struct OffsetWrapper {
  int64_t broker_offset = 0;
  int64_t consumer_offset = 0;
  int64_t pull_offset = 0;     // 5.x
  int64_t last_timestamp = 0;  // store time of the last consumed message, 0 when none

  bool operator==(const OffsetWrapper&) const = default;
};

// GET_CONSUME_STATS (208) body.
struct ConsumeStats {
  std::map<MessageQueue, OffsetWrapper> offset_table;
  double consume_tps = 0;

  bool operator==(const ConsumeStats&) const = default;
};
std::string EncodeConsumeStats(const ConsumeStats& stats);
Result<ConsumeStats> DecodeConsumeStats(std::string_view json);

// RQ:rp/body/Connection.java: one client connection.
struct Connection {
  std::string client_id;
  std::string client_addr;
  LanguageCode language = LanguageCode::kJava;
  int32_t version = 0;

  bool operator==(const Connection&) const = default;
};

// GET_CONSUMER_CONNECTION_LIST (203) body.
struct ConsumerConnection {
  std::vector<Connection> connection_set;
  std::map<std::string, SubscriptionData> subscription_table;  // by topic
  ConsumeType consume_type = ConsumeType::kConsumePassively;
  MessageModel message_model = MessageModel::kClustering;
  ConsumeFromWhere consume_from_where = ConsumeFromWhere::kConsumeFromLastOffset;

  bool operator==(const ConsumerConnection&) const = default;
};
std::string EncodeConsumerConnection(const ConsumerConnection& connection);
Result<ConsumerConnection> DecodeConsumerConnection(std::string_view json);

// GET_PRODUCER_CONNECTION_LIST (204) body.
struct ProducerConnection {
  std::vector<Connection> connection_set;

  bool operator==(const ProducerConnection&) const = default;
};
std::string EncodeProducerConnection(const ProducerConnection& connection);
Result<ProducerConnection> DecodeProducerConnection(std::string_view json);

// QUERY_TOPIC_CONSUME_BY_WHO (300) body. Java holds a HashSet; sorted here.
struct GroupList {
  std::set<std::string> group_list;

  bool operator==(const GroupList&) const = default;
};
std::string EncodeGroupList(const GroupList& list);
Result<GroupList> DecodeGroupList(std::string_view json);

// INVOKE_BROKER_TO_RESET_OFFSET (222) answer and RESET_CONSUMER_CLIENT_OFFSET (220) body
// for Java and Go clients.
struct ResetOffsetBody {
  std::map<MessageQueue, int64_t> offset_table;

  bool operator==(const ResetOffsetBody&) const = default;
};
std::string EncodeResetOffsetBody(const ResetOffsetBody& body);
Result<ResetOffsetBody> DecodeResetOffsetBody(std::string_view json);

// The same table as the C++ client reads it (RQ:rp/body/ResetOffsetBodyForC.java):
// {"offsetTable":[{"brokerName","offset","queueId","topic"},...]}, no object keys.
std::string EncodeResetOffsetBodyForC(const ResetOffsetBody& body);
Result<ResetOffsetBody> DecodeResetOffsetBodyForC(std::string_view json);

}  // namespace apogee::protocol
