#include "admin/topic_commands.h"

#include <set>

#include "admin/command_util.h"
#include "admin/table_printer.h"
#include "protocol/mix_all.h"

namespace apogee::admin {
namespace {

Status UpdateTopic(const ParsedOptions& o, CommandContext& ctx) {
  protocol::TopicConfig config;
  config.topic_name = o.Get("topic");
  APOGEE_ASSIGN_OR_RETURN(config.read_queue_nums, o.GetInt32("readQueueNums", 8));
  APOGEE_ASSIGN_OR_RETURN(config.write_queue_nums, o.GetInt32("writeQueueNums", 8));
  APOGEE_ASSIGN_OR_RETURN(config.perm, o.GetInt32("perm", protocol::kPermRead | protocol::kPermWrite));
  if (config.read_queue_nums <= 0 || config.write_queue_nums <= 0) {
    return Status::InvalidArgument("queue numbers must be positive");
  }
  if (o.Has("attributes")) {
    APOGEE_ASSIGN_OR_RETURN(config.attributes, ParseAttributes(o.Get("attributes")));
  }
  APOGEE_ASSIGN_OR_RETURN(bool unit, o.GetBool("unit", false));
  APOGEE_ASSIGN_OR_RETURN(bool has_unit_sub, o.GetBool("hasUnitSub", false));
  // TopicSysFlag.buildSysFlag: bit 0 unit, bit 1 unit subscription.
  config.topic_sys_flag = (unit ? 1 : 0) | (has_unit_sub ? 2 : 0);
  APOGEE_ASSIGN_OR_RETURN(config.order, o.GetBool("order", false));

  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> brokers, TargetBrokers(o, admin));
  for (const std::string& addr : brokers) {
    APOGEE_RETURN_IF_ERROR(admin->CreateTopic(addr, config));
    ctx.out() << "create topic to " << addr << " success.\n";
  }
  if (config.order) {
    // Ordered topics also get an ORDER_TOPIC_CONFIG entry "brokerName:queues[;...]".
    std::string conf;
    for (const std::string& addr : brokers) {
      APOGEE_ASSIGN_OR_RETURN(std::string name, BrokerNameOfAddr(admin, addr));
      conf += (conf.empty() ? "" : ";") + name + ":" + std::to_string(config.write_queue_nums);
    }
    APOGEE_RETURN_IF_ERROR(
        admin->PutKvConfig(protocol::kOrderTopicConfigNamespace, config.topic_name, conf));
    ctx.out() << "set orderConf. isOrder=true, orderConf=[" << conf << "]\n";
  }
  ctx.out() << TopicConfigToString(config) << "\n";
  return Status::OK();
}

Status DeleteTopic(const ParsedOptions& o, CommandContext& ctx) {
  std::string topic = o.Get("topic");
  std::string cluster = o.Get("clusterName");
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> masters, admin->MasterAddrsOfCluster(cluster));
  for (const std::string& addr : masters) APOGEE_RETURN_IF_ERROR(admin->DeleteTopicInBroker(addr, topic));
  ctx.out() << "delete topic [" << topic << "] from cluster [" << cluster << "] success.\n";
  APOGEE_RETURN_IF_ERROR(admin->DeleteTopicInNamesrv(topic, cluster));
  ctx.out() << "delete topic [" << topic << "] from NameServer success.\n";
  return Status::OK();
}

// The cluster whose broker set serves the topic ("" when none).
std::string ClusterOfTopic(MQAdminClient* admin, const protocol::ClusterInfo& info, const std::string& topic) {
  auto route = admin->GetTopicRoute(topic);
  if (!route.ok() || route->broker_datas.empty()) return "";
  const std::string& broker_name = route->broker_datas.front().broker_name;
  for (const auto& [cluster, names] : info.cluster_addr_table) {
    if (names.count(broker_name)) return cluster;
  }
  return "";
}

Status TopicList(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicList list, admin->GetAllTopicList());
  if (!o.Has("clusterModel")) {
    for (const std::string& topic : list.topic_list) ctx.out() << topic << "\n";
    return Status::OK();
  }
  APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, admin->GetBrokerClusterInfo());
  TablePrinter table({{"#Cluster Name", 20}, {"#Topic", 48}, {"#Consumer Group", 48}});
  for (const std::string& topic : list.topic_list) {
    if (protocol::IsRetryTopic(topic) || protocol::IsDlqTopic(topic)) continue;
    std::string cluster = ClusterOfTopic(admin, info, topic);
    std::set<std::string> groups;
    auto masters = admin->MasterAddrsOfTopic(topic);
    if (masters.ok()) {
      for (const auto& [name, addr] : *masters) {
        auto who = admin->QueryTopicConsumeByWho(addr, topic);
        if (who.ok()) groups.insert(who->group_list.begin(), who->group_list.end());
      }
    }
    if (groups.empty()) groups.insert("");
    for (const std::string& g : groups) table.AddRow({cluster, topic, g});
  }
  table.Print(ctx.out());
  return Status::OK();
}

std::string BrokerAddrsToString(const std::map<int64_t, std::string>& addrs) {
  std::string s = "{";
  for (const auto& [id, addr] : addrs) {
    if (s.size() > 1) s += ", ";
    s += std::to_string(id) + "=" + addr;
  }
  return s + "}";
}

