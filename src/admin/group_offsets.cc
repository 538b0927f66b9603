#include "admin/group_offsets.h"

#include "admin/command_util.h"

namespace apogee::admin {

Result<protocol::ConsumeStats> MergedConsumeStats(MQAdminClient* admin, const std::string& group,
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

int64_t TotalLag(const protocol::ConsumeStats& stats) {
  int64_t lag = 0;
  for (const auto& [mq, w] : stats.offset_table) lag += w.broker_offset - w.consumer_offset;
  return lag;
}

namespace {

// The offline path: Java's resetOffsetByTimestampOld.
Result<std::vector<QueueOffsetReset>> ResetOffline(MQAdminClient* admin, const std::string& group,
                                                   const std::string& topic, int64_t timestamp, bool force) {
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicRouteData route, admin->GetTopicRoute(topic));
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
  std::vector<QueueOffsetReset> out;
  for (const protocol::QueueData& q : route.queue_datas) {
    auto m = masters.find(q.broker_name);
    if (m == masters.end()) continue;
    const std::string& addr = m->second;
    for (int32_t id = 0; id < q.read_queue_nums; ++id) {
      int64_t consumer_offset = 0;
      auto committed = admin->QueryConsumerOffset(addr, group, topic, id);
      if (committed.ok()) {
        consumer_offset = *committed;
      } else {
        APOGEE_ASSIGN_OR_RETURN(consumer_offset, admin->GetMinOffset(addr, topic, id));
      }
      APOGEE_ASSIGN_OR_RETURN(int64_t ts_offset, admin->SearchOffset(addr, topic, id, timestamp));
      int64_t reset = force || ts_offset < consumer_offset ? ts_offset : consumer_offset;
      APOGEE_RETURN_IF_ERROR(admin->UpdateConsumerOffset(addr, group, topic, id, reset));
      out.push_back({q.broker_name, id, reset});
    }
  }
  return out;
}

}  // namespace

Result<std::vector<QueueOffsetReset>> ResetGroupOffsetsByTime(MQAdminClient* admin, const std::string& group,
                                                              const std::string& topic, int64_t timestamp,
                                                              bool force) {
  APOGEE_ASSIGN_OR_RETURN(auto masters, admin->MasterAddrsOfTopic(topic));
  protocol::ResetOffsetRequestHeader header;
  header.group = group;
  header.topic = topic;
  header.timestamp = timestamp;
  header.is_force = force;
  std::vector<QueueOffsetReset> out;
  for (const auto& [name, addr] : masters) {
    auto body = admin->ResetOffset(addr, header);
    if (!body.ok()) {
      const std::string& msg = body.status().message();
      // As mqadmin's resetOffsetByTime: nobody to tell, or no stored offset for a queue.
      if (msg.find("CONSUMER_NOT_ONLINE") != std::string::npos ||
          (msg.find("SYSTEM_ERROR") != std::string::npos && msg.find("not exist") != std::string::npos)) {
        return ResetOffline(admin, group, topic, timestamp, force);
      }
      return body.status();
    }
    for (const auto& [mq, offset] : body->offset_table) out.push_back({mq.broker_name, mq.queue_id, offset});
  }
  return out;
}

}  // namespace apogee::admin
