#include "admin/message_commands.h"

#include <limits>

#include "admin/command_util.h"
#include "admin/progress.h"
#include "admin/message_send.h"
#include "admin/table_printer.h"
#include "base/string_util.h"
#include "message/message_format.h"
#include "message/message_id.h"
#include "message/uniq_key.h"
#include "protocol/consumer_headers.h"
#include "protocol/mix_all.h"

namespace apogee::admin {
namespace {

// The group Java's tools pull with when the user names none (MixAll.TOOLS_CONSUMER_GROUP).

void Line(std::ostream& out, const std::string& label, const std::string& value) {
  out << Pad(label, 20, true) << " " << value << "\n";
}

std::string PropertiesToString(const message::MessageProperties& props) {
  std::string s = "{";
  for (const auto& [k, v] : props) {
    if (s.size() > 1) s += ", ";
    s += k + "=" + v;
  }
  return s + "}";
}

std::string JoinKeys(const message::Message& msg) {
  auto keys = msg.properties.Get(message::kPropertyKeys);
  return keys ? std::string(*keys) : "null";
}

Status QueryMsgById(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  bool first = true;
  for (const std::string& raw : SplitString(o.Get("msgId"), ',', true)) {
    std::string id(TrimWhitespace(raw));
    std::vector<message::MessageExt> found;
    // As Java's MQAdminImpl.viewMessage: an id that decodes as a broker-made offset id
    // (store host + CommitLog offset) is read there; if that fails, or the id is not one,
    // it is taken as a client id (UNIQ_KEY) and looked up in the topic's index.
    Status view_error = Status::NotFound("not an offset message id");
    if (auto offset_id = message::ParseOffsetMsgId(id); offset_id.ok()) {
      auto msg = admin->ViewMessage(offset_id->store_host.ToString(), offset_id->physical_offset);
      if (msg.ok()) {
        found.push_back(std::move(*msg));
      } else {
        view_error = msg.status();
      }
    }
    if (found.empty()) {
      if (!o.Has("topic")) {
        return Status::InvalidArgument("message " + id + " not found as an offset id (" + view_error.message() +
                                       "); for a client id (UNIQ_KEY) pass its topic with -t");
      }
      APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(o.Get("topic")));
      protocol::QueryMessageRequestHeader header{o.Get("topic"), id, 32, 0,
                                                 std::numeric_limits<int64_t>::max()};
      for (const auto& [name, addr] : masters) {
        APOGEE_ASSIGN_OR_RETURN(auto msgs, admin->QueryMessageByKey(addr, header, true));
        for (auto& m : msgs) {
          if (m.uniq_key() == std::optional<std::string_view>(id)) found.push_back(std::move(m));
        }
      }
      if (found.empty()) {
        return Status::NotFound("no message with id " + id + " in topic " + o.Get("topic"));
      }
    }
    for (const message::MessageExt& msg : found) {
      if (!first) ctx.out() << "\n";
      first = false;
      PrintMessageDetail(ctx.out(), msg);
    }
  }
  return Status::OK();
}

Status QueryMsgByKey(const ParsedOptions& o, CommandContext& ctx) {
  protocol::QueryMessageRequestHeader header;
  header.topic = o.Get("topic");
  header.key = o.Get("msgKey");
  APOGEE_ASSIGN_OR_RETURN(header.begin_timestamp, o.GetInt64("beginTimestamp", 0));
  APOGEE_ASSIGN_OR_RETURN(header.end_timestamp,
                          o.GetInt64("endTimestamp", std::numeric_limits<int64_t>::max()));
  APOGEE_ASSIGN_OR_RETURN(header.max_num, o.GetInt32("maxNum", 64));
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(header.topic));
  TablePrinter table({{"#Message ID", 50, true, " "}, {"#QID", 4, false, " "}, {"#Offset", 40, false}});
  TerminalProgress progress("queryMsgByKey", masters.size());
  for (const auto& [name, addr] : masters) {
    progress.Step(name);
    APOGEE_ASSIGN_OR_RETURN(auto msgs, admin->QueryMessageByKey(addr, header));
    for (const message::MessageExt& m : msgs) {
      // The index matches key hashes; keep only messages that really carry the key.
      std::vector<std::string> keys = m.keys();
      if (std::find(keys.begin(), keys.end(), header.key) == keys.end()) continue;
      table.AddRow({std::string(m.msg_id()), std::to_string(m.queue_id), std::to_string(m.queue_offset)});
    }
  }
  progress.Finish();
  table.Print(ctx.out());
  return Status::OK();
}

Result<std::string> MasterOfBrokerName(MQAdminClient* admin, const std::string& topic,
                                       const std::string& broker_name) {
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
  auto it = masters.find(broker_name);
  if (it == masters.end()) {
    return Status::NotFound("broker " + broker_name + " does not serve topic " + topic);
  }
  return it->second;
}

