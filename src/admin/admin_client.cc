#include "admin/admin_client.h"

#include <ctime>
#include <utility>

#include "base/config_table.h"
#include "message/message_record.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/mix_all.h"
#include "protocol/namesrv_headers.h"
#include "protocol/pull_sys_flag.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/system_topics.h"

namespace apogee::admin {
namespace rc = protocol::request_code;
namespace resp = protocol::response_code;
using protocol::RemotingCommand;

namespace {

// The broker reads this extField to treat QUERY_MESSAGE's key as a UNIQ_KEY.
constexpr char kUniqueKeyQueryFlag[] = "_UNIQUE_KEY_QUERY";
// PullSysFlag.FLAG_SUBSCRIPTION: the pull carries its own subscription expression.

template <typename H>
RemotingCommand Request(int32_t code, const H& header) {
  RemotingCommand request = RemotingCommand::MakeRequest(code);
  protocol::EncodeCustomHeader(header, &request);
  return request;
}

template <typename H>
Result<H> ResponseHeader(std::string_view addr, const RemotingCommand& response) {
  auto header = protocol::HeaderFromExtFields<H>(response.ext_fields);
  if (!header.ok()) return header.status().Prefixed(std::string(addr) + " sent a bad response header");
  return header;
}

void JsonBool(std::string* out, std::string_view key, bool v) {
  *out += "\"" + std::string(key) + "\":" + (v ? "true" : "false") + ",";
}
void JsonInt(std::string* out, std::string_view key, int64_t v) {
  *out += "\"" + std::string(key) + "\":" + std::to_string(v) + ",";
}
std::string JsonQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

std::string EncodeSubscriptionGroupSettings(const SubscriptionGroupSettings& s) {
  std::string out = "{";
  if (!s.attributes.empty()) {
    out += "\"attributes\":{";
    bool first = true;
    for (const auto& [k, v] : s.attributes) {
      if (!first) out += ",";
      first = false;
      out += JsonQuote(k) + ":" + JsonQuote(v);
    }
    out += "},";
  }
  JsonInt(&out, "brokerId", s.broker_id);
  JsonBool(&out, "consumeBroadcastEnable", s.consume_broadcast_enable);
  JsonBool(&out, "consumeEnable", s.consume_enable);
  JsonBool(&out, "consumeFromMinEnable", s.consume_from_min_enable);
  JsonBool(&out, "consumeMessageOrderly", s.consume_message_orderly);
  out += "\"groupName\":" + JsonQuote(s.group_name) + ",";
  JsonBool(&out, "notifyConsumerIdsChangedEnable", s.notify_consumer_ids_changed_enable);
  JsonInt(&out, "retryMaxTimes", s.retry_max_times);
  JsonInt(&out, "retryQueueNums", s.retry_queue_nums);
  JsonInt(&out, "whichBrokerWhenConsumeSlowly", s.which_broker_when_consume_slowly);
  out.back() = '}';
  return out;
}

Status ResponseError(std::string_view addr, const RemotingCommand& response) {
  std::string msg = std::string(addr) + " answered " +
                    std::string(resp::Name(response.code)) + " (" + std::to_string(response.code) + ")";
  if (response.remark && !response.remark->empty()) msg += ": " + *response.remark;
  switch (response.code) {
    case resp::kTopicNotExist:
    case resp::kQueryNotFound:
    case resp::kSubscriptionGroupNotExist:
    case resp::kConsumerNotOnline:
      return Status::NotFound(std::move(msg));
    case resp::kNoPermission:
      return Status::PermissionDenied(std::move(msg));
    case resp::kRequestCodeNotSupported:
      return Status::NotSupported(std::move(msg));
    case resp::kInvalidParameter:
      return Status::InvalidArgument(std::move(msg));
    default:
      return Status::Aborted(std::move(msg));
  }
}

std::string FormatTimestamp(int64_t millis) {
  std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  localtime_r(&seconds, &tm);
  char buf[64];
  size_t n = std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof(buf) - n, ",%03d", static_cast<int>(millis % 1000));
  return buf;
}

std::string FormatDate(int64_t millis) {
  std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  localtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

Result<RemotingCommand> MQAdminClient::CallBroker(std::string_view addr, RemotingCommand request) {
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand response, transport_->Invoke(addr, std::move(request), timeout_));
  if (response.code != resp::kSuccess) return ResponseError(addr, response);
  return response;
}

Result<std::vector<std::string>> MQAdminClient::NameServers() const {
  std::vector<std::string> list = transport_->NameServers();
  if (list.empty()) {
    return Status::InvalidArgument(
        "no NameServer address: pass -n host:port[;host:port] or set NAMESRV_ADDR");
  }
  return list;
}

Result<RemotingCommand> MQAdminClient::CallNamesrv(RemotingCommand request) {
  APOGEE_RETURN_IF_ERROR(NameServers().status());
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand response, transport_->InvokeNamesrv(std::move(request), timeout_));
  if (response.code != resp::kSuccess) return ResponseError("NameServer", response);
  return response;
}

