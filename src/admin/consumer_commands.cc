#include "admin/consumer_commands.h"

#include <cstdio>
#include <ctime>

#include "admin/command_util.h"
#include "admin/table_printer.h"
#include "protocol/mix_all.h"

namespace apogee::admin {

Result<protocol::ConsumeStats> ExamineConsumeStats(MQAdminClient* admin, const std::string& group,
                                                   std::optional<std::string> topic) {
  APOGEE_ASSIGN_OR_RETURN(auto masters, topic ? admin->MasterAddrsOfTopic(*topic) : MastersForGroup(admin, group));
  protocol::ConsumeStats merged;
  bool any = false;
  Status last_error;
  for (const auto& [name, addr] : masters) {
    auto stats = admin->GetConsumeStats(addr, group, topic);
    if (!stats.ok()) {
      last_error = stats.status();
      continue;
    }
    any = true;
    merged.offset_table.insert(stats->offset_table.begin(), stats->offset_table.end());
    merged.consume_tps += stats->consume_tps;
  }
  if (!any && !last_error.ok()) return last_error;
  return merged;
}

namespace {

Status UpdateSubGroup(const ParsedOptions& o, CommandContext& ctx) {
  SubscriptionGroupSettings s;
  s.group_name = o.Get("groupName");
  APOGEE_ASSIGN_OR_RETURN(s.consume_enable, o.GetBool("consumeEnable", s.consume_enable));
  APOGEE_ASSIGN_OR_RETURN(s.consume_from_min_enable, o.GetBool("consumeFromMinEnable", s.consume_from_min_enable));
  APOGEE_ASSIGN_OR_RETURN(s.consume_broadcast_enable,
                          o.GetBool("consumeBroadcastEnable", s.consume_broadcast_enable));
  APOGEE_ASSIGN_OR_RETURN(s.consume_message_orderly,
                          o.GetBool("consumeMessageOrderly", s.consume_message_orderly));
  APOGEE_ASSIGN_OR_RETURN(s.retry_queue_nums, o.GetInt32("retryQueueNums", s.retry_queue_nums));
  APOGEE_ASSIGN_OR_RETURN(s.retry_max_times, o.GetInt32("retryMaxTimes", s.retry_max_times));
  APOGEE_ASSIGN_OR_RETURN(s.broker_id, o.GetInt64("brokerId", s.broker_id));
  APOGEE_ASSIGN_OR_RETURN(s.which_broker_when_consume_slowly,
                          o.GetInt64("whichBrokerWhenConsumeSlowly", s.which_broker_when_consume_slowly));
  APOGEE_ASSIGN_OR_RETURN(s.notify_consumer_ids_changed_enable,
                          o.GetBool("notifyConsumerIdsChanged", s.notify_consumer_ids_changed_enable));
  if (o.Has("attributes")) {
    APOGEE_ASSIGN_OR_RETURN(s.attributes, ParseAttributes(o.Get("attributes")));
  }

  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> brokers, TargetBrokers(o, admin));
  for (const std::string& addr : brokers) {
    APOGEE_RETURN_IF_ERROR(admin->CreateSubscriptionGroup(addr, s));
    ctx.out() << "create subscription group to " << addr << " success.\n";
  }
  ctx.out() << EncodeSubscriptionGroupSettings(s) << "\n";
  return Status::OK();
}

Status DeleteSubGroup(const ParsedOptions& o, CommandContext& ctx) {
  std::string group = o.Get("groupName");
  APOGEE_ASSIGN_OR_RETURN(bool clean, o.GetBool("removeOffset", false));
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> brokers, TargetBrokers(o, admin));
  for (const std::string& addr : brokers) {
    APOGEE_RETURN_IF_ERROR(admin->DeleteSubscriptionGroup(addr, group, clean));
    ctx.out() << "delete subscription group [" << group << "] from broker [" << addr << "] success.\n";
  }
  if (o.Has("clusterName")) {
    // Java also drops the group's retry and DLQ topics when a whole cluster loses it.
    for (const std::string& topic : {protocol::RetryTopic(group), protocol::DlqTopic(group)}) {
      bool deleted = true;
      for (const std::string& addr : brokers) deleted &= admin->DeleteTopicInBroker(addr, topic).ok();
      if (deleted && admin->DeleteTopicInNamesrv(topic, o.Get("clusterName")).ok()) {
        ctx.out() << "delete topic [" << topic << "] from cluster [" << o.Get("clusterName") << "] success.\n";
      }
    }
  }
  return Status::OK();
}

