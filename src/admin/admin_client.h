// MQAdminClient: the typed admin requests mqadmin's sub-commands are built from (Java's
// DefaultMQAdminExtImpl + the admin half of MQClientAPIImpl), over an AdminTransport.
// Every failure names the address asked and, for a refused request, the response code and
// the server's remark ("127.0.0.1:10911 answered TOPIC_NOT_EXIST (17): topic[T] not exist").
// Not thread-safe; one per mqadmin invocation.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "admin/admin_transport.h"
#include "base/status.h"
#include "message/message.h"
#include "protocol/admin_bodies.h"
#include "protocol/admin_headers.h"
#include "protocol/client_headers.h"
#include "protocol/consume_stats_list.h"
#include "protocol/consumer_headers.h"
#include "protocol/epoch_entry_cache.h"
#include "protocol/kv_table.h"
#include "protocol/remoting_command.h"
#include "protocol/route_data.h"
#include "protocol/topic_config.h"
#include "protocol/topic_list.h"

namespace apogee::admin {

// RQ:rp/subscription/SubscriptionGroupConfig.java with Java's defaults (the body of
// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP).
struct SubscriptionGroupSettings {
  std::string group_name;
  bool consume_enable = true;
  bool consume_from_min_enable = true;
  bool consume_broadcast_enable = true;
  bool consume_message_orderly = false;
  int32_t retry_queue_nums = 1;
  int32_t retry_max_times = 16;
  int64_t broker_id = 0;
  int64_t which_broker_when_consume_slowly = 1;
  bool notify_consumer_ids_changed_enable = true;
  std::map<std::string, std::string> attributes;
};
// Compact JSON, keys sorted as fastjson writes them.
std::string EncodeSubscriptionGroupSettings(const SubscriptionGroupSettings& settings);

// The error for a response whose code is not SUCCESS.
Status ResponseError(std::string_view addr, const protocol::RemotingCommand& response);

// Java's "yyyy-MM-dd HH:mm:ss,SSS" (UtilAll.timeMillisToHumanString2) in local time.
std::string FormatTimestamp(int64_t millis);
// Java's "yyyy-MM-dd HH:mm:ss" (UtilAll.formatDate with YYYY_MM_DD_HH_MM_SS) in local time.
std::string FormatDate(int64_t millis);

class MQAdminClient {
 public:
  explicit MQAdminClient(AdminTransport* transport, Millis timeout = std::chrono::seconds(5))
      : transport_(transport), timeout_(timeout) {}

  AdminTransport* transport() { return transport_; }

  // The configured NameServers, in order; InvalidArgument saying how to name them when there
  // are none. mqadmin runs without -n (as Java's does) so that commands that only talk to the
  // broker given by -b work; everything that needs a NameServer asks here first and fails
  // with that error instead of silently doing nothing.
  Result<std::vector<std::string>> NameServers() const;

  // ---- NameServer ----
  Result<protocol::ClusterInfo> GetBrokerClusterInfo();
  Result<protocol::TopicRouteData> GetTopicRoute(std::string_view topic);
  Result<protocol::TopicList> GetAllTopicList();
  Result<protocol::TopicList> GetTopicsByCluster(std::string_view cluster);
  // DELETE_TOPIC_IN_NAMESRV on every NameServer; the first error wins.
  Status DeleteTopicInNamesrv(std::string_view topic, std::optional<std::string> cluster);
  Status PutKvConfig(std::string_view ns, std::string_view key, std::string_view value);
  Status DeleteKvConfig(std::string_view ns, std::string_view key);
  Result<protocol::KVTable> GetKvList(std::string_view ns);
  // WIPE_WRITE_PERM_OF_BROKER / ADD_WRITE_PERM_OF_BROKER at one NameServer; the number of
  // topics whose permission changed.
  Result<int32_t> WipeWritePerm(std::string_view namesrv, std::string_view broker_name);
  Result<int32_t> AddWritePerm(std::string_view namesrv, std::string_view broker_name);