// ---- NameServer ----

Result<protocol::ClusterInfo> MQAdminClient::GetBrokerClusterInfo() {
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, CallNamesrv(RemotingCommand::MakeRequest(rc::kGetBrokerClusterInfo)));
  return protocol::DecodeClusterInfo(r.body);
}

Result<protocol::TopicRouteData> MQAdminClient::GetTopicRoute(std::string_view topic) {
  protocol::GetRouteInfoRequestHeader header{std::string(topic), true};
  auto r = CallNamesrv(Request(rc::kGetRouteinfoByTopic, header));
  if (!r.ok()) {
    if (r.status().IsNotFound()) {
      return Status::NotFound("No route info of this topic: " + std::string(topic));
    }
    return r.status();
  }
  return protocol::DecodeTopicRouteData(r->body);
}

Result<protocol::TopicList> MQAdminClient::GetAllTopicList() {
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallNamesrv(RemotingCommand::MakeRequest(rc::kGetAllTopicListFromNameserver)));
  return protocol::DecodeTopicList(r.body);
}

Result<protocol::TopicList> MQAdminClient::GetTopicsByCluster(std::string_view cluster) {
  protocol::GetTopicsByClusterRequestHeader header{std::string(cluster)};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, CallNamesrv(Request(rc::kGetTopicsByCluster, header)));
  return protocol::DecodeTopicList(r.body);
}

Status MQAdminClient::DeleteTopicInNamesrv(std::string_view topic, std::optional<std::string> cluster) {
  protocol::DeleteTopicFromNamesrvRequestHeader header{std::string(topic), std::move(cluster)};
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> name_servers, NameServers());
  for (const std::string& ns : name_servers) {
    APOGEE_RETURN_IF_ERROR(CallBroker(ns, Request(rc::kDeleteTopicInNamesrv, header)).status());
  }
  return Status::OK();
}

Status MQAdminClient::PutKvConfig(std::string_view ns, std::string_view key, std::string_view value) {
  protocol::PutKVConfigRequestHeader header{std::string(ns), std::string(key), std::string(value)};
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> name_servers, NameServers());
  for (const std::string& addr : name_servers) {
    APOGEE_RETURN_IF_ERROR(CallBroker(addr, Request(rc::kPutKvConfig, header)).status());
  }
  return Status::OK();
}

Status MQAdminClient::DeleteKvConfig(std::string_view ns, std::string_view key) {
  protocol::DeleteKVConfigRequestHeader header{std::string(ns), std::string(key)};
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> name_servers, NameServers());
  for (const std::string& addr : name_servers) {
    APOGEE_RETURN_IF_ERROR(CallBroker(addr, Request(rc::kDeleteKvConfig, header)).status());
  }
  return Status::OK();
}

Result<protocol::KVTable> MQAdminClient::GetKvList(std::string_view ns) {
  protocol::GetKVListByNamespaceRequestHeader header{std::string(ns)};
  auto r = CallNamesrv(Request(rc::kGetKvlistByNamespace, header));
  if (!r.ok()) {
    if (r.status().IsNotFound()) return protocol::KVTable{};
    return r.status();
  }
  return protocol::DecodeKVTable(r->body);
}

Result<int32_t> MQAdminClient::WipeWritePerm(std::string_view namesrv, std::string_view broker_name) {
  protocol::WipeWritePermOfBrokerRequestHeader header{std::string(broker_name)};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, CallBroker(namesrv, Request(rc::kWipeWritePermOfBroker, header)));
  APOGEE_ASSIGN_OR_RETURN(auto h, ResponseHeader<protocol::WipeWritePermOfBrokerResponseHeader>(namesrv, r));
  return h.wipe_topic_count;
}

Result<int32_t> MQAdminClient::AddWritePerm(std::string_view namesrv, std::string_view broker_name) {
  protocol::AddWritePermOfBrokerRequestHeader header{std::string(broker_name)};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, CallBroker(namesrv, Request(rc::kAddWritePermOfBroker, header)));
  APOGEE_ASSIGN_OR_RETURN(auto h, ResponseHeader<protocol::AddWritePermOfBrokerResponseHeader>(namesrv, r));
  return h.add_topic_count;
}