Status TopicRoute(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicRouteData route, admin->GetTopicRoute(o.Get("topic")));
  if (!o.Has("list")) {
    ctx.out() << PrettyJson(protocol::EncodeTopicRouteData(route, protocol::MapKeyStyle::kQuoted)) << "\n";
    return Status::OK();
  }
  std::map<std::string, protocol::QueueData> queues;
  for (const protocol::QueueData& q : route.queue_datas) queues[q.broker_name] = q;
  std::vector<protocol::BrokerData> brokers = route.broker_datas;
  std::sort(brokers.begin(), brokers.end(),
            [](const auto& a, const auto& b) { return a.broker_name < b.broker_name; });
  TablePrinter table({{"#ClusterName", 45, true, " "}, {"#BrokerName", 32, true, " "},
                      {"#BrokerAddrs", 50, true, " "}, {"#ReadQueue", 10, true, " "},
                      {"#WriteQueue", 11, true, " "}, {"#Perm", 5}});
  int total_read = 0;
  int total_write = 0;
  for (const protocol::BrokerData& b : brokers) {
    const protocol::QueueData& q = queues[b.broker_name];
    total_read += q.read_queue_nums;
    total_write += q.write_queue_nums;
    table.AddRow({b.cluster, b.broker_name, BrokerAddrsToString(b.broker_addrs),
                  std::to_string(q.read_queue_nums), std::to_string(q.write_queue_nums),
                  std::to_string(q.perm)});
  }
  table.Print(ctx.out());
  ctx.out() << std::string(158, '-') << "\n";
  ctx.out() << table.FormatLine({"Total:", std::to_string(queues.size()), "", std::to_string(total_read),
                                 std::to_string(total_write), ""})
            << "\n";
  return Status::OK();
}

Status TopicStatus(const ParsedOptions& o, CommandContext& ctx) {
  std::string topic = o.Get("topic");
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
  protocol::TopicStatsTable merged;
  for (const auto& [name, addr] : masters) {
    APOGEE_ASSIGN_OR_RETURN(protocol::TopicStatsTable t, admin->GetTopicStats(addr, topic));
    merged.offset_table.insert(t.offset_table.begin(), t.offset_table.end());
    merged.topic_put_tps += t.topic_put_tps;
  }
  TablePrinter table({{"#Broker Name", 32}, {"#QID", 4}, {"#Min Offset", 20}, {"#Max Offset", 20, true, "    "},
                      {"#Last Updated", 0}});
  for (const auto& [mq, off] : merged.offset_table) {  // MessageQueue order, as Java sorts
    table.AddRow({mq.broker_name, std::to_string(mq.queue_id), std::to_string(off.min_offset),
                  std::to_string(off.max_offset),
                  off.last_update_timestamp > 0 ? FormatTimestamp(off.last_update_timestamp) : ""});
  }
  table.Print(ctx.out());
  ctx.out() << "\nTopic Put TPS: " << merged.topic_put_tps << "\n";
  return Status::OK();
}

Status TopicClusterList(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicRouteData route, admin->GetTopicRoute(o.Get("topic")));
  APOGEE_ASSIGN_OR_RETURN(protocol::ClusterInfo info, admin->GetBrokerClusterInfo());
  std::set<std::string> clusters;
  for (const protocol::BrokerData& b : route.broker_datas) {
    for (const auto& [cluster, names] : info.cluster_addr_table) {
      if (names.count(b.broker_name)) clusters.insert(cluster);
    }
  }
  for (const std::string& c : clusters) ctx.out() << c << "\n";
  return Status::OK();
}

}  // namespace

void RegisterTopicCommands(CommandRegistry* r) {
  r->Add({{"updateTopic",
           "Update or create topic.",
           {{"b", "brokerAddr", true, false, "create topic to which broker"},
            {"c", "clusterName", true, false, "create topic to which cluster"},
            {"a", "attributes", true, false, "attribute(+a=b,+c=d,-e)"},
            {"t", "topic", true, true, "topic name"},
            {"r", "readQueueNums", true, false, "set read queue nums"},
            {"w", "writeQueueNums", true, false, "set write queue nums"},
            {"p", "perm", true, false, "set topic's permission(2|4|6), intro[2:W 4:R; 6:RW]"},
            {"o", "order", true, false, "set topic's order(true|false)"},
            {"u", "unit", true, false, "is unit topic (true|false)"},
            {"s", "hasUnitSub", true, false, "has unit sub (true|false)"}}},
          UpdateTopic});
  r->Add({{"deleteTopic",
           "Delete topic from broker and NameServer.",
           {{"t", "topic", true, true, "topic name"},
            {"c", "clusterName", true, true, "delete topic from which cluster"}}},
          DeleteTopic});
  r->Add({{"topicList",
           "Fetch all topic list from name server.",
           {{"c", "clusterModel", false, false, "clusterModel"}}},
          TopicList});
  r->Add({{"topicRoute",
           "Examine topic route info.",
           {{"t", "topic", true, true, "topic name"},
            {"l", "list", false, false, "Use list format to print data"}}},
          TopicRoute});
  r->Add({{"topicStatus", "Examine topic Status info.", {{"t", "topic", true, true, "topic name"}}},
          TopicStatus});
  r->Add({{"topicClusterList",
           "Get cluster info for topic.",
           {{"t", "topic", true, true, "topic name"}}},
          TopicClusterList});
}

}  // namespace apogee::admin