Status ConsumerProgress(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  if (!o.Has("groupName")) {
    // Every group the NameServer knows through a retry topic: TPS and total lag.
    APOGEE_ASSIGN_OR_RETURN(protocol::TopicList topics, admin->GetAllTopicList());
    TablePrinter table({{"#Group", 64}, {"#Count", 6}, {"#Version", 24, true, " "}, {"#Type", 5},
                        {"#Model", 14}, {"#TPS", 7}, {"#Diff Total", 0}});
    for (const std::string& t : topics.topic_list) {
      if (!protocol::IsRetryTopic(t)) continue;
      std::string group = t.substr(protocol::kRetryGroupTopicPrefix.size());
      auto stats = ExamineConsumeStats(admin, group, std::nullopt);
      if (!stats.ok()) continue;
      int64_t diff = 0;
      for (const auto& [mq, w] : stats->offset_table) diff += w.broker_offset - w.consumer_offset;
      std::string count = "0", version = "OFFLINE", type = "", model = "";
      auto masters = admin->MasterAddrsOfTopic(t);
      if (masters.ok() && !masters->empty()) {
        auto cc = admin->GetConsumerConnection(masters->begin()->second, group);
        if (cc.ok() && !cc->connection_set.empty()) {
          count = std::to_string(cc->connection_set.size());
          version = VersionDesc(cc->connection_set.front().version);
          type = cc->consume_type == protocol::ConsumeType::kConsumeActively ? "PULL" : "PUSH";
          model = std::string(protocol::MessageModelName(cc->message_model));
        }
      }
      char tps[32];
      std::snprintf(tps, sizeof(tps), "%.0f", stats->consume_tps);
      table.AddRow({group, count, version, type, model, tps, std::to_string(diff)});
    }
    table.Print(ctx.out());
    return Status::OK();
  }

  std::string group = o.Get("groupName");
  std::optional<std::string> topic;
  if (o.Has("topicName")) topic = o.Get("topicName");
  APOGEE_ASSIGN_OR_RETURN(protocol::ConsumeStats stats, ExamineConsumeStats(admin, group, topic));
  TablePrinter table({{"#Topic", 64}, {"#Broker Name", 32}, {"#QID", 4}, {"#Broker Offset", 20},
                      {"#Consumer Offset", 20}, {"#Diff", 20, true, " "}, {"#Inflight", 20, true, ""},
                      {"#LastTime", 0}});
  int64_t diff_total = 0;
  int64_t inflight_total = 0;
  for (const auto& [mq, w] : stats.offset_table) {  // sorted by MessageQueue, as Java
    int64_t diff = w.broker_offset - w.consumer_offset;
    int64_t inflight = w.pull_offset - w.consumer_offset;
    diff_total += diff;
    inflight_total += inflight;
    table.AddRow({mq.topic, mq.broker_name, std::to_string(mq.queue_id), std::to_string(w.broker_offset),
                  std::to_string(w.consumer_offset), std::to_string(diff), std::to_string(inflight) + " ",
                  w.last_timestamp == 0 ? "N/A" : FormatDate(w.last_timestamp)});
  }
  table.Print(ctx.out());
  char tps[64];
  std::snprintf(tps, sizeof(tps), "%.2f", stats.consume_tps);
  ctx.out() << "\nConsume TPS: " << tps << "\nConsume Diff Total: " << diff_total
            << "\nConsume Inflight Total: " << inflight_total << "\n";
  return Status::OK();
}

Status ConsumerConnection(const ParsedOptions& o, CommandContext& ctx) {
  std::string group = o.Get("consumerGroup");
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  std::vector<std::string> brokers;
  if (o.Has("brokerAddr")) {
    brokers.push_back(o.Get("brokerAddr"));
  } else {
    APOGEE_ASSIGN_OR_RETURN(auto masters, MastersForGroup(admin, group));
    for (const auto& [name, addr] : masters) brokers.push_back(addr);
  }
  Result<protocol::ConsumerConnection> cc = Status::NotFound("the consumer group[" + group + "] not online");
  for (const std::string& addr : brokers) {
    cc = admin->GetConsumerConnection(addr, group);
    if (cc.ok()) break;
  }
  if (!cc.ok()) return cc.status();
  TablePrinter conns({{"#ClientId", 36, true, " "}, {"#ClientAddr", 22, true, " "},
                      {"#Language", 10, true, " "}, {"#Version", 0}});
  for (const protocol::Connection& c : cc->connection_set) {
    conns.AddRow({c.client_id, c.client_addr, std::string(protocol::LanguageName(c.language)),
                  VersionDesc(c.version)});
  }
  conns.Print(ctx.out());
  ctx.out() << "\nBelow is subscription:\n";
  TablePrinter subs({{"#Topic", 20, true, " "}, {"#SubExpression", 0}});
  for (const auto& [topic, sd] : cc->subscription_table) subs.AddRow({sd.topic, sd.sub_string});
  subs.Print(ctx.out());
  ctx.out() << "\nConsumeType: " << protocol::ConsumeTypeName(cc->consume_type)
            << "\nMessageModel: " << protocol::MessageModelName(cc->message_model)
            << "\nConsumeFromWhere: " << protocol::ConsumeFromWhereName(cc->consume_from_where) << "\n";
  return Status::OK();
}