// ---- broker admin ----

Status MQAdminClient::CreateTopic(std::string_view broker_addr, const protocol::TopicConfig& config) {
  protocol::CreateTopicRequestHeader header;
  header.topic = config.topic_name;
  header.default_topic = protocol::kAutoCreateTopicKeyTopic;
  header.read_queue_nums = config.read_queue_nums;
  header.write_queue_nums = config.write_queue_nums;
  header.perm = config.perm;
  header.topic_filter_type = config.topic_filter_type;
  header.topic_sys_flag = config.topic_sys_flag;
  header.order = config.order;
  // Java's AttributeParser.parseToString: "+k=v,-k" (a key with an empty value alone), the
  // form the broker parses; not JSON.
  if (!config.attributes.empty()) {
    std::string attrs;
    for (const auto& [k, v] : config.attributes) {
      if (!attrs.empty()) attrs += ',';
      attrs += k;
      if (!v.empty()) attrs += '=' + v;
    }
    header.attributes = std::move(attrs);
  }
  return CallBroker(broker_addr, Request(rc::kUpdateAndCreateTopic, header)).status();
}

Status MQAdminClient::DeleteTopicInBroker(std::string_view broker_addr, std::string_view topic) {
  protocol::DeleteTopicRequestHeader header{std::string(topic)};
  return CallBroker(broker_addr, Request(rc::kDeleteTopicInBroker, header)).status();
}

Result<protocol::TopicStatsTable> MQAdminClient::GetTopicStats(std::string_view broker_addr,
                                                               std::string_view topic) {
  protocol::GetTopicStatsInfoRequestHeader header{std::string(topic)};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, CallBroker(broker_addr, Request(rc::kGetTopicStatsInfo, header)));
  return protocol::DecodeTopicStatsTable(r.body);
}

Status MQAdminClient::CreateSubscriptionGroup(std::string_view broker_addr,
                                              const SubscriptionGroupSettings& settings) {
  RemotingCommand request = RemotingCommand::MakeRequest(rc::kUpdateAndCreateSubscriptiongroup);
  request.body = EncodeSubscriptionGroupSettings(settings);
  return CallBroker(broker_addr, std::move(request)).status();
}

Status MQAdminClient::DeleteSubscriptionGroup(std::string_view broker_addr, std::string_view group,
                                              bool clean_offset) {
  protocol::DeleteSubscriptionGroupRequestHeader header{std::string(group), clean_offset, clean_offset};
  return CallBroker(broker_addr, Request(rc::kDeleteSubscriptiongroup, header)).status();
}

Result<protocol::KVTable> MQAdminClient::GetBrokerRuntimeInfo(std::string_view broker_addr) {
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, RemotingCommand::MakeRequest(rc::kGetBrokerRuntimeInfo)));
  return protocol::DecodeKVTable(r.body);
}

Result<protocol::EpochEntryCache> MQAdminClient::GetBrokerEpochCache(std::string_view broker_addr) {
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, RemotingCommand::MakeRequest(rc::kGetBrokerEpochCache)));
  auto cache = protocol::DecodeEpochEntryCache(r.body);
  if (!cache.ok()) return cache.status().Prefixed(std::string(broker_addr) + " sent a bad EpochEntryCache");
  return cache;
}

Result<std::map<std::string, std::string>> MQAdminClient::GetBrokerConfig(std::string_view broker_addr) {
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, RemotingCommand::MakeRequest(rc::kGetBrokerConfig)));
  auto kv = ParsePropertiesText(r.body);
  if (!kv.ok()) return kv.status().Prefixed(std::string(broker_addr) + " sent a bad config body");
  return kv;
}

Status MQAdminClient::UpdateBrokerConfig(std::string_view broker_addr,
                                         const std::map<std::string, std::string>& kv) {
  RemotingCommand request = RemotingCommand::MakeRequest(rc::kUpdateBrokerConfig);
  for (const auto& [k, v] : kv) request.body += k + "=" + v + "\n";
  return CallBroker(broker_addr, std::move(request)).status();
}

Result<protocol::ConsumeStats> MQAdminClient::GetConsumeStats(std::string_view broker_addr,
                                                              std::string_view group,
                                                              std::optional<std::string> topic) {
  protocol::GetConsumeStatsRequestHeader header{std::string(group), std::move(topic), std::nullopt};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, CallBroker(broker_addr, Request(rc::kGetConsumeStats, header)));
  return protocol::DecodeConsumeStats(r.body);
}

