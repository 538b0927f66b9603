#include "dashboard/consumer_api.h"

#include "admin/command_util.h"
#include "admin/consumer_commands.h"
#include "admin/group_offsets.h"
#include "base/string_util.h"
#include "dashboard/json_out.h"
#include "protocol/mix_all.h"

namespace apogee::dashboard {
namespace {

// The group's connection as any master serving it knows it; NotFound when none does
// (no member online).
Result<protocol::ConsumerConnection> FindConnection(admin::MQAdminClient* admin, const std::string& group) {
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin::MastersForGroup(admin, group));
  Result<protocol::ConsumerConnection> cc = Status::NotFound("the consumer group[" + group + "] not online");
  for (const auto& [name, addr] : masters) {
    cc = admin->GetConsumerConnection(addr, group);
    if (cc.ok()) break;
  }
  return cc;
}

void ConnectionFields(JsonWriter& w, const Result<protocol::ConsumerConnection>& cc) {
  protocol::json::Key(w, "members");
  w.StartArray();
  if (cc.ok()) {
    for (const protocol::Connection& c : cc->connection_set) {
      w.StartObject();
      Field(w, "clientId", c.client_id);
      Field(w, "clientAddr", c.client_addr);
      Field(w, "language", protocol::LanguageName(c.language));
      Field(w, "version", admin::VersionDesc(c.version));
      w.EndObject();
    }
  }
  w.EndArray();
  if (!cc.ok()) return;
  protocol::json::Key(w, "subscriptions");
  w.StartArray();
  for (const auto& [topic, sd] : cc->subscription_table) {
    w.StartObject();
    Field(w, "topic", sd.topic);
    Field(w, "expression", sd.sub_string);
    w.EndObject();
  }
  w.EndArray();
  Field(w, "consumeType", protocol::ConsumeTypeName(cc->consume_type));
  Field(w, "messageModel", protocol::MessageModelName(cc->message_model));
  Field(w, "consumeFromWhere", protocol::ConsumeFromWhereName(cc->consume_from_where));
}

}  // namespace

Result<std::string> ConsumersJson(admin::MQAdminClient* admin) {
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicList topics, admin->GetAllTopicList());
  std::string out;
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    protocol::json::Key(w, "groups");
    w.StartArray();
    for (const std::string& t : topics.topic_list) {
      if (!protocol::IsRetryTopic(t)) continue;
      std::string group = t.substr(protocol::kRetryGroupTopicPrefix.size());
      w.StartObject();
      Field(w, "group", group);
      auto stats = admin::MergedConsumeStats(admin, group, std::nullopt);
      if (stats.ok()) {
        Field(w, "consumeTps", stats->consume_tps);
        Field(w, "lag", admin::TotalLag(*stats));
        Field(w, "queues", static_cast<int64_t>(stats->offset_table.size()));
      } else {
        Field(w, "error", stats.status().message());
      }
      auto cc = FindConnection(admin, group);
      Field(w, "online", cc.ok() && !cc->connection_set.empty());
      Field(w, "memberCount", cc.ok() ? static_cast<int64_t>(cc->connection_set.size()) : int64_t{0});
      if (cc.ok()) {
        Field(w, "consumeType", protocol::ConsumeTypeName(cc->consume_type));
        Field(w, "messageModel", protocol::MessageModelName(cc->message_model));
      }
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  });
}