Status ProducerConnection(const ParsedOptions& o, CommandContext& ctx) {
  std::string group = o.Get("producerGroup");
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(o.Get("topic")));
  std::vector<protocol::Connection> all;
  Status last_error;
  for (const auto& [name, addr] : masters) {
    auto pc = admin->GetProducerConnection(addr, group);
    if (!pc.ok()) {
      last_error = pc.status();
      continue;
    }
    all.insert(all.end(), pc->connection_set.begin(), pc->connection_set.end());
  }
  if (all.empty() && !last_error.ok()) return last_error;
  int i = 1;
  for (const protocol::Connection& c : all) {
    char idx[16];
    std::snprintf(idx, sizeof(idx), "%04d", i++);
    ctx.out() << idx << "  " << Pad(c.client_id, 32, true) << " " << Pad(c.client_addr, 22, true) << " "
              << Pad(std::string(protocol::LanguageName(c.language)), 8, true) << " "
              << VersionDesc(c.version) << "\n";
  }
  return Status::OK();
}

}  // namespace

std::string VersionDesc(int32_t version) {
  switch (version) {
    case 121: return "V3_4_9";
    case 317: return "V4_5_2";
    case 333: return "V4_6_0";
    case 401: return "V4_9_4";
    case 407: return "V4_9_7";
    case 413: return "V5_0_0";
    case 475: return "V5_3_1";
    case 479: return "V5_3_3";
    default: return "V" + std::to_string(version);
  }
}

void RegisterConsumerCommands(CommandRegistry* r) {
  r->Add({{"updateSubGroup",
           "Update or create subscription group.",
           {{"b", "brokerAddr", true, false, "create subscription group to which broker"},
            {"c", "clusterName", true, false, "create subscription group to which cluster"},
            {"g", "groupName", true, true, "consumer group name"},
            {"s", "consumeEnable", true, false, "consume enable"},
            {"m", "consumeFromMinEnable", true, false, "from min offset"},
            {"d", "consumeBroadcastEnable", true, false, "broadcast"},
            {"o", "consumeMessageOrderly", true, false, "consume message orderly"},
            {"q", "retryQueueNums", true, false, "retry queue nums"},
            {"r", "retryMaxTimes", true, false, "retry max times"},
            {"i", "brokerId", true, false, "consumer from which broker id"},
            {"w", "whichBrokerWhenConsumeSlowly", true, false, "which broker id when consume slowly"},
            {"a", "notifyConsumerIdsChanged", true, false, "notify consumerId changed"},
            {"", "attributes", true, false, "attribute(+a=b,+c=d,-e)"}}},
          UpdateSubGroup});
  r->Add({{"deleteSubGroup",
           "Delete subscription group from broker.",
           {{"b", "brokerAddr", true, false, "delete subscription group from which broker"},
            {"c", "clusterName", true, false, "delete subscription group from which cluster"},
            {"g", "groupName", true, true, "subscription group name"},
            {"r", "removeOffset", true, false, "remove offset"}}},
          DeleteSubGroup});
  r->Add({{"consumerProgress",
           "Query consumer's progress, speed.",
           {{"g", "groupName", true, false, "consumer group name"},
            {"t", "topicName", true, false, "topic name"}}},
          ConsumerProgress});
  r->Add({{"consumerConnection",
           "Query consumer's socket connection, client version and subscription.",
           {{"g", "consumerGroup", true, true, "consumer group name"},
            {"b", "brokerAddr", true, false, "broker address"}}},
          ConsumerConnection});
  r->Add({{"producerConnection",
           "Query producer's socket connection and client version.",
           {{"g", "producerGroup", true, true, "producer group name"},
            {"t", "topic", true, true, "topic name"}}},
          ProducerConnection});
}

}  // namespace apogee::admin