Result<protocol::ConsumeStatsList> MQAdminClient::FetchConsumeStatsInBroker(std::string_view broker_addr,
                                                                           bool is_order, Millis timeout) {
  protocol::GetConsumeStatsInBrokerHeader header{is_order};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand response,
                          transport_->Invoke(broker_addr, Request(rc::kGetBrokerConsumeStats, header), timeout));
  if (response.code != resp::kSuccess) return ResponseError(broker_addr, response);
  return protocol::DecodeConsumeStatsList(response.body);
}

Result<protocol::ConsumerConnection> MQAdminClient::GetConsumerConnection(std::string_view broker_addr,
                                                                          std::string_view group) {
  protocol::GetConsumerConnectionListRequestHeader header{std::string(group)};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, Request(rc::kGetConsumerConnectionList, header)));
  return protocol::DecodeConsumerConnection(r.body);
}

Result<protocol::ProducerConnection> MQAdminClient::GetProducerConnection(std::string_view broker_addr,
                                                                          std::string_view group) {
  protocol::GetProducerConnectionListRequestHeader header{std::string(group)};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, Request(rc::kGetProducerConnectionList, header)));
  return protocol::DecodeProducerConnection(r.body);
}

Result<protocol::GroupList> MQAdminClient::QueryTopicConsumeByWho(std::string_view broker_addr,
                                                                  std::string_view topic) {
  protocol::QueryTopicConsumeByWhoRequestHeader header{std::string(topic)};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, Request(rc::kQueryTopicConsumeByWho, header)));
  return protocol::DecodeGroupList(r.body);
}

Result<protocol::ResetOffsetBody> MQAdminClient::ResetOffset(std::string_view broker_addr,
                                                             const protocol::ResetOffsetRequestHeader& header) {
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, Request(rc::kInvokeBrokerToResetOffset, header)));
  if (r.body.empty()) return protocol::ResetOffsetBody{};
  return protocol::DecodeResetOffsetBody(r.body);
}

Status MQAdminClient::CloneGroupOffset(std::string_view broker_addr,
                                       const protocol::CloneGroupOffsetRequestHeader& header) {
  return CallBroker(broker_addr, Request(rc::kCloneGroupOffset, header)).status();
}

Result<protocol::RedriveDlqMessageResponseHeader> MQAdminClient::RedriveDlq(
    std::string_view broker_addr, const protocol::RedriveDlqMessageRequestHeader& header) {
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, Request(rc::kApogeeRedriveDlqMessage, header)));
  return ResponseHeader<protocol::RedriveDlqMessageResponseHeader>(broker_addr, r);
}

// ---- offsets and messages ----

Result<int64_t> MQAdminClient::GetMaxOffset(std::string_view broker_addr, std::string_view topic,
                                            int32_t queue_id) {
  protocol::GetMaxOffsetRequestHeader header{std::string(topic), queue_id, true};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, CallBroker(broker_addr, Request(rc::kGetMaxOffset, header)));
  APOGEE_ASSIGN_OR_RETURN(auto h, ResponseHeader<protocol::GetMaxOffsetResponseHeader>(broker_addr, r));
  return h.offset;
}

Result<int64_t> MQAdminClient::GetMinOffset(std::string_view broker_addr, std::string_view topic,
                                            int32_t queue_id) {
  protocol::GetMinOffsetRequestHeader header{std::string(topic), queue_id};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, CallBroker(broker_addr, Request(rc::kGetMinOffset, header)));
  APOGEE_ASSIGN_OR_RETURN(auto h, ResponseHeader<protocol::GetMinOffsetResponseHeader>(broker_addr, r));
  return h.offset;
}

Result<int64_t> MQAdminClient::SearchOffset(std::string_view broker_addr, std::string_view topic,
                                            int32_t queue_id, int64_t timestamp) {
  protocol::SearchOffsetRequestHeader header{std::string(topic), queue_id, timestamp, std::nullopt};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, Request(rc::kSearchOffsetByTimestamp, header)));
  APOGEE_ASSIGN_OR_RETURN(auto h, ResponseHeader<protocol::SearchOffsetResponseHeader>(broker_addr, r));
  return h.offset;
}

Result<int64_t> MQAdminClient::QueryConsumerOffset(std::string_view broker_addr, std::string_view group,
                                                   std::string_view topic, int32_t queue_id) {
  protocol::QueryConsumerOffsetRequestHeader header{std::string(group), std::string(topic), queue_id,
                                                    std::nullopt};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          CallBroker(broker_addr, Request(rc::kQueryConsumerOffset, header)));
  APOGEE_ASSIGN_OR_RETURN(auto h, ResponseHeader<protocol::QueryConsumerOffsetResponseHeader>(broker_addr, r));
  return h.offset;
}

