#include "dashboard/topic_api.h"

#include <set>

#include "admin/command_util.h"
#include "base/string_util.h"
#include "dashboard/json_out.h"
#include "protocol/mix_all.h"
#include "protocol/perm_name.h"
#include "protocol/system_topics.h"

namespace apogee::dashboard {
namespace {

// The masters a topic change applies to: `brokerAddr`, or every master of `cluster`
// (the only cluster when there is exactly one and none is named).
Result<std::vector<std::string>> TargetMasters(admin::MQAdminClient* admin, const ApiRequest& request) {
  if (request.Has("brokerAddr")) return std::vector<std::string>{request.Get("brokerAddr")};
  std::string cluster = request.Get("cluster");
  if (cluster.empty()) {
    APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, admin->GetBrokerClusterInfo());
    if (info.cluster_addr_table.size() != 1) {
      return Status::InvalidArgument("name a cluster (the NameServer knows " +
                                     std::to_string(info.cluster_addr_table.size()) + ")");
    }
    cluster = info.cluster_addr_table.begin()->first;
  }
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> masters, admin->MasterAddrsOfCluster(cluster));
  if (masters.empty()) return Status::NotFound("cluster " + cluster + " has no master");
  return masters;
}

}  // namespace

std::string_view TopicKind(std::string_view topic, const protocol::ClusterInfo& cluster) {
  if (protocol::IsRetryTopic(topic)) return "RETRY";
  if (protocol::IsDlqTopic(topic)) return "DLQ";
  // RocketMQ's TopicValidator list and "rmq_sys_" prefix, the broker's own test; an
  // upper-case "RMQ_SYS_" name outside that list is an ordinary topic there too.
  if (protocol::IsSystemTopic(topic)) return "SYSTEM";
  std::string t(topic);
  if (cluster.cluster_addr_table.count(t) > 0 || cluster.broker_addr_table.count(t) > 0) return "SYSTEM";
  return "NORMAL";
}

Result<std::string> TopicsJson(admin::MQAdminClient* admin) {
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicList list, admin->GetAllTopicList());
  APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo cluster, admin->GetBrokerClusterInfo());
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    std::vector<std::string> clusters;
    for (const auto& [name, brokers] : cluster.cluster_addr_table) clusters.push_back(name);
    StringArrayField(w, "clusters", clusters);
    protocol::json::Key(w, "topics");
    w.StartArray();
    for (const std::string& t : list.topic_list) {
      w.StartObject();
      Field(w, "name", t);
      Field(w, "kind", TopicKind(t, cluster));
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  });
}

Result<std::string> TopicJson(admin::MQAdminClient* admin, const ApiRequest& request) {
  APOGEE_ASSIGN_OR_RETURN(std::string topic, request.Required("topic"));
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicRouteData route, admin->GetTopicRoute(topic));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
  std::map<protocol::MessageQueue, protocol::TopicOffset> offsets;
  std::map<std::string, std::string> errors;  // broker name -> error
  double put_tps = 0;
  std::set<std::string> groups;
  for (const auto& [name, addr] : masters) {
    auto stats = admin->GetTopicStats(addr, topic);
    if (!stats.ok()) {
      errors[name] = stats.status().message();
      continue;
    }
    offsets.insert(stats->offset_table.begin(), stats->offset_table.end());
    put_tps += stats->topic_put_tps;
    auto who = admin->QueryTopicConsumeByWho(addr, topic);
    if (who.ok()) groups.insert(who->group_list.begin(), who->group_list.end());
  }
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    Field(w, "topic", topic);
    Field(w, "putTps", put_tps);
    protocol::json::Key(w, "queueDatas");
    w.StartArray();
    for (const protocol::QueueData& q : route.queue_datas) {
      w.StartObject();
      Field(w, "brokerName", q.broker_name);
      Field(w, "readQueueNums", q.read_queue_nums);
      Field(w, "writeQueueNums", q.write_queue_nums);
      Field(w, "perm", q.perm);
      Field(w, "permText", protocol::PermToString(q.perm));
      Field(w, "topicSysFlag", q.topic_sys_flag);
      w.EndObject();
    }
    w.EndArray();
    protocol::json::Key(w, "brokerDatas");
    w.StartArray();
    for (const protocol::BrokerData& b : route.broker_datas) {
      w.StartObject();
      Field(w, "cluster", b.cluster);
      Field(w, "brokerName", b.broker_name);
      std::map<std::string, std::string> addrs;
      for (const auto& [id, addr] : b.broker_addrs) addrs[std::to_string(id)] = addr;
      StringMapField(w, "brokerAddrs", addrs);
      w.EndObject();
    }
    w.EndArray();
    int64_t total = 0;
    protocol::json::Key(w, "queues");
    w.StartArray();
    for (const auto& [mq, off] : offsets) {
      total += off.max_offset - off.min_offset;
      w.StartObject();
      Field(w, "brokerName", mq.broker_name);
      Field(w, "queueId", mq.queue_id);
      Field(w, "minOffset", off.min_offset);
      Field(w, "maxOffset", off.max_offset);
      Field(w, "lastUpdateTimestamp", off.last_update_timestamp);
      w.EndObject();
    }
    w.EndArray();
    Field(w, "messages", total);
    StringArrayField(w, "groups", groups);
    StringMapField(w, "errors", errors);
    w.EndObject();
  });
}

Result<std::string> UpdateTopic(admin::MQAdminClient* admin, const ApiRequest& request) {
  protocol::TopicConfig config;
  APOGEE_ASSIGN_OR_RETURN(config.topic_name, request.Required("topic"));
  APOGEE_ASSIGN_OR_RETURN(config.read_queue_nums, request.Int32("readQueueNums", 8));
  APOGEE_ASSIGN_OR_RETURN(config.write_queue_nums, request.Int32("writeQueueNums", 8));
  APOGEE_ASSIGN_OR_RETURN(config.perm, request.Int32("perm", protocol::kPermRead | protocol::kPermWrite));
  APOGEE_ASSIGN_OR_RETURN(config.order, request.Bool("order", false));
  if (config.read_queue_nums <= 0 || config.write_queue_nums <= 0) {
    return Status::InvalidArgument("queue counts must be positive");
  }
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> masters, TargetMasters(admin, request));
  for (const std::string& addr : masters) APOGEE_RETURN_IF_ERROR(admin->CreateTopic(addr, config));
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    Field(w, "topic", config.topic_name);
    Field(w, "config", admin::TopicConfigToString(config));
    StringArrayField(w, "brokers", masters);
    w.EndObject();
  });
}

Result<std::string> DeleteTopic(admin::MQAdminClient* admin, const ApiRequest& request) {
  APOGEE_ASSIGN_OR_RETURN(std::string topic, request.Required("topic"));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> masters, TargetMasters(admin, request));
  for (const std::string& addr : masters) APOGEE_RETURN_IF_ERROR(admin->DeleteTopicInBroker(addr, topic));
  std::optional<std::string> cluster;
  if (request.Has("cluster")) cluster = request.Get("cluster");
  APOGEE_RETURN_IF_ERROR(admin->DeleteTopicInNamesrv(topic, cluster));
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    Field(w, "topic", topic);
    StringArrayField(w, "brokers", masters);
    w.EndObject();
  });
}

}  // namespace apogee::dashboard
