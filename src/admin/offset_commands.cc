#include "admin/offset_commands.h"

#include <algorithm>
#include <chrono>

#include "admin/command_util.h"
#include "admin/progress.h"
#include "admin/table_printer.h"
#include "protocol/mix_all.h"

namespace apogee::admin {
namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Java's resetOffsetByTimestampOld, for a group with no member online: offsets are
// computed here and committed with UPDATE_CONSUMER_OFFSET, queue by queue.
Status ResetOffline(MQAdminClient* admin, CommandContext& ctx, const std::string& group,
                    const std::string& topic, int64_t timestamp, bool force, const std::string& ts_text) {
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicRouteData route, admin->GetTopicRoute(topic));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
  ctx.out() << "reset consumer offset by specified consumerGroup[" << group << "], topic[" << topic
            << "], force[" << (force ? "true" : "false") << "], timestamp(string)[" << ts_text
            << "], timestamp(long)[" << timestamp << "]\n";
  TablePrinter table({{"#brokerName", 20}, {"#queueId", 20}, {"#brokerOffset", 20}, {"#consumerOffset", 20},
                      {"#timestampOffset", 20}, {"#resetOffset", 0}});
  size_t queues = 0;
  for (const protocol::QueueData& q : route.queue_datas) queues += static_cast<size_t>(std::max(0, q.read_queue_nums));
  TerminalProgress progress("resetOffsetByTime", queues);
  for (const protocol::QueueData& q : route.queue_datas) {
    auto m = masters.find(q.broker_name);
    if (m == masters.end()) continue;
    const std::string& addr = m->second;
    for (int32_t id = 0; id < q.read_queue_nums; ++id) {
      progress.Step(q.broker_name + ":" + std::to_string(id));
      APOGEE_ASSIGN_OR_RETURN(int64_t broker_offset, admin->GetMaxOffset(addr, topic, id));
      int64_t consumer_offset = 0;
      auto committed = admin->QueryConsumerOffset(addr, group, topic, id);
      if (committed.ok()) {
        consumer_offset = *committed;
      } else {
        APOGEE_ASSIGN_OR_RETURN(consumer_offset, admin->GetMinOffset(addr, topic, id));
      }
      int64_t ts_offset = broker_offset;
      if (timestamp != -1) {
        APOGEE_ASSIGN_OR_RETURN(ts_offset, admin->SearchOffset(addr, topic, id, timestamp));
      }
      int64_t reset = force || ts_offset < consumer_offset ? ts_offset : consumer_offset;
      APOGEE_RETURN_IF_ERROR(admin->UpdateConsumerOffset(addr, group, topic, id, reset));
      table.AddRow({q.broker_name, std::to_string(id), std::to_string(broker_offset),
                    std::to_string(consumer_offset), std::to_string(ts_offset), std::to_string(reset)});
    }
  }
  progress.Finish();
  table.Print(ctx.out());
  return Status::OK();
}

Status ResetOffsetByTime(const ParsedOptions& o, CommandContext& ctx) {
  std::string group = o.Get("group");
  std::string topic = o.Get("topic");
  std::string ts_text = o.Get("timestamp");
  APOGEE_ASSIGN_OR_RETURN(int64_t timestamp, ParseTimestampArg(ts_text, NowMillis()));
  APOGEE_ASSIGN_OR_RETURN(bool force, o.GetBool("force", true));
  APOGEE_ASSIGN_OR_RETURN(int32_t queue_id, o.GetInt32("queue", -1));
  std::optional<int64_t> offset;
  if (o.Has("offset")) {
    APOGEE_ASSIGN_OR_RETURN(offset, o.GetInt64("offset", 0));
  }
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));

  if (o.Has("broker") && queue_id >= 0) {
    std::string addr = o.Get("broker");
    ctx.out() << "start reset consumer offset by specified, group[" << group << "], topic[" << topic
              << "], queueId[" << queue_id << "], broker[" << addr << "], timestamp(string)[" << ts_text
              << "], timestamp(long)[" << timestamp << "]\n";
    int64_t reset = 0;
    if (offset) {
      reset = *offset;
    } else {
      APOGEE_ASSIGN_OR_RETURN(reset, admin->SearchOffset(addr, topic, queue_id, timestamp));
    }
    ctx.out() << "reset consumer offset to " << reset << "\n";
    if (reset >= 0) APOGEE_RETURN_IF_ERROR(admin->UpdateConsumerOffset(addr, group, topic, queue_id, reset));
    return Status::OK();
  }

  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
  protocol::ResetOffsetRequestHeader header;
  header.group = group;
  header.topic = topic;
  header.timestamp = timestamp;
  header.is_force = force;
  header.queue_id = queue_id;
  header.offset = offset;
  std::map<protocol::MessageQueue, int64_t> table;
  TerminalProgress progress("resetOffsetByTime", masters.size());
  for (const auto& [name, addr] : masters) {
    progress.Step(name);
    auto body = admin->ResetOffset(addr, header);
    if (!body.ok()) {
      const std::string& msg = body.status().message();
      // Nobody to tell (no member online), or the broker lacks an offset for some queue:
      // set the stored offsets directly, queue by queue, as Java's old command does.
      if (msg.find("CONSUMER_NOT_ONLINE") != std::string::npos ||
          (msg.find("SYSTEM_ERROR") != std::string::npos && msg.find("not exist") != std::string::npos)) {
        progress.Finish();
        return ResetOffline(admin, ctx, group, topic, timestamp, force, ts_text);
      }
      return body.status();
    }
    table.insert(body->offset_table.begin(), body->offset_table.end());
  }
  progress.Finish();
  ctx.out() << "start reset consumer offset by specified, group[" << group << "], topic[" << topic
            << "], force[" << (force ? "true" : "false") << "], timestamp(string)[" << ts_text
            << "], timestamp(long)[" << timestamp << "]\n";
  TablePrinter out({{"#brokerName", 40}, {"#queueId", 40}, {"#offset", 0}});
  for (const auto& [mq, off] : table) out.AddRow({mq.broker_name, std::to_string(mq.queue_id), std::to_string(off)});
  out.Print(ctx.out());
  return Status::OK();
}

