#include "broker/stats/broker_metrics.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/stats/broker_stats_manager.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/client/producer_manager.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "base/logging.h"
#include "env/disk_usage.h"
#include "metrics/http_server.h"
#include "protocol/mix_all.h"
#include "store/flush_stats.h"
#include "store/message_store.h"

namespace apogee::broker {
namespace {

using metrics::Label;
using metrics::PromWriter;

constexpr std::string_view kNodeType = "broker";
constexpr std::string_view kNormal = "normal";

template <size_t N>
metrics::HistogramSnapshot ToSnapshot(const store::FlushDistribution<N>& d) {
  metrics::HistogramSnapshot snap;
  int64_t running = 0;
  for (size_t i = 0; i < N; ++i) {
    snap.bounds.push_back(static_cast<double>(d.bounds()[i]));
    running += d.bucket(i);
    snap.cumulative.push_back(running);
  }
  running += d.bucket(N);
  snap.cumulative.push_back(running);
  snap.count = running;
  snap.sum = static_cast<double>(d.sum());
  return snap;
}

using protocol::IsDlqTopic;
using protocol::IsRetryTopic;

// "topic@group" -> (topic, group); topics never contain '@' (TopicValidator).
std::pair<std::string_view, std::string_view> SplitKey(std::string_view key) {
  const size_t at = key.find('@');
  if (at == std::string_view::npos) return {key, {}};
  return {key.substr(0, at), key.substr(at + 1)};
}

// Java 5.1's ConsumerLagCalculator per topic@group, summed over queues: lag = max offset -
// committed offset, in flight = pulled (the last pull's next offset) - committed, ready =
// max offset - pulled (the committed offset when the group has not pulled since start);
// the latencies are the ages of the first lagging and the first ready message.
void WriteLag(PromWriter& w, const BrokerLabels& l, const BrokerContext& context, int64_t now) {
  if (!context.consumer_offset_manager) return;
  const store::MessageStore& store = *context.store;
  const ConsumerOffsetManager& offsets = *context.consumer_offset_manager;
  struct Lag {
    int64_t lag = 0;
    int64_t inflight = 0;
    int64_t ready = 0;
    int64_t lag_latency_ms = 0;
    int64_t queueing_latency_ms = 0;
  };
  auto age = [&](std::string_view topic, int32_t queue_id, int64_t offset) -> int64_t {
    const int64_t stored = store.GetMessageStoreTimestamp(topic, queue_id, offset);
    return stored > 0 ? std::max<int64_t>(0, now - stored) : 0;
  };
  std::map<std::string, Lag> lags;  // by "topic@group", sorted for a stable scrape
  for (const auto& [key, queues] : offsets.AllOffsets()) {
    const auto [topic, group] = SplitKey(key);
    Lag& lag = lags[key];
    for (const auto& [queue_id, committed_raw] : queues) {
      const int64_t max = store.GetMaxOffsetInQueue(topic, queue_id);
      const int64_t committed = std::clamp<int64_t>(committed_raw, 0, std::max<int64_t>(0, max));
      int64_t pulled = offsets.QueryPullOffset(group, topic, queue_id);
      pulled = pulled < committed ? committed : std::min(pulled, std::max<int64_t>(0, max));
      lag.lag += max - committed;
      lag.inflight += pulled - committed;
      lag.ready += max - pulled;
      if (max > committed) lag.lag_latency_ms = std::max(lag.lag_latency_ms, age(topic, queue_id, committed));
      if (max > pulled) {
        lag.queueing_latency_ms = std::max(lag.queueing_latency_ms, age(topic, queue_id, pulled));
      }
    }
  }
  struct Family {
    std::string_view name;
    std::string_view help;
    int64_t Lag::*field;
  };
  for (const Family& f :
       {Family{"rocketmq_consumer_ready_messages", "messages stored and not yet pulled by the group", &Lag::ready},
        Family{"rocketmq_consumer_lag_messages", "messages stored and not yet consumed (committed) by the group", &Lag::lag},
        Family{"rocketmq_consumer_inflight_messages", "messages pulled by the group and not yet committed", &Lag::inflight},
        Family{"rocketmq_consumer_lag_latency", "ms since the oldest message the group has not consumed was stored", &Lag::lag_latency_ms},
        Family{"rocketmq_consumer_queueing_latency", "ms the oldest message not yet pulled has waited", &Lag::queueing_latency_ms}}) {
    w.Family(f.name, "gauge", f.help);
    for (const auto& [key, lag] : lags) {
      const auto [topic, group] = SplitKey(key);
      const std::string_view retry = IsRetryTopic(topic) ? "true" : "false";
      w.Sample(f.name,
               {{"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id},
                {"topic", topic}, {"consumer_group", group}, {"is_retry", retry}},
               lag.*f.field);
    }
  }
}

void WriteStorage(PromWriter& w, const BrokerLabels& l, const BrokerContext& context, env::Env* env) {
  const store::MessageStore& store = *context.store;
  const auto settings = context.config->Get();
  const std::initializer_list<Label> node = {
      {"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id}};
  w.Family("rocketmq_storage_size", "gauge", "bytes of messages the CommitLog holds");
  w.Sample("rocketmq_storage_size", node,
           std::max<int64_t>(0, store.MaxPhyOffset() - store.MinPhyOffset()));
  w.Family("rocketmq_storage_dispatch_behind_bytes", "gauge",
           "CommitLog bytes not yet dispatched to ConsumeQueue and index");
  w.Sample("rocketmq_storage_dispatch_behind_bytes", node,
           std::max<int64_t>(0, store.DispatchBehindBytes()));
  w.Family("rocketmq_storage_flush_behind_bytes", "gauge",
           "CommitLog bytes written but not yet flushed to disk");
  w.Sample("rocketmq_storage_flush_behind_bytes", node, store.FlushBehindBytes());
  const store::FlushStats& flush = store.flush_stats();
  w.Family("apogee_commitlog_flush_latency_us", "histogram",
           "microseconds one CommitLog flush (msync / fdatasync of dirty pages) took");
  w.Histogram("apogee_commitlog_flush_latency_us", node, ToSnapshot(flush.sync_micros));
  w.Family("apogee_group_commit_batch_size", "histogram",
           "SYNC_FLUSH put requests one group commit flushed for (SYNC_FLUSH only)");
  w.Histogram("apogee_group_commit_batch_size", node, ToSnapshot(flush.group_commit_batch));
  if (env != nullptr) {
    w.Family("apogee_disk_used_ratio", "gauge",
             "used fraction of the store's file system, as df and RocketMQ compute it");
    w.Sample("apogee_disk_used_ratio", node,
             env::DiskUsedRatioOf(env, settings->store.store_path_root_dir));
  }
  const store::RecoveryReport& recovery = store.recovery_report();
  w.Family("apogee_recovery_scanned_bytes", "gauge",
           "CommitLog bytes the last start-up recovery scanned (the store opens before /metrics does)");
  w.Sample("apogee_recovery_scanned_bytes", node, recovery.scanned_bytes);
  w.Family("apogee_recovery_duration_ms", "gauge", "how long the last start-up recovery took");
  w.Sample("apogee_recovery_duration_ms", node, recovery.elapsed_ms);
  w.Family("apogee_store_writable", "gauge", "1 while the store accepts writes");
  w.Sample("apogee_store_writable", node, int64_t{store.writable() ? 1 : 0});
}

void WriteCounts(PromWriter& w, const BrokerLabels& l, const BrokerContext& context) {
  const std::initializer_list<Label> node = {
      {"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id}};
  w.Family("rocketmq_topic_number", "gauge", "topics this broker serves");
  w.Sample("rocketmq_topic_number", node,
           static_cast<int64_t>(context.topic_config_manager->TopicNames().size()));
  w.Family("rocketmq_consumer_group_number", "gauge", "subscription groups this broker knows");
  w.Sample("rocketmq_consumer_group_number", node,
           static_cast<int64_t>(context.subscription_group_manager->AllSubscriptionGroups().size()));

  int64_t producers = 0;
  int64_t consumers = 0;
  if (context.producer_manager) {
    for (const std::string& group : context.producer_manager->AllGroups()) {
      if (auto c = context.producer_manager->GetConnections(group)) producers += static_cast<int64_t>(c->size());
    }
  }
  if (context.consumer_manager) {
    for (const std::string& group : context.consumer_manager->AllGroups()) {
      if (auto s = context.consumer_manager->GetGroupSnapshot(group)) {
        consumers += static_cast<int64_t>(s->connections.size());
      }
    }
  }
  w.Family("rocketmq_connections", "gauge", "client connections by client type (group memberships)");
  w.Sample("rocketmq_connections",
           {{"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id},
            {"client_type", "producer"}},
           producers);
  w.Sample("rocketmq_connections",
           {{"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id},
            {"client_type", "consumer"}},
           consumers);
}

}  // namespace

void WriteStatsMetrics(PromWriter& w, const BrokerLabels& l, const BrokerStatsManager& stats) {
  // Per topic in; the %DLQ% topics also make rocketmq_send_to_dlq_messages_total.
  struct TopicFamily {
    std::string_view set;
    std::string_view name;
    std::string_view help;
  };
  for (const TopicFamily& f :
       {TopicFamily{kTopicPutNums, "rocketmq_messages_in_total", "messages stored, by topic"},
        TopicFamily{kTopicPutSize, "rocketmq_throughput_in_total", "bytes stored, by topic"}}) {
    w.Family(f.name, "counter", f.help);
    stats.Set(f.set)->ForEach([&](const StatsItem& item) {
      w.Sample(f.name,
               {{"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id},
                {"topic", item.key()}, {"message_type", kNormal},
                {"is_system", IsRetryTopic(item.key()) || IsDlqTopic(item.key()) ? "true" : "false"}},
               item.value());
    });
  }
  for (const TopicFamily& f :
       {TopicFamily{kGroupGetNums, "rocketmq_messages_out_total", "messages pulled, by topic and group"},
        TopicFamily{kGroupGetSize, "rocketmq_throughput_out_total", "bytes pulled, by topic and group"}}) {
    w.Family(f.name, "counter", f.help);
    stats.Set(f.set)->ForEach([&](const StatsItem& item) {
      const auto [topic, group] = SplitKey(item.key());
      w.Sample(f.name,
               {{"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id},
                {"topic", topic}, {"consumer_group", group},
                {"is_retry", IsRetryTopic(topic) ? "true" : "false"}},
               item.value());
    });
  }
  w.Family("rocketmq_send_to_dlq_messages_total", "counter",
           "messages moved to a group's dead-letter queue");
  stats.Set(kTopicPutNums)->ForEach([&](const StatsItem& item) {
    if (!IsDlqTopic(item.key())) return;
    w.Sample("rocketmq_send_to_dlq_messages_total",
             {{"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id},
              {"consumer_group", std::string_view(item.key()).substr(5)}},
             item.value());
  });
  const std::initializer_list<Label> node = {
      {"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id}};
  w.Family("rocketmq_message_size", "histogram", "size of stored messages in bytes");
  w.Histogram("rocketmq_message_size", node, stats.MessageSizeHistogram());
  w.Family("apogee_put_latency_ms", "histogram",
           "ms from the store put to its completion (flush and replica waits included)");
  w.Histogram("apogee_put_latency_ms", node, stats.PutLatencyHistogram());
  w.Family("apogee_pull_reads_total", "counter", "pull reads by result");
  w.Sample("apogee_pull_reads_total",
           {{"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id}, {"result", "found"}},
           stats.gets_found().total());
  w.Sample("apogee_pull_reads_total",
           {{"cluster", l.cluster}, {"node_type", kNodeType}, {"node_id", l.node_id}, {"result", "miss"}},
           stats.gets_missed().total());
  w.Family("apogee_put_failures_total", "counter", "puts the store did not store");
  w.Sample("apogee_put_failures_total", node, stats.put_failed());
}

std::string RenderBrokerMetrics(const BrokerContext& context, const BrokerStatsManager& stats,
                                env::Env* env) {
  const auto settings = context.config->Get();
  const BrokerLabels labels{settings->broker_cluster_name, settings->broker_name};
  std::string out;
  out.reserve(16 * 1024);
  PromWriter w(&out);
  WriteStatsMetrics(w, labels, stats);
  WriteLag(w, labels, context, stats.clock()->NowMillis());
  WriteStorage(w, labels, context, env);
  WriteCounts(w, labels, context);
  for (const auto& extra : context.metrics_sources) extra(w);
  return out;
}

void RegisterMetricsExporter(BrokerContext& context, std::shared_ptr<BrokerStatsManager> stats,
                             env::Env* env) {
  const auto settings = context.config->Get();
  if (settings->metrics_exporter_type != "PROM") return;
  const BrokerContext* ctx = &context;
  auto server = std::make_shared<metrics::HttpServer>(
      [ctx, stats = std::move(stats), env](const metrics::HttpRequest& request) {
        if (request.method != "GET" || (request.target != "/metrics" && !request.target.starts_with("/metrics?"))) {
          return metrics::HttpResponse{404, "text/plain; charset=utf-8", "only GET /metrics is served here\n"};
        }
        return metrics::HttpResponse{200, "text/plain; version=0.0.4; charset=utf-8",
                                     RenderBrokerMetrics(*ctx, *stats, env)};
      });
  const std::string host = settings->metrics_prom_exporter_host.empty() ? settings->broker_ip1
                                                                         : settings->metrics_prom_exporter_host;
  const int32_t port = settings->metrics_prom_exporter_port;
  context.AddStartHook([server, host, port]() -> Status {
    Status s = server->Start(host, static_cast<uint16_t>(port));
    if (!s.ok()) return s.Prefixed("start the Prometheus exporter (metricsPromExporterPort)");
    GetLogger("broker")->info("Prometheus metrics on http://{}:{}/metrics", host, server->port());
    return Status::OK();
  });
  context.AddShutdownHook([server] { server->Stop(); });
}

}  // namespace apogee::broker