Result<message::MessageExt> MQAdminClient::ViewMessage(std::string_view broker_addr, int64_t phy_offset) {
  protocol::ViewMessageRequestHeader header{std::nullopt, phy_offset};
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, CallBroker(broker_addr, Request(rc::kViewMessageById, header)));
  APOGEE_ASSIGN_OR_RETURN(std::vector<message::MessageExt> msgs, message::DecodeMessages(r.body));
  if (msgs.empty()) {
    return Status::NotFound(std::string(broker_addr) + " has no message at offset " + std::to_string(phy_offset));
  }
  return std::move(msgs.front());
}

Result<std::vector<message::MessageExt>> MQAdminClient::QueryMessageByKey(
    std::string_view broker_addr, const protocol::QueryMessageRequestHeader& header, bool unique_key) {
  RemotingCommand request = Request(rc::kQueryMessage, header);
  request.ext_fields.Set(kUniqueKeyQueryFlag, unique_key ? "true" : "false");
  auto r = CallBroker(broker_addr, std::move(request));
  if (!r.ok()) {
    if (r.status().IsNotFound()) return std::vector<message::MessageExt>{};
    return r.status();
  }
  return message::DecodeMessages(r->body);
}

Status MQAdminClient::UpdateConsumerOffset(std::string_view broker_addr, std::string_view group,
                                           std::string_view topic, int32_t queue_id, int64_t offset) {
  protocol::UpdateConsumerOffsetRequestHeader header{std::string(group), std::string(topic), queue_id, offset};
  return CallBroker(broker_addr, Request(rc::kUpdateConsumerOffset, header)).status();
}

Result<std::vector<message::MessageExt>> MQAdminClient::Pull(std::string_view broker_addr,
                                                             std::string_view group, std::string_view topic,
                                                             int32_t queue_id, int64_t offset,
                                                             int32_t max_nums, int64_t* next_offset) {
  protocol::PullMessageRequestHeader header;
  header.consumer_group = std::string(group);
  header.topic = std::string(topic);
  header.queue_id = queue_id;
  header.queue_offset = offset;
  header.max_msg_nums = max_nums;
  // Only the subscription flag: the broker filters by this request's "*" instead of a
  // registered consumer's subscription; no commit, no suspend.
  header.sys_flag = protocol::kPullFlagSubscription;
  header.subscription = "*";
  APOGEE_ASSIGN_OR_RETURN(RemotingCommand r,
                          transport_->Invoke(broker_addr, Request(rc::kPullMessage, header), timeout_));
  if (r.code != resp::kSuccess && r.code != resp::kPullNotFound && r.code != resp::kPullRetryImmediately &&
      r.code != resp::kPullOffsetMoved) {
    return ResponseError(broker_addr, r);
  }
  APOGEE_ASSIGN_OR_RETURN(auto h, ResponseHeader<protocol::PullMessageResponseHeader>(broker_addr, r));
  if (next_offset != nullptr) *next_offset = h.next_begin_offset;
  if (r.code != resp::kSuccess) return std::vector<message::MessageExt>{};
  return message::DecodeMessages(r.body);
}

// ---- helpers ----

Result<std::vector<std::string>> MQAdminClient::MasterAddrsOfCluster(std::string_view cluster) {
  APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, GetBrokerClusterInfo());
  auto it = info.cluster_addr_table.find(std::string(cluster));
  if (it == info.cluster_addr_table.end()) {
    return Status::NotFound("cluster " + std::string(cluster) + " is not known to the NameServer");
  }
  std::vector<std::string> addrs;
  for (const std::string& name : it->second) {
    auto b = info.broker_addr_table.find(name);
    if (b == info.broker_addr_table.end()) continue;
    auto master = b->second.broker_addrs.find(protocol::kMasterId);
    if (master != b->second.broker_addrs.end()) addrs.push_back(master->second);
  }
  return addrs;
}

Result<std::map<std::string, std::string>> MQAdminClient::MasterAddrsOfTopic(std::string_view topic) {
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicRouteData route, GetTopicRoute(topic));
  std::map<std::string, std::string> out;
  for (const protocol::BrokerData& b : route.broker_datas) {
    auto master = b.broker_addrs.find(protocol::kMasterId);
    if (master != b.broker_addrs.end()) out[b.broker_name] = master->second;
  }
  return out;
}

}  // namespace apogee::admin