Status CloneGroupOffset(const ParsedOptions& o, CommandContext& ctx) {
  protocol::CloneGroupOffsetRequestHeader header;
  header.src_group = o.Get("srcGroup");
  header.dest_group = o.Get("destGroup");
  header.topic = o.Get("topic");
  APOGEE_ASSIGN_OR_RETURN(header.offline, o.GetBool("offline", false));
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(*header.topic));
  for (const auto& [name, addr] : masters) APOGEE_RETURN_IF_ERROR(admin->CloneGroupOffset(addr, header));
  ctx.out() << "clone group offset success. srcGroup[" << header.src_group << "], destGroup=["
            << header.dest_group << "], topic[" << *header.topic << "]\n";
  return Status::OK();
}

Status RedriveDlq(const ParsedOptions& o, CommandContext& ctx) {
  protocol::RedriveDlqMessageRequestHeader header;
  header.consumer_group = o.Get("consumerGroup");
  if (o.Has("maxCount")) {
    APOGEE_ASSIGN_OR_RETURN(int32_t max_count, o.GetInt32("maxCount", 0));
    if (max_count <= 0) return Status::InvalidArgument("--maxCount must be positive");
    header.max_count = max_count;
  }
  if (o.Has("topic")) header.topic = o.Get("topic");
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  std::map<std::string, std::string> brokers;  // broker name -> master address
  if (o.Has("brokerAddr")) {
    brokers[o.Get("brokerAddr")] = o.Get("brokerAddr");
  } else {
    auto masters = admin->MasterAddrsOfTopic(protocol::DlqTopic(header.consumer_group));
    if (!masters.ok() && masters.status().IsNotFound()) {
      return Status::NotFound("group " + header.consumer_group + " has no dead-letter queue (topic %DLQ%" +
                              header.consumer_group + " has no route)");
    }
    if (!masters.ok()) return masters.status();
    brokers = std::move(*masters);
  }
  TablePrinter table({{"#Broker", 32}, {"#Redriven", 10}, {"#Failed", 10}, {"#Skipped", 10}, {"#DLQ Offset", 0}});
  int64_t total = 0;
  TerminalProgress progress("redriveDlq", brokers.size());
  for (const auto& [name, addr] : brokers) {
    progress.Step(name);
    APOGEE_ASSIGN_OR_RETURN(auto r, admin->RedriveDlq(addr, header));
    total += r.redriven;
    table.AddRow({name, std::to_string(r.redriven), std::to_string(r.failed), std::to_string(r.skipped),
                  std::to_string(r.next_offset)});
  }
  progress.Finish();
  table.Print(ctx.out());
  ctx.out() << "redrove " << total << " message(s) of %DLQ%" << header.consumer_group << "\n";
  return Status::OK();
}

}  // namespace

void RegisterOffsetCommands(CommandRegistry* r) {
  r->Add({{"resetOffsetByTime",
           "Reset consumer offset by timestamp(without client restart).",
           {{"g", "group", true, true, "set the consumer group"},
            {"t", "topic", true, true, "set the topic"},
            {"s", "timestamp", true, true, "set the timestamp[now|currentTimeMillis|yyyy-MM-dd#HH:mm:ss:SSS]"},
            {"f", "force", true, false, "set the force rollback by timestamp switch[true|false]"},
            {"b", "broker", true, false, "broker addr"},
            {"q", "queue", true, false, "queue id"},
            {"o", "offset", true, false, "Expect queue offset"}}},
          ResetOffsetByTime});
  r->Add({{"cloneGroupOffset",
           "Clone offset from other group.",
           {{"s", "srcGroup", true, true, "set source consumer group"},
            {"d", "destGroup", true, true, "set destination consumer group"},
            {"t", "topic", true, true, "set the topic"},
            {"o", "offline", true, false, "the group or the topic is offline"}}},
          CloneGroupOffset});
  r->Add({{"redriveDlq",
           "Send the messages of a group's dead-letter queue (%DLQ%<group>) back to their original topic.",
           {{"g", "consumerGroup", true, true, "consumer group whose DLQ is redriven"},
            {"t", "topic", true, false, "only redrive messages that failed in this topic"},
            {"m", "maxCount", true, false, "look at no more than this many DLQ messages per broker"},
            {"b", "brokerAddr", true, false, "only this broker (default: every master of the DLQ topic)"}}},
          RedriveDlq});
}

}  // namespace apogee::admin