  // ---- broker admin ----
  Status CreateTopic(std::string_view broker_addr, const protocol::TopicConfig& config);
  Status DeleteTopicInBroker(std::string_view broker_addr, std::string_view topic);
  Result<protocol::TopicStatsTable> GetTopicStats(std::string_view broker_addr, std::string_view topic);
  Status CreateSubscriptionGroup(std::string_view broker_addr, const SubscriptionGroupSettings& settings);
  Status DeleteSubscriptionGroup(std::string_view broker_addr, std::string_view group, bool clean_offset);
  Result<protocol::KVTable> GetBrokerRuntimeInfo(std::string_view broker_addr);
  // GET_BROKER_EPOCH_CACHE (mqadmin getBrokerEpoch).
  Result<protocol::EpochEntryCache> GetBrokerEpochCache(std::string_view broker_addr);
  // The broker's configuration as key -> value (the properties text of GET_BROKER_CONFIG).
  Result<std::map<std::string, std::string>> GetBrokerConfig(std::string_view broker_addr);
  Status UpdateBrokerConfig(std::string_view broker_addr, const std::map<std::string, std::string>& kv);
  Result<protocol::ConsumeStats> GetConsumeStats(std::string_view broker_addr, std::string_view group,
                                                 std::optional<std::string> topic);
  // GET_BROKER_CONSUME_STATS (fetchConsumeStatsInBroker): every group's ConsumeStats at one
  // broker; `is_order` keeps only ordered topics. `timeout` is mqadmin brokerConsumeStats' -t.
  Result<protocol::ConsumeStatsList> FetchConsumeStatsInBroker(std::string_view broker_addr, bool is_order,
                                                               Millis timeout);
  Result<protocol::ConsumerConnection> GetConsumerConnection(std::string_view broker_addr,
                                                             std::string_view group);
  Result<protocol::ProducerConnection> GetProducerConnection(std::string_view broker_addr,
                                                             std::string_view group);
  Result<protocol::GroupList> QueryTopicConsumeByWho(std::string_view broker_addr, std::string_view topic);
  Result<protocol::ResetOffsetBody> ResetOffset(std::string_view broker_addr,
                                                const protocol::ResetOffsetRequestHeader& header);
  Status CloneGroupOffset(std::string_view broker_addr, const protocol::CloneGroupOffsetRequestHeader& header);
  Result<protocol::RedriveDlqMessageResponseHeader> RedriveDlq(
      std::string_view broker_addr, const protocol::RedriveDlqMessageRequestHeader& header);

  // ---- offsets and messages ----
  Result<int64_t> GetMaxOffset(std::string_view broker_addr, std::string_view topic, int32_t queue_id);
  Result<int64_t> GetMinOffset(std::string_view broker_addr, std::string_view topic, int32_t queue_id);
  Result<int64_t> SearchOffset(std::string_view broker_addr, std::string_view topic, int32_t queue_id,
                               int64_t timestamp);
  // NotFound when the group has no offset there.
  Result<int64_t> QueryConsumerOffset(std::string_view broker_addr, std::string_view group,
                                      std::string_view topic, int32_t queue_id);
  // VIEW_MESSAGE_BY_ID at the CommitLog offset.
  Result<message::MessageExt> ViewMessage(std::string_view broker_addr, int64_t phy_offset);
  // QUERY_MESSAGE by key (through the IndexFile); an empty vector when nothing matches.
  // `unique_key`: the key is a UNIQ_KEY (client msgId) rather than one of KEYS.
  Result<std::vector<message::MessageExt>> QueryMessageByKey(std::string_view broker_addr,
                                                             const protocol::QueryMessageRequestHeader& header,
                                                             bool unique_key = false);
  // One PULL_MESSAGE without suspending; an empty vector when the queue has nothing there.
  // `next_offset` receives the broker's nextBeginOffset.
  Status UpdateConsumerOffset(std::string_view broker_addr, std::string_view group, std::string_view topic,
                              int32_t queue_id, int64_t offset);
  Result<std::vector<message::MessageExt>> Pull(std::string_view broker_addr, std::string_view group,
                                                std::string_view topic, int32_t queue_id, int64_t offset,
                                                int32_t max_nums, int64_t* next_offset);

  // ---- helpers over the route and cluster tables ----
  // The master address of every broker set in `cluster` (sorted by broker name).
  Result<std::vector<std::string>> MasterAddrsOfCluster(std::string_view cluster);
  // Broker name -> master address for the topic's route (sets without a master skipped).
  Result<std::map<std::string, std::string>> MasterAddrsOfTopic(std::string_view topic);

 private:
  Result<protocol::RemotingCommand> CallBroker(std::string_view addr, protocol::RemotingCommand request);
  Result<protocol::RemotingCommand> CallNamesrv(protocol::RemotingCommand request);

  AdminTransport* transport_;
  Millis timeout_;
};

}  // namespace apogee::admin