Status QueryMsgByOffset(const ParsedOptions& o, CommandContext& ctx) {
  std::string topic = o.Get("topic");
  APOGEE_ASSIGN_OR_RETURN(int32_t queue_id, o.GetInt32("queueId", 0));
  APOGEE_ASSIGN_OR_RETURN(int64_t offset, o.GetInt64("offset", 0));
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(std::string addr, MasterOfBrokerName(admin, topic, o.Get("brokerName")));
  int64_t next = 0;
  APOGEE_ASSIGN_OR_RETURN(auto msgs, admin->Pull(addr, protocol::kToolsConsumerGroup, topic,
                                                 queue_id, offset, 1, &next));
  if (msgs.empty() || msgs.front().queue_offset != offset) {
    return Status::NotFound("no message at offset " + std::to_string(offset) + " of " + topic + " queue " +
                            std::to_string(queue_id) + " on " + o.Get("brokerName"));
  }
  PrintMessageDetail(ctx.out(), msgs.front());
  return Status::OK();
}

Status SendMessage(const ParsedOptions& o, CommandContext& ctx) {
  SendRequest req;
  req.topic = o.Get("topic");
  req.body = o.Get("body");
  req.keys = o.Get("key");
  req.tags = o.Get("tags");
  if (o.Has("qid")) {
    if (!o.Has("broker")) return Status::InvalidArgument("Broker name must be set if the queue is chosen!");
    APOGEE_ASSIGN_OR_RETURN(int32_t qid, o.GetInt32("qid", -1));
    req.queue = std::make_pair(o.Get("broker"), qid);
  }
  APOGEE_ASSIGN_OR_RETURN(std::string namesrv, ctx.NamesrvAddr(o));
  TablePrinter table({{"#Broker Name", 32}, {"#QID", 4}, {"#Send Result", 20, true, "    "}, {"#MsgId", 0}});
  auto result = SendOneMessage(namesrv, req);
  if (!result.ok()) {
    table.AddRow({"Unknown", "Unknown", "Failed", "None"});
    table.Print(ctx.out());
    return result.status();
  }
  table.AddRow({result->broker_name, std::to_string(result->queue_id), result->send_status, result->msg_id});
  table.Print(ctx.out());
  return Status::OK();
}

void PrintConsumed(std::ostream& out, const message::MessageExt& m) {
  auto tags = m.tags();
  out << "MSGID: " << m.msg_id() << " QID: " << m.queue_id << " OFFSET: " << m.queue_offset
      << " TAGS: [" << (tags ? std::string(*tags) : "null") << "] KEYS: [" << JoinKeys(m)
      << "] BORN: " << FormatTimestamp(m.born_timestamp) << " BODY: " << m.body << "\n";
}

Status ConsumeMessage(const ParsedOptions& o, CommandContext& ctx) {
  std::string topic = o.Get("topic");
  bool commit = o.Has("consumerGroup");
  std::string group = o.Get("consumerGroup", std::string(protocol::kToolsConsumerGroup));
  APOGEE_ASSIGN_OR_RETURN(int64_t remaining, o.GetInt64("MessageNumber", 128));
  APOGEE_ASSIGN_OR_RETURN(int64_t begin_ts, o.GetInt64("beginTimestamp", -1));
  APOGEE_ASSIGN_OR_RETURN(int64_t end_ts, o.GetInt64("endTimestamp", std::numeric_limits<int64_t>::max()));
  if (remaining <= 0) return Status::InvalidArgument("-c (MessageNumber) must be positive");
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicRouteData route, admin->GetTopicRoute(topic));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));

  struct Queue {
    std::string broker_name, addr;
    int32_t queue_id;
  };
  std::vector<Queue> queues;
  for (const protocol::QueueData& q : route.queue_datas) {
    if (o.Has("brokerName") && q.broker_name != o.Get("brokerName")) continue;
    auto m = masters.find(q.broker_name);
    if (m == masters.end()) continue;
    for (int32_t id = 0; id < q.read_queue_nums; ++id) {
      if (o.Has("queueId") && std::to_string(id) != o.Get("queueId")) continue;
      queues.push_back({q.broker_name, m->second, id});
    }
  }
  std::sort(queues.begin(), queues.end(), [](const Queue& a, const Queue& b) {
    return std::tie(a.broker_name, a.queue_id) < std::tie(b.broker_name, b.queue_id);
  });
  if (queues.empty()) return Status::NotFound("no readable queue of " + topic + " matches the given broker/queue");

  for (const Queue& q : queues) {
    if (remaining <= 0) break;
    int64_t offset = 0;
    if (o.Has("offset")) {
      APOGEE_ASSIGN_OR_RETURN(offset, o.GetInt64("offset", 0));
    } else if (begin_ts >= 0) {
      APOGEE_ASSIGN_OR_RETURN(offset, admin->SearchOffset(q.addr, topic, q.queue_id, begin_ts));
    } else if (commit) {
      auto committed = admin->QueryConsumerOffset(q.addr, group, topic, q.queue_id);
      if (committed.ok()) {
        offset = *committed;
      } else {
        APOGEE_ASSIGN_OR_RETURN(offset, admin->GetMinOffset(q.addr, topic, q.queue_id));
      }
    } else {
      APOGEE_ASSIGN_OR_RETURN(offset, admin->GetMinOffset(q.addr, topic, q.queue_id));
    }
    APOGEE_ASSIGN_OR_RETURN(int64_t max_offset, admin->GetMaxOffset(q.addr, topic, q.queue_id));
    int64_t consumed_to = offset;
    while (remaining > 0 && offset < max_offset) {
      int64_t next = offset;
      APOGEE_ASSIGN_OR_RETURN(auto msgs,
                              admin->Pull(q.addr, group, topic, q.queue_id, offset,
                                          static_cast<int32_t>(std::min<int64_t>(remaining, 32)), &next));
      for (const message::MessageExt& m : msgs) {
        if (remaining <= 0) break;
        consumed_to = m.queue_offset + 1;
        if (m.store_timestamp > end_ts) {
          remaining = 0;
          break;
        }
        PrintConsumed(ctx.out(), m);
        --remaining;
      }
      if (next <= offset) break;  // nothing more the broker will give
      offset = msgs.empty() ? next : consumed_to;
      if (msgs.empty()) consumed_to = next;
    }
    if (commit && consumed_to > 0) {
      APOGEE_RETURN_IF_ERROR(admin->UpdateConsumerOffset(q.addr, group, topic, q.queue_id, consumed_to));
    }
  }
  return Status::OK();
}

}  // namespace

