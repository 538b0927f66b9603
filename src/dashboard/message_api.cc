#include "dashboard/message_api.h"

#include <algorithm>
#include <limits>

#include "admin/message_resend.h"
#include "base/string_util.h"
#include "message/message_id.h"
#include "protocol/mix_all.h"

namespace apogee::dashboard {
namespace {

// The group Java's tools pull with (MixAll.TOOLS_CONSUMER_GROUP); it commits nothing.
constexpr char kToolsConsumerGroup[] = "TOOLS_CONSUMER";
constexpr int32_t kDefaultMax = 64;
constexpr int32_t kMaxMax = 1000;
constexpr int32_t kPullBatch = 32;

Result<int32_t> MaxParam(const ApiRequest& request) {
  APOGEE_ASSIGN_OR_RETURN(int32_t max, request.Int32("max", kDefaultMax));
  if (max <= 0 || max > kMaxMax) {
    return Status::InvalidArgument("max must be between 1 and " + std::to_string(kMaxMax));
  }
  return max;
}

std::string OffsetMsgIdOf(const message::MessageExt& msg) {
  if (!msg.offset_msg_id.empty()) return msg.offset_msg_id;
  return message::CreateOffsetMsgId(msg.store_host, msg.commit_log_offset);
}

// {"messages":[...],"truncated":bool}; `full` messages carry properties and body.
std::string ListJson(const std::vector<message::MessageExt>& msgs, bool truncated, bool full = false) {
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    protocol::json::Key(w, "messages");
    w.StartArray();
    for (const message::MessageExt& m : msgs) WriteMessage(w, m, full);
    w.EndArray();
    Field(w, "truncated", truncated);
    w.EndObject();
  });
}

}  // namespace

void WriteMessage(JsonWriter& w, const message::MessageExt& msg, bool full) {
  w.StartObject();
  Field(w, "msgId", msg.msg_id());
  Field(w, "offsetMsgId", OffsetMsgIdOf(msg));
  Field(w, "topic", msg.topic);
  Field(w, "tags", msg.tags().value_or(""));
  std::string keys;
  for (const std::string& k : msg.keys()) keys += (keys.empty() ? "" : " ") + k;
  Field(w, "keys", keys);
  Field(w, "queueId", msg.queue_id);
  Field(w, "queueOffset", msg.queue_offset);
  Field(w, "commitLogOffset", msg.commit_log_offset);
  Field(w, "bornTimestamp", msg.born_timestamp);
  Field(w, "storeTimestamp", msg.store_timestamp);
  Field(w, "bornHost", msg.born_host.ToString());
  Field(w, "storeHost", msg.store_host.ToString());
  Field(w, "reconsumeTimes", msg.reconsume_times);
  Field(w, "bodySize", static_cast<int64_t>(msg.body.size()));
  if (full) {
    Field(w, "sysFlag", msg.sys_flag);
    Field(w, "bodyCrc", msg.body_crc);
    StringMapField(w, "properties", msg.properties);
    // Hex, so any bytes survive JSON; the page decodes it as UTF-8 text or shows it as is.
    Field(w, "bodyHex", HexEncodeUpper(msg.body));
  }
  w.EndObject();
}

Result<std::string> MessagesByKey(admin::MQAdminClient* admin, const ApiRequest& request) {
  protocol::QueryMessageRequestHeader header;
  APOGEE_ASSIGN_OR_RETURN(header.topic, request.Required("topic"));
  APOGEE_ASSIGN_OR_RETURN(header.key, request.Required("key"));
  APOGEE_ASSIGN_OR_RETURN(header.begin_timestamp, request.Int64("begin", 0));
  APOGEE_ASSIGN_OR_RETURN(header.end_timestamp, request.Int64("end", std::numeric_limits<int64_t>::max()));
  APOGEE_ASSIGN_OR_RETURN(header.max_num, MaxParam(request));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(header.topic));
  std::vector<message::MessageExt> found;
  for (const auto& [name, addr] : masters) {
    APOGEE_ASSIGN_OR_RETURN(auto msgs, admin->QueryMessageByKey(addr, header));
    for (message::MessageExt& m : msgs) {
      // The index matches key hashes; keep only messages that really carry the key.
      std::vector<std::string> keys = m.keys();
      if (std::find(keys.begin(), keys.end(), header.key) != keys.end()) found.push_back(std::move(m));
    }
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.store_timestamp < b.store_timestamp; });
  return ListJson(found, false);
}

