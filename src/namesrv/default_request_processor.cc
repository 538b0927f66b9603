#include "namesrv/default_request_processor.h"

#include <fmt/format.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/config_table.h"
#include "base/crc32.h"
#include "base/logging.h"
#include "protocol/custom_header.h"
#include "protocol/kv_table.h"
#include "protocol/mix_all.h"
#include "protocol/namesrv_headers.h"
#include "protocol/register_broker_body.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/route_data.h"
#include "protocol/topic_config.h"
#include "protocol/topic_list.h"

namespace apogee::namesrv {
namespace {

namespace rc = protocol::request_code;
namespace resp = protocol::response_code;
using Cmd = protocol::RemotingCommand;

constexpr std::string_view kTopicNotExistRemark =
    "No topic route info in name server for the topic: ";
constexpr std::string_view kFaqSuffix =
    "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details.";

Cmd Reply(const Cmd& req, int32_t code, std::optional<std::string> remark = std::nullopt) {
  return Cmd::MakeResponse(req, code, std::move(remark));
}

// Required fields are checked even when a request has no extFields at all (Java skips the
// check then and fails later with a NullPointerException; either way SYSTEM_ERROR).
template <typename H>
Result<H> ReadHeader(const Cmd& req) {
  return protocol::HeaderFromExtFields<H>(req.ext_fields);
}

Cmd HeaderError(const Cmd& req, const Status& s) {
  return Reply(req, resp::kSystemError, s.message());
}

// A TopicList body of `topics` (no broker address).
std::string EncodeTopicNames(const std::vector<std::string>& topics) {
  return protocol::EncodeTopicList(
      protocol::TopicList{std::set<std::string>(topics.begin(), topics.end()), std::nullopt});
}

std::shared_ptr<spdlog::logger> Log() {
  static auto log = GetLogger("namesrv");
  return log;
}

}  // namespace

DefaultRequestProcessor::DefaultRequestProcessor(NamesrvConfig* config, KvConfigManager* kv,
                                                 RouteInfoManager* routes, Clock* clock)
    : config_(config),
      kv_(kv),
      routes_(routes),
      clock_(clock),
      start_millis_(clock->SteadyMillis()) {
  auto plain = [this](Cmd (DefaultRequestProcessor::*fn)(const Cmd&)) -> Handler {
    return [this, fn](const Cmd& req, ChannelId) { return (this->*fn)(req); };
  };
  handlers_[rc::kPutKvConfig] = plain(&DefaultRequestProcessor::PutKvConfig);
  handlers_[rc::kGetKvConfig] = plain(&DefaultRequestProcessor::GetKvConfig);
  handlers_[rc::kDeleteKvConfig] = plain(&DefaultRequestProcessor::DeleteKvConfig);
  handlers_[rc::kGetKvlistByNamespace] = plain(&DefaultRequestProcessor::GetKvListByNamespace);
  handlers_[rc::kRegisterBroker] = [this](const Cmd& req, ChannelId ch) {
    return RegisterBroker(req, ch);
  };
  handlers_[rc::kUnregisterBroker] = plain(&DefaultRequestProcessor::UnregisterBroker);
  handlers_[rc::kBrokerHeartbeat] = plain(&DefaultRequestProcessor::BrokerHeartbeat);
  handlers_[rc::kGetRouteinfoByTopic] = plain(&DefaultRequestProcessor::GetRouteInfoByTopic);
  handlers_[rc::kGetBrokerClusterInfo] = plain(&DefaultRequestProcessor::GetBrokerClusterInfo);
  handlers_[rc::kWipeWritePermOfBroker] = plain(&DefaultRequestProcessor::WipeWritePermOfBroker);
  handlers_[rc::kAddWritePermOfBroker] = plain(&DefaultRequestProcessor::AddWritePermOfBroker);
  handlers_[rc::kGetAllTopicListFromNameserver] =
      plain(&DefaultRequestProcessor::GetAllTopicListFromNameserver);
  handlers_[rc::kDeleteTopicInNamesrv] = plain(&DefaultRequestProcessor::DeleteTopicInNamesrv);
  handlers_[rc::kRegisterTopicInNamesrv] =
      plain(&DefaultRequestProcessor::RegisterTopicInNamesrv);
  handlers_[rc::kGetTopicsByCluster] = plain(&DefaultRequestProcessor::GetTopicsByCluster);
  handlers_[rc::kGetSystemTopicListFromNs] =
      plain(&DefaultRequestProcessor::GetSystemTopicListFromNs);
  for (int32_t code : {rc::kGetUnitTopicList, rc::kGetHasUnitSubTopicList,
                       rc::kGetHasUnitSubUnunitTopicList}) {
    handlers_[code] = [this, code](const Cmd& req, ChannelId) {
      return GetUnitTopicList(req, code);
    };
  }
  handlers_[rc::kUpdateNamesrvConfig] = plain(&DefaultRequestProcessor::UpdateNamesrvConfig);
  handlers_[rc::kGetNamesrvConfig] = plain(&DefaultRequestProcessor::GetNamesrvConfig);
  handlers_[rc::kQueryDataVersion] = plain(&DefaultRequestProcessor::QueryDataVersion);
}

std::vector<int32_t> DefaultRequestProcessor::HandledCodes() const {
  std::vector<int32_t> codes;
  for (const auto& [code, handler] : handlers_) codes.push_back(code);
  return codes;
}

Cmd DefaultRequestProcessor::Process(const Cmd& request, ChannelId channel) {
  auto it = handlers_.find(request.code);
  if (it == handlers_.end()) {
    Log()->warn("request code {} not supported", request.code);
    return Reply(request, resp::kRequestCodeNotSupported,
                 fmt::format(" request type {} not supported", request.code));
  }
  return it->second(request, channel);
}

Cmd DefaultRequestProcessor::PutKvConfig(const Cmd& req) {
  auto h = ReadHeader<protocol::PutKVConfigRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  Status put = kv_->Put(h->namespace_name, h->key, h->value);
  if (put.Is(StatusCode::kInvalidArgument)) {
    return Reply(req, resp::kInvalidParameter, std::string(put.message()));
  }
  if (!put.ok()) return Reply(req, resp::kSystemError, "KV config not persisted: " + put.message());
  return Reply(req, resp::kSuccess);
}

Cmd DefaultRequestProcessor::GetKvConfig(const Cmd& req) {
  auto h = ReadHeader<protocol::GetKVConfigRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  auto value = kv_->Get(h->namespace_name, h->key);
  if (!value) {
    return Reply(req, resp::kQueryNotFound,
                 fmt::format("No config item, Namespace: {} Key: {}", h->namespace_name, h->key));
  }
  Cmd out = Reply(req, resp::kSuccess);
  protocol::EncodeCustomHeader(protocol::GetKVConfigResponseHeader{std::move(value)}, &out);
  return out;
}

Cmd DefaultRequestProcessor::DeleteKvConfig(const Cmd& req) {
  auto h = ReadHeader<protocol::DeleteKVConfigRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  Status del = kv_->Delete(h->namespace_name, h->key);
  if (!del.ok()) return Reply(req, resp::kSystemError, "KV config not persisted: " + del.message());
  return Reply(req, resp::kSuccess);
}

Cmd DefaultRequestProcessor::GetKvListByNamespace(const Cmd& req) {
  auto h = ReadHeader<protocol::GetKVListByNamespaceRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  auto table = kv_->GetNamespace(h->namespace_name);
  if (!table) {
    return Reply(req, resp::kQueryNotFound,
                 fmt::format("No config item, Namespace: {}", h->namespace_name));
  }
  Cmd out = Reply(req, resp::kSuccess);
  out.body = protocol::EncodeKVTable(protocol::KVTable{std::move(*table)});
  return out;
}

Cmd DefaultRequestProcessor::RegisterBroker(const Cmd& req, ChannelId channel) {
  auto h = ReadHeader<protocol::RegisterBrokerRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  BrokerRegistration reg;
  reg.broker_name = h->broker_name;
  reg.broker_addr = h->broker_addr;
  reg.cluster_name = h->cluster_name;
  reg.ha_server_addr = h->ha_server_addr;
  reg.broker_id = h->broker_id;
  if (h->heartbeat_timeout_millis && *h->heartbeat_timeout_millis > 0) {
    reg.heartbeat_timeout_millis = h->heartbeat_timeout_millis;
  }
  reg.channel = channel;

  // bodyCrc32 is CRC32(body) & 0x7FFFFFFF; 0 means the broker did not compute one.
  int64_t crc = h->body_crc32;
  if (crc != 0) {
    uint32_t actual = Crc32Masked(req.body);
    if (static_cast<int64_t>(actual) != crc) {
      Log()->warn("register broker {} {}: crc32 not match (header {}, body {})", reg.broker_name,
                  reg.broker_addr, crc, actual);
      return Reply(req, resp::kSystemError,
                   fmt::format("crc32 not match: header bodyCrc32 {}, body crc32 {}", crc, actual));
    }
  }

  Result<protocol::RegisterBrokerBody> body =
      protocol::DecodeRegisterBrokerRequestBody(req.body, h->compressed, req.version);
  if (!body.ok()) {
    Log()->warn("register broker {} {}: bad body: {}", reg.broker_name, reg.broker_addr,
                body.status().ToString());
    return Reply(req, resp::kSystemError,
                 "register broker body cannot be decoded: " + body.status().message());
  }
  protocol::TopicConfigSerializeWrapper& wrapper = body->topic_config_serialize_wrapper;
  reg.data_version = wrapper.data_version;
  reg.topic_configs.reserve(wrapper.topic_config_table.size());
  for (auto& [name, tc] : wrapper.topic_config_table) {
    if (tc.topic_name.empty()) tc.topic_name = name;  // the table key names the topic
    reg.topic_configs.push_back(std::move(tc));
  }
  reg.filter_server_list = std::move(body->filter_server_list);

  RegisterBrokerOutcome outcome = routes_->RegisterBroker(reg);
  Cmd out = Reply(req, resp::kSuccess);
  if (!outcome.master_addr.empty()) {
    protocol::EncodeCustomHeader(
        protocol::RegisterBrokerResponseHeader{outcome.ha_server_addr, outcome.master_addr}, &out);
  }
  if (config_->Snapshot().return_order_topic_config_to_broker) {
    if (auto order = kv_->GetNamespace(protocol::kOrderTopicConfigNamespace)) {
      out.body = protocol::EncodeKVTable(protocol::KVTable{std::move(*order)});
    }
  }
  return out;
}

Cmd DefaultRequestProcessor::UnregisterBroker(const Cmd& req) {
  auto h = ReadHeader<protocol::UnRegisterBrokerRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  routes_->UnregisterBroker(h->cluster_name, h->broker_addr, h->broker_name, h->broker_id);
  return Reply(req, resp::kSuccess);
}

Cmd DefaultRequestProcessor::BrokerHeartbeat(const Cmd& req) {
  auto h = ReadHeader<protocol::BrokerHeartbeatRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  routes_->UpdateBrokerInfoUpdateTimestamp(h->cluster_name, h->broker_addr);
  return Reply(req, resp::kSuccess);
}

Cmd DefaultRequestProcessor::GetRouteInfoByTopic(const Cmd& req) {
  auto h = ReadHeader<protocol::GetRouteInfoRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  const std::string& topic = h->topic;
  NamesrvSettings settings = config_->Snapshot();
  if (settings.need_wait_for_service &&
      clock_->SteadyMillis() - start_millis_ < settings.wait_seconds_for_service * 1000LL) {
    return Reply(req, resp::kSystemError, "name server not ready");
  }
  auto route = routes_->GetTopicRoute(topic);
  if (!route) {
    return Reply(req, resp::kTopicNotExist,
                 std::string(kTopicNotExistRemark) + topic + std::string(kFaqSuffix));
  }
  if (settings.order_message_enable) {
    route->order_topic_conf = kv_->Get(protocol::kOrderTopicConfigNamespace, topic);
  }
  // Quoted map keys only for clients that can take them (§7.9): Go <= 2.1.1 (version
  // 317) corrupts a route with quoted keys, strict parsers need them.
  protocol::MapKeyStyle style = protocol::RouteMapKeyStyle(
      req.version, h->accept_standard_json_only.value_or(false));
  Cmd out = Reply(req, resp::kSuccess);
  out.body = protocol::EncodeTopicRouteData(*route, style);
  return out;
}

Cmd DefaultRequestProcessor::GetBrokerClusterInfo(const Cmd& req) {
  Cmd out = Reply(req, resp::kSuccess);
  out.body = protocol::EncodeClusterInfo(routes_->GetClusterInfo());
  return out;
}

Cmd DefaultRequestProcessor::WipeWritePermOfBroker(const Cmd& req) {
  auto h = ReadHeader<protocol::WipeWritePermOfBrokerRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  int32_t count = routes_->WipeWritePermOfBroker(h->broker_name);
  Cmd out = Reply(req, resp::kSuccess);
  protocol::EncodeCustomHeader(protocol::WipeWritePermOfBrokerResponseHeader{count}, &out);
  return out;
}

Cmd DefaultRequestProcessor::AddWritePermOfBroker(const Cmd& req) {
  auto h = ReadHeader<protocol::AddWritePermOfBrokerRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  int32_t count = routes_->AddWritePermOfBroker(h->broker_name);
  Cmd out = Reply(req, resp::kSuccess);
  protocol::EncodeCustomHeader(protocol::AddWritePermOfBrokerResponseHeader{count}, &out);
  return out;
}

Cmd DefaultRequestProcessor::GetAllTopicListFromNameserver(const Cmd& req) {
  if (!config_->Snapshot().enable_all_topic_list) return Reply(req, resp::kSystemError, "disable");
  Cmd out = Reply(req, resp::kSuccess);
  out.body = EncodeTopicNames(routes_->GetAllTopics());
  return out;
}

Cmd DefaultRequestProcessor::DeleteTopicInNamesrv(const Cmd& req) {
  auto h = ReadHeader<protocol::DeleteTopicFromNamesrvRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  routes_->DeleteTopic(h->topic, h->cluster_name);
  return Reply(req, resp::kSuccess);
}

Cmd DefaultRequestProcessor::RegisterTopicInNamesrv(const Cmd& req) {
  auto h = ReadHeader<protocol::RegisterTopicRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  if (req.body.empty()) return Reply(req, resp::kSuccess);
  auto route = protocol::DecodeTopicRouteData(req.body);
  if (!route.ok()) {
    return Reply(req, resp::kSystemError, "TopicRouteData cannot be decoded: " +
                                              route.status().message());
  }
  Status s = routes_->RegisterTopic(h->topic, route->queue_datas);
  if (!s.ok()) return Reply(req, resp::kSystemError, s.message());
  return Reply(req, resp::kSuccess);
}

Cmd DefaultRequestProcessor::GetTopicsByCluster(const Cmd& req) {
  if (!config_->Snapshot().enable_topic_list) return Reply(req, resp::kSystemError, "disable");
  auto h = ReadHeader<protocol::GetTopicsByClusterRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  Cmd out = Reply(req, resp::kSuccess);
  out.body = EncodeTopicNames(routes_->GetTopicsByCluster(h->cluster));
  return out;
}

Cmd DefaultRequestProcessor::GetSystemTopicListFromNs(const Cmd& req) {
  Cmd out = Reply(req, resp::kSuccess);
  out.body = protocol::EncodeTopicList(routes_->GetSystemTopicList());
  return out;
}

Cmd DefaultRequestProcessor::GetUnitTopicList(const Cmd& req, int32_t code) {
  if (!config_->Snapshot().enable_topic_list) return Reply(req, resp::kSystemError, "disable");
  std::vector<std::string> topics = code == rc::kGetUnitTopicList ? routes_->GetUnitTopics()
                                    : code == rc::kGetHasUnitSubTopicList
                                        ? routes_->GetHasUnitSubTopics()
                                        : routes_->GetHasUnitSubUnUnitTopics();
  Cmd out = Reply(req, resp::kSuccess);
  out.body = EncodeTopicNames(topics);
  return out;
}

Cmd DefaultRequestProcessor::UpdateNamesrvConfig(const Cmd& req) {
  if (req.body.empty()) return Reply(req, resp::kSuccess);
  auto props = ParsePropertiesText(req.body);
  if (!props.ok()) {
    return Reply(req, resp::kSystemError, "string2Properties error: " + props.status().message());
  }
  Status s = config_->UpdateAtRuntime(*props);
  if (s.Is(StatusCode::kPermissionDenied)) {
    Log()->warn("UPDATE_NAMESRV_CONFIG refused: {}", s.message());
    return Reply(req, resp::kNoPermission, "Can not update config in black list: " + s.message());
  }
  if (!s.ok()) return Reply(req, resp::kSystemError, s.message());
  routes_->set_default_timeout_millis(config_->Snapshot().broker_channel_expired_time);
  Log()->info("namesrv config updated: {}", req.body);
  return Reply(req, resp::kSuccess);
}

Cmd DefaultRequestProcessor::GetNamesrvConfig(const Cmd& req) {
  Cmd out = Reply(req, resp::kSuccess);
  out.body = config_->ToPropertiesText();
  return out;
}

Cmd DefaultRequestProcessor::QueryDataVersion(const Cmd& req) {
  auto h = ReadHeader<protocol::QueryDataVersionRequestHeader>(req);
  if (!h.ok()) return HeaderError(req, h.status());
  const std::string& cluster = h->cluster_name;
  const std::string& addr = h->broker_addr;
  protocol::DataVersion version;
  if (!req.body.empty()) {
    auto parsed = protocol::DecodeDataVersion(req.body);
    if (!parsed.ok()) return Reply(req, resp::kSystemError, parsed.status().message());
    version = *parsed;
  }
  bool changed = routes_->IsBrokerTopicConfigChanged(cluster, addr, version);
  // As Java: only an unchanged broker counts as alive here; a changed one must register.
  if (!changed) routes_->UpdateBrokerInfoUpdateTimestamp(cluster, addr);
  Cmd out = Reply(req, resp::kSuccess);
  protocol::EncodeCustomHeader(protocol::QueryDataVersionResponseHeader{changed}, &out);
  if (auto stored = routes_->QueryBrokerDataVersion(cluster, addr)) {
    out.body = protocol::EncodeDataVersion(*stored);
  }
  return out;
}

}  // namespace apogee::namesrv