void PrintMessageDetail(std::ostream& out, const message::MessageExt& m) {
  auto tags = m.tags();
  Line(out, "OffsetID:", m.offset_msg_id);
  Line(out, "Topic:", m.topic);
  Line(out, "Tags:", "[" + (tags ? std::string(*tags) : "null") + "]");
  Line(out, "Keys:", "[" + JoinKeys(m) + "]");
  Line(out, "Queue ID:", std::to_string(m.queue_id));
  Line(out, "Queue Offset:", std::to_string(m.queue_offset));
  Line(out, "CommitLog Offset:", std::to_string(m.commit_log_offset));
  Line(out, "Reconsume Times:", std::to_string(m.reconsume_times));
  Line(out, "Born Timestamp:", FormatTimestamp(m.born_timestamp));
  Line(out, "Store Timestamp:", FormatTimestamp(m.store_timestamp));
  Line(out, "Born Host:", m.born_host.ToString());
  Line(out, "Store Host:", m.store_host.ToString());
  Line(out, "System Flag:", std::to_string(m.sys_flag));
  Line(out, "Properties:", PropertiesToString(m.properties));
  Line(out, "Message Body:", m.body);
}

void RegisterMessageCommands(CommandRegistry* r) {
  r->Add({{"queryMsgById",
           "Query Message by Id.",
           {{"i", "msgId", true, true, "Message Id (offset id, or client id with -t)"},
            {"t", "topic", true, false, "topic name (needed for a client id)"}}},
          QueryMsgById});
  r->Add({{"queryMsgByKey",
           "Query Message by Key.",
           {{"t", "topic", true, true, "Topic name"},
            {"k", "msgKey", true, true, "Message Key"},
            {"b", "beginTimestamp", true, false, "Begin timestamp(ms). default:0, eg:1676730526212"},
            {"e", "endTimestamp", true, false, "End timestamp(ms). default:Long.MAX_VALUE, eg:1676730526212"},
            {"m", "maxNum", true, false, "The maximum number of messages returned by the query, default:64"}}},
          QueryMsgByKey});
  r->Add({{"queryMsgByOffset",
           "Query Message by offset.",
           {{"t", "topic", true, true, "topic name"},
            {"b", "brokerName", true, true, "Broker Name"},
            {"i", "queueId", true, true, "Queue Id"},
            {"o", "offset", true, true, "Queue Offset"}}},
          QueryMsgByOffset});
  r->Add({{"sendMessage",
           "Send a message.",
           {{"t", "topic", true, true, "Topic name"},
            {"p", "body", true, true, "UTF-8 string format of the message body"},
            {"k", "key", true, false, "Message keys"},
            {"c", "tags", true, false, "Message tags"},
            {"b", "broker", true, false, "Send message to target broker"},
            {"i", "qid", true, false, "Send message to target queue"}}},
          SendMessage});
  r->Add({{"consumeMessage",
           "Consume message.",
           {{"t", "topic", true, true, "Topic name"},
            {"b", "brokerName", true, false, "Broker name"},
            {"i", "queueId", true, false, "Queue Id"},
            {"o", "offset", true, false, "Queue offset"},
            {"g", "consumerGroup", true, false,
             "Consumer group name; when given, reading starts at and commits the group's offset"},
            {"s", "beginTimestamp", true, false, "Begin timestamp(ms)"},
            {"e", "endTimestamp", true, false, "End timestamp(ms)"},
            {"c", "MessageNumber", true, false, "Number of message to be consumed (default 128)"}}},
          ConsumeMessage});
}

}  // namespace apogee::admin