Result<std::string> MessagesByTime(admin::MQAdminClient* admin, const ApiRequest& request) {
  APOGEE_ASSIGN_OR_RETURN(std::string topic, request.Required("topic"));
  APOGEE_ASSIGN_OR_RETURN(int64_t begin, request.Int64("begin"));
  APOGEE_ASSIGN_OR_RETURN(int64_t end, request.Int64("end"));
  APOGEE_ASSIGN_OR_RETURN(int32_t max, MaxParam(request));
  if (end < begin) return Status::InvalidArgument("end is before begin");
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicRouteData route, admin->GetTopicRoute(topic));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
  std::vector<message::MessageExt> found;
  bool truncated = false;
  for (const protocol::QueueData& q : route.queue_datas) {
    auto m = masters.find(q.broker_name);
    if (m == masters.end()) continue;
    const std::string& addr = m->second;
    for (int32_t id = 0; id < q.read_queue_nums; ++id) {
      APOGEE_ASSIGN_OR_RETURN(int64_t offset, admin->SearchOffset(addr, topic, id, begin));
      APOGEE_ASSIGN_OR_RETURN(int64_t max_offset, admin->GetMaxOffset(addr, topic, id));
      // At most `max` from each queue: the merged list is cut to `max` after sorting.
      int32_t taken = 0;
      bool past_end = false;
      while (offset < max_offset && !past_end && taken < max) {
        int64_t next = offset;
        APOGEE_ASSIGN_OR_RETURN(auto msgs, admin->Pull(addr, kToolsConsumerGroup, topic, id, offset,
                                                       std::min(kPullBatch, max - taken), &next));
        if (msgs.empty() || next <= offset) break;
        for (message::MessageExt& msg : msgs) {
          if (msg.store_timestamp > end) {
            past_end = true;
            break;
          }
          if (msg.store_timestamp < begin) continue;
          found.push_back(std::move(msg));
          ++taken;
        }
        offset = next;
      }
      if (taken >= max && !past_end && offset < max_offset) truncated = true;
    }
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.store_timestamp < b.store_timestamp; });
  if (found.size() > static_cast<size_t>(max)) {
    found.resize(max);
    truncated = true;
  }
  return ListJson(found, truncated);
}

Result<std::string> MessageById(admin::MQAdminClient* admin, const ApiRequest& request) {
  APOGEE_ASSIGN_OR_RETURN(std::string id, request.Required("id"));
  id = std::string(TrimWhitespace(id));
  std::vector<message::MessageExt> found;
  // As Java's MQAdminImpl.viewMessage: an offset id is read where it is stored; otherwise
  // (or when that fails) the id is taken as a client id in the topic's index.
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
    if (!request.Has("topic")) {
      return Status::NotFound("message " + id + " not found as an offset id (" + view_error.message() +
                              "); for a client id (UNIQ_KEY) give its topic");
    }
    std::string topic = request.Get("topic");
    APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
    protocol::QueryMessageRequestHeader header{topic, id, 32, 0, std::numeric_limits<int64_t>::max()};
    for (const auto& [name, addr] : masters) {
      APOGEE_ASSIGN_OR_RETURN(auto msgs, admin->QueryMessageByKey(addr, header, true));
      for (auto& m : msgs) {
        if (m.uniq_key() == std::optional<std::string_view>(id)) found.push_back(std::move(m));
      }
    }
    if (found.empty()) return Status::NotFound("no message with id " + id + " in topic " + topic);
  }
  return ListJson(found, false, true);
}

Result<std::string> ResendMessage(admin::MQAdminClient* admin, const ApiRequest& request) {
  APOGEE_ASSIGN_OR_RETURN(std::string id, request.Required("id"));
  APOGEE_ASSIGN_OR_RETURN(std::string group, request.Required("group"));
  auto offset_id = message::ParseOffsetMsgId(TrimWhitespace(id));
  if (!offset_id.ok()) {
    return Status::InvalidArgument("resend needs the message's offset msgId (broker address + CommitLog offset): " +
                                   offset_id.status().message());
  }
  std::string broker = offset_id->store_host.ToString();
  APOGEE_ASSIGN_OR_RETURN(message::MessageExt msg, admin->ViewMessage(broker, offset_id->physical_offset));
  APOGEE_RETURN_IF_ERROR(admin::ResendToGroup(admin, broker, msg, group));
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    Field(w, "msgId", msg.msg_id());
    Field(w, "topic", msg.topic);
    Field(w, "group", group);
    Field(w, "retryTopic", protocol::RetryTopic(group));
    Field(w, "delayLevel", admin::kResendDelayLevel);
    w.EndObject();
  });
}

}  // namespace apogee::dashboard
