#include "admin/stats_commands.h"

#include <chrono>
#include <cstdio>
#include <set>
#include <string>

#include "admin/command_util.h"
#include "admin/consumer_commands.h"
#include "protocol/broker_stats_data.h"
#include "protocol/custom_header.h"
#include "protocol/mix_all.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"

namespace apogee::admin {
namespace {

// StatsAllSubCommand.compute24HourSum: the day view's sum, else the hour's, else the
// minute's (a young broker has no full day or hour yet).
int64_t Sum24Hours(const protocol::BrokerStatsData& data) {
  if (data.stats_day.sum != 0) return data.stats_day.sum;
  if (data.stats_hour.sum != 0) return data.stats_hour.sum;
  return data.stats_minute.sum;
}

std::string Fmt(const char* format, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), format, args...);
  return buf;
}

// VIEW_BROKER_STATS_DATA at one broker (Java's viewBrokerStatsData); an item the broker
// has not seen is an error ("The stats <name> <key> not exist").
Result<protocol::BrokerStatsData> ViewBrokerStatsData(MQAdminClient* admin, const std::string& addr,
                                                      const std::string& name, const std::string& key) {
  protocol::RemotingCommand request =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kViewBrokerStatsData);
  protocol::EncodeCustomHeader(protocol::ViewBrokerStatsDataRequestHeader{name, key}, &request);
  APOGEE_ASSIGN_OR_RETURN(protocol::RemotingCommand response,
                          admin->transport()->Invoke(addr, std::move(request), std::chrono::seconds(5)));
  if (response.code != protocol::response_code::kSuccess) return ResponseError(addr, response);
  return protocol::DecodeBrokerStatsData(response.body);
}

// UtilAll.frontStringAtLeast: at most `size` characters.
std::string Front(const std::string& s, size_t size) { return s.substr(0, size); }

void PrintTopic(MQAdminClient* admin, const std::string& topic, bool active_only, std::ostream& out) {
  auto masters = admin->MasterAddrsOfTopic(topic);
  if (!masters.ok()) return;  // Java skips a topic whose route fails
  double in_tps = 0;
  int64_t in_today = 0;
  for (const auto& [name, addr] : *masters) {
    auto data = ViewBrokerStatsData(admin, addr, "TOPIC_PUT_NUMS", topic);
    if (!data.ok()) continue;  // no puts on that broker yet
    in_tps += data->stats_minute.tps;
    in_today += Sum24Hours(*data);
  }
  std::set<std::string> groups;
  for (const auto& [name, addr] : *masters) {
    auto list = admin->QueryTopicConsumeByWho(addr, topic);
    if (list.ok()) groups.insert(list->group_list.begin(), list->group_list.end());
  }
  if (groups.empty()) {
    if (!active_only || in_today > 0) {
      out << Fmt("%-64s  %-32s %12d %11.2f %11s %14lld %14s\n", Front(topic, 64).c_str(), "", 0,
                    in_tps, "", static_cast<long long>(in_today), "NO_CONSUMER");
    }
    return;
  }
  for (const std::string& group : groups) {
    double out_tps = 0;
    int64_t out_today = 0;
    for (const auto& [name, addr] : *masters) {
      auto data = ViewBrokerStatsData(admin, addr, "GROUP_GET_NUMS", topic + "@" + group);
      if (!data.ok()) continue;
      out_tps += data->stats_minute.tps;
      out_today += Sum24Hours(*data);
    }
    int64_t accumulation = 0;
    if (auto stats = ExamineConsumeStats(admin, group, topic); stats.ok()) {
      for (const auto& [mq, w] : stats->offset_table) accumulation += w.broker_offset - w.consumer_offset;
      if (accumulation < 0) accumulation = 0;
    }
    if (!active_only || in_today > 0 || out_today > 0) {
      out << Fmt("%-64s  %-64s %12lld %11.2f %11.2f %14lld %14lld\n", Front(topic, 64).c_str(),
                    Front(group, 64).c_str(), static_cast<long long>(accumulation), in_tps, out_tps,
                    static_cast<long long>(in_today), static_cast<long long>(out_today));
    }
  }
}

Status StatsAll(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicList topics, admin->GetAllTopicList());
  ctx.out() << Fmt("%-32s  %-32s %12s %11s %11s %14s %14s\n", "#Topic", "#Consumer Group", "#Accumulation",
                      "#InTPS", "#OutTPS", "#InMsg24Hour", "#OutMsg24Hour");
  const bool active_only = o.Has("activeTopic");
  const std::string only = o.Has("topic") ? o.Get("topic") : "";
  for (const std::string& topic : topics.topic_list) {
    if (protocol::IsRetryTopic(topic) || protocol::IsDlqTopic(topic)) continue;
    if (!only.empty() && topic != only) continue;
    PrintTopic(admin, topic, active_only, ctx.out());
  }
  return Status::OK();
}

}  // namespace

void RegisterStatsCommands(CommandRegistry* r) {
  r->Add({{"statsAll",
           "Topic and Consumer tps stats",
           {{"a", "activeTopic", false, false, "print active topic only"},
            {"t", "topic", true, false, "print select topic only"}}},
          StatsAll});
}

}  // namespace apogee::admin
