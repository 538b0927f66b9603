#include "protocol/route_data.h"

#include <string>
#include <utility>

#include "protocol/json_util.h"

namespace apogee::protocol {
namespace {

std::string Child(std::string_view path, std::string_view key) {
  return std::string(path) + "." + std::string(key);
}

std::string Index(std::string_view path, size_t i) {
  return std::string(path) + "[" + std::to_string(i) + "]";
}

Status CheckObject(const json::Value& v, std::string_view path) {
  if (!v.IsObject()) return Status::Corruption(std::string(path) + ": expected an object");
  return Status::OK();
}

void WriteQueueData(json::Writer& w, const QueueData& q) {
  w.StartObject();
  json::Key(w, "brokerName");
  json::String(w, q.broker_name);
  json::Key(w, "perm");
  w.Int(q.perm);
  json::Key(w, "readQueueNums");
  w.Int(q.read_queue_nums);
  json::Key(w, "topicSysFlag");
  w.Int(q.topic_sys_flag);
  json::Key(w, "writeQueueNums");
  w.Int(q.write_queue_nums);
  w.EndObject();
}

Status ReadQueueData(const json::Value& v, std::string_view path, QueueData* q) {
  APOGEE_RETURN_IF_ERROR(CheckObject(v, path));
  APOGEE_RETURN_IF_ERROR(json::ReadString(v, "brokerName", path, &q->broker_name));
  APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "readQueueNums", path, &q->read_queue_nums));
  APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "writeQueueNums", path, &q->write_queue_nums));
  APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "perm", path, &q->perm));
  APOGEE_RETURN_IF_ERROR(json::ReadInt32(v, "topicSynFlag", path, &q->topic_sys_flag));
  return json::ReadInt32(v, "topicSysFlag", path, &q->topic_sys_flag);
}

void WriteBrokerData(json::Writer& w, const BrokerData& b, MapKeyStyle style) {
  w.StartObject();
  json::Key(w, "brokerAddrs");
  w.StartObject();
  for (const auto& [id, addr] : b.broker_addrs) {
    json::NumericKey(w, id, style == MapKeyStyle::kQuoted);
    json::String(w, addr);
  }
  w.EndObject();
  json::Key(w, "brokerName");
  json::String(w, b.broker_name);
  json::Key(w, "cluster");
  json::String(w, b.cluster);
  json::Key(w, "enableActingMaster");
  w.Bool(b.enable_acting_master);
  if (b.zone_name) {
    json::Key(w, "zoneName");
    json::String(w, *b.zone_name);
  }
  w.EndObject();
}

Status ReadBrokerData(const json::Value& v, std::string_view path, BrokerData* b) {
  APOGEE_RETURN_IF_ERROR(CheckObject(v, path));
  APOGEE_RETURN_IF_ERROR(json::ReadString(v, "cluster", path, &b->cluster));
  APOGEE_RETURN_IF_ERROR(json::ReadString(v, "brokerName", path, &b->broker_name));
  APOGEE_RETURN_IF_ERROR(json::ReadBool(v, "enableActingMaster", path, &b->enable_acting_master));
  APOGEE_RETURN_IF_ERROR(json::ReadOptionalString(v, "zoneName", path, &b->zone_name));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* addrs, json::FindObject(v, "brokerAddrs", path));
  if (addrs == nullptr) return Status::OK();
  const std::string addrs_path = Child(path, "brokerAddrs");
  for (auto it = addrs->MemberBegin(); it != addrs->MemberEnd(); ++it) {
    if (it->value.IsNull()) continue;
    // The key arrives as "0" whether it was written bare or quoted.
    APOGEE_ASSIGN_OR_RETURN(int64_t id, json::AsInt64(it->name, addrs_path + " key"));
    APOGEE_ASSIGN_OR_RETURN(b->broker_addrs[id], json::AsString(it->value, addrs_path));
  }
  return Status::OK();
}

Status ReadStringArray(const json::Value& array, std::string_view path,
                       std::vector<std::string>* out) {
  for (rapidjson::SizeType i = 0; i < array.Size(); ++i) {
    APOGEE_ASSIGN_OR_RETURN(std::string s, json::AsString(array[i], Index(path, i)));
    out->push_back(std::move(s));
  }
  return Status::OK();
}

void WriteStringArray(json::Writer& w, const auto& strings) {
  w.StartArray();
  for (const std::string& s : strings) json::String(w, s);
  w.EndArray();
}

}  // namespace

MapKeyStyle RouteMapKeyStyle(int32_t request_version, bool accept_standard_json_only) {
  return request_version >= kStandardJsonRouteVersion || accept_standard_json_only
             ? MapKeyStyle::kQuoted
             : MapKeyStyle::kBareNumbers;
}