Result<std::string> ConsumerJson(admin::MQAdminClient* admin, const ApiRequest& request) {
  APOGEE_ASSIGN_OR_RETURN(std::string group, request.Required("group"));
  std::optional<std::string> topic;
  if (request.Has("topic")) topic = request.Get("topic");
  APOGEE_ASSIGN_OR_RETURN(protocol::ConsumeStats stats, admin::MergedConsumeStats(admin, group, topic));
  auto cc = FindConnection(admin, group);

  // The dead-letter queue: messages kept between its min and max offsets.
  std::string dlq_topic = protocol::DlqTopic(group);
  std::optional<int64_t> dlq_size;
  std::string dlq_error;
  auto dlq_masters = admin->MasterAddrsOfTopic(dlq_topic);
  if (dlq_masters.ok()) {
    int64_t size = 0;
    for (const auto& [name, addr] : *dlq_masters) {
      auto s = admin->GetTopicStats(addr, dlq_topic);
      if (!s.ok()) {
        dlq_error = s.status().message();
        continue;
      }
      for (const auto& [mq, off] : s->offset_table) size += off.max_offset - off.min_offset;
    }
    dlq_size = size;
  } else if (!dlq_masters.status().IsNotFound()) {
    dlq_error = dlq_masters.status().message();
  }

  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    Field(w, "group", group);
    Field(w, "consumeTps", stats.consume_tps);
    Field(w, "lag", admin::TotalLag(stats));
    Field(w, "timestamp", static_cast<int64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                   std::chrono::system_clock::now().time_since_epoch())
                                                   .count()));
    protocol::json::Key(w, "queues");
    w.StartArray();
    for (const auto& [mq, o] : stats.offset_table) {
      w.StartObject();
      Field(w, "topic", mq.topic);
      Field(w, "brokerName", mq.broker_name);
      Field(w, "queueId", mq.queue_id);
      Field(w, "brokerOffset", o.broker_offset);
      Field(w, "consumerOffset", o.consumer_offset);
      Field(w, "lag", o.broker_offset - o.consumer_offset);
      Field(w, "lastTimestamp", o.last_timestamp);
      w.EndObject();
    }
    w.EndArray();
    Field(w, "online", cc.ok() && !cc->connection_set.empty());
    if (!cc.ok()) Field(w, "connectionError", cc.status().message());
    ConnectionFields(w, cc);
    Field(w, "dlqTopic", dlq_topic);
    protocol::json::Key(w, "dlqSize");
    if (dlq_size) {
      w.Int64(*dlq_size);
    } else {
      w.Null();
    }
    if (!dlq_error.empty()) Field(w, "dlqError", dlq_error);
    w.EndObject();
  });
}

Result<std::string> ResetConsumerOffsets(admin::MQAdminClient* admin, const ApiRequest& request) {
  APOGEE_ASSIGN_OR_RETURN(std::string group, request.Required("group"));
  APOGEE_ASSIGN_OR_RETURN(std::string topic, request.Required("topic"));
  APOGEE_ASSIGN_OR_RETURN(int64_t timestamp, request.Int64("timestamp"));
  APOGEE_ASSIGN_OR_RETURN(bool force, request.Bool("force", true));
  APOGEE_ASSIGN_OR_RETURN(auto resets, admin::ResetGroupOffsetsByTime(admin, group, topic, timestamp, force));
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    Field(w, "group", group);
    Field(w, "topic", topic);
    Field(w, "timestamp", timestamp);
    protocol::json::Key(w, "offsets");
    w.StartArray();
    for (const admin::QueueOffsetReset& r : resets) {
      w.StartObject();
      Field(w, "brokerName", r.broker_name);
      Field(w, "queueId", r.queue_id);
      Field(w, "offset", r.offset);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  });
}

Result<std::string> RedriveDeadLetters(admin::MQAdminClient* admin, const ApiRequest& request) {
  protocol::RedriveDlqMessageRequestHeader header;
  APOGEE_ASSIGN_OR_RETURN(header.consumer_group, request.Required("group"));
  if (request.Has("maxCount")) {
    APOGEE_ASSIGN_OR_RETURN(int32_t max_count, request.Int32("maxCount"));
    if (max_count <= 0) return Status::InvalidArgument("maxCount must be positive");
    header.max_count = max_count;
  }
  if (request.Has("topic")) header.topic = request.Get("topic");
  std::string dlq_topic = protocol::DlqTopic(header.consumer_group);
  auto masters = admin->MasterAddrsOfTopic(dlq_topic);
  if (!masters.ok() && masters.status().IsNotFound()) {
    return Status::NotFound("group " + header.consumer_group + " has no dead-letter queue (topic " + dlq_topic +
                            " has no route)");
  }
  if (!masters.ok()) return masters.status();
  std::vector<std::pair<std::string, protocol::RedriveDlqMessageResponseHeader>> results;
  for (const auto& [name, addr] : *masters) {
    APOGEE_ASSIGN_OR_RETURN(auto r, admin->RedriveDlq(addr, header));
    results.emplace_back(name, r);
  }
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    Field(w, "group", header.consumer_group);
    int64_t total = 0;
    protocol::json::Key(w, "brokers");
    w.StartArray();
    for (const auto& [name, r] : results) {
      total += r.redriven;
      w.StartObject();
      Field(w, "brokerName", name);
      Field(w, "redriven", r.redriven);
      Field(w, "failed", r.failed);
      Field(w, "skipped", r.skipped);
      Field(w, "nextOffset", r.next_offset);
      w.EndObject();
    }
    w.EndArray();
    Field(w, "redriven", total);
    w.EndObject();
  });
}

}  // namespace apogee::dashboard