std::string EncodeTopicRouteData(const TopicRouteData& route, MapKeyStyle style) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  json::Key(w, "brokerDatas");
  w.StartArray();
  for (const BrokerData& b : route.broker_datas) WriteBrokerData(w, b, style);
  w.EndArray();
  json::Key(w, "filterServerTable");
  w.StartObject();
  for (const auto& [addr, servers] : route.filter_server_table) {
    json::Key(w, addr);
    WriteStringArray(w, servers);
  }
  w.EndObject();
  if (route.order_topic_conf) {
    json::Key(w, "orderTopicConf");
    json::String(w, *route.order_topic_conf);
  }
  json::Key(w, "queueDatas");
  w.StartArray();
  for (const QueueData& q : route.queue_datas) WriteQueueData(w, q);
  w.EndArray();
  w.EndObject();
  return out;
}

Result<TopicRouteData> DecodeTopicRouteData(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "TopicRouteData", &doc));
  constexpr std::string_view kPath = "TopicRouteData";
  TopicRouteData route;
  APOGEE_RETURN_IF_ERROR(
      json::ReadOptionalString(doc, "orderTopicConf", kPath, &route.order_topic_conf));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* queues, json::FindArray(doc, "queueDatas", kPath));
  if (queues != nullptr) {
    for (rapidjson::SizeType i = 0; i < queues->Size(); ++i) {
      QueueData q;
      APOGEE_RETURN_IF_ERROR(
          ReadQueueData((*queues)[i], Index("TopicRouteData.queueDatas", i), &q));
      route.queue_datas.push_back(std::move(q));
    }
  }
  APOGEE_ASSIGN_OR_RETURN(const json::Value* brokers, json::FindArray(doc, "brokerDatas", kPath));
  if (brokers != nullptr) {
    for (rapidjson::SizeType i = 0; i < brokers->Size(); ++i) {
      BrokerData b;
      APOGEE_RETURN_IF_ERROR(
          ReadBrokerData((*brokers)[i], Index("TopicRouteData.brokerDatas", i), &b));
      route.broker_datas.push_back(std::move(b));
    }
  }
  APOGEE_ASSIGN_OR_RETURN(const json::Value* filters,
                          json::FindObject(doc, "filterServerTable", kPath));
  if (filters != nullptr) {
    for (auto it = filters->MemberBegin(); it != filters->MemberEnd(); ++it) {
      if (it->value.IsNull()) continue;
      const std::string path =
          "TopicRouteData.filterServerTable." + std::string(json::KeyOf(it->name));
      if (!it->value.IsArray()) return Status::Corruption(path + ": expected an array");
      APOGEE_RETURN_IF_ERROR(ReadStringArray(
          it->value, path, &route.filter_server_table[std::string(json::KeyOf(it->name))]));
    }
  }
  return route;
}

std::string EncodeClusterInfo(const ClusterInfo& info, MapKeyStyle style) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  json::Key(w, "brokerAddrTable");
  w.StartObject();
  for (const auto& [name, data] : info.broker_addr_table) {
    json::Key(w, name);
    WriteBrokerData(w, data, style);
  }
  w.EndObject();
  json::Key(w, "clusterAddrTable");
  w.StartObject();
  for (const auto& [cluster, names] : info.cluster_addr_table) {
    json::Key(w, cluster);
    WriteStringArray(w, names);
  }
  w.EndObject();
  w.EndObject();
  return out;
}

Result<ClusterInfo> DecodeClusterInfo(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "ClusterInfo", &doc));
  ClusterInfo info;
  APOGEE_ASSIGN_OR_RETURN(const json::Value* brokers,
                          json::FindObject(doc, "brokerAddrTable", "ClusterInfo"));
  if (brokers != nullptr) {
    for (auto it = brokers->MemberBegin(); it != brokers->MemberEnd(); ++it) {
      if (it->value.IsNull()) continue;
      const std::string name(json::KeyOf(it->name));
      APOGEE_RETURN_IF_ERROR(ReadBrokerData(it->value, "ClusterInfo.brokerAddrTable." + name,
                                            &info.broker_addr_table[name]));
    }
  }
  APOGEE_ASSIGN_OR_RETURN(const json::Value* clusters,
                          json::FindObject(doc, "clusterAddrTable", "ClusterInfo"));
  if (clusters != nullptr) {
    for (auto it = clusters->MemberBegin(); it != clusters->MemberEnd(); ++it) {
      if (it->value.IsNull()) continue;
      const std::string cluster(json::KeyOf(it->name));
      const std::string path = "ClusterInfo.clusterAddrTable." + cluster;
      if (!it->value.IsArray()) return Status::Corruption(path + ": expected an array");
      std::vector<std::string> names;
      APOGEE_RETURN_IF_ERROR(ReadStringArray(it->value, path, &names));
      info.cluster_addr_table[cluster].insert(names.begin(), names.end());
    }
  }
  return info;
}

}  // namespace apogee::protocol
