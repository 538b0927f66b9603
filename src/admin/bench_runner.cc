#include "admin/bench_runner.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

#include "admin/admin_client.h"
#include "admin/bench_consumer.h"
#include "admin/bench_producer.h"
#include "admin/client_transport.h"

namespace apogee::admin {

int64_t MonotonicMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Status CreateBenchTopic(const BenchConfig& config, std::ostream& out) {
  std::optional<TlsConfig> tls;
  if (config.tls) {
    APOGEE_ASSIGN_OR_RETURN(tls, ClientTransport::ResolveToolTls(config.tls_config_file));
  }
  APOGEE_ASSIGN_OR_RETURN(auto transport,
                          ClientTransport::Create(config.namesrv_addr, BenchCredentials(config),
                                                  tls ? &*tls : nullptr));
  MQAdminClient admin(transport.get());
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> masters, admin.MasterAddrsOfCluster(config.cluster));
  protocol::TopicConfig topic;
  topic.topic_name = config.topic;
  topic.read_queue_nums = topic.write_queue_nums = config.create_queue_nums;
  for (const std::string& addr : masters) {
    APOGEE_RETURN_IF_ERROR(admin.CreateTopic(addr, topic));
    out << "created topic " << config.topic << " with " << config.create_queue_nums << " queues on " << addr
        << "\n";
  }
  // Give the brokers' registration a moment to reach the NameServer, so the producer's
  // first route lookup sees every broker.
  for (int i = 0; i < 50; ++i) {
    auto route = admin.GetTopicRoute(config.topic);
    if (route.ok() && route->queue_datas.size() >= masters.size()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return Status::OK();
}

Result<BenchSummary> RunBench(const BenchConfig& config, std::ostream& out,
                              const std::atomic<bool>* interrupted) {
  if (config.create_queue_nums > 0) APOGEE_RETURN_IF_ERROR(CreateBenchTopic(config, out));
  std::unique_ptr<BenchWorkload> workload;
  if (config.mode == BenchMode::kProducer) {
    workload = std::make_unique<ProducerWorkload>(config);
  } else {
    workload = std::make_unique<ConsumerWorkload>(config);
  }
  return RunWorkload(config, workload.get(), out, interrupted);
}

Result<BenchSummary> RunWorkload(const BenchConfig& config, BenchWorkload* workload, std::ostream& out,
                                 const std::atomic<bool>* interrupted) {
  BenchParams params;
  params.mode = config.mode == BenchMode::kProducer ? "producer" : "consumer";
  params.send_mode = std::string(SendModeName(config.send_mode));
  params.topic = config.topic;
  params.threads = config.threads;
  params.message_size = config.message_size;
  params.batch_size = config.batch_size;
  params.async_window = config.async_window;

  const int64_t start = MonotonicMicros();
  BenchStats stats(start);
  APOGEE_RETURN_IF_ERROR(workload->Start(&stats));
  std::optional<int64_t> target_messages;
  if (config.message_quantity > 0) target_messages = config.message_quantity;
  std::optional<double> target_seconds;
  if (config.duration_seconds > 0) target_seconds = config.duration_seconds;
  const int64_t deadline = config.duration_seconds > 0
                               ? start + static_cast<int64_t>(config.duration_seconds * 1e6)
                               : INT64_MAX;
  int64_t next_report = start + config.report_interval_ms * 1000LL;
  while (true) {
    int64_t now = MonotonicMicros();
    bool done = workload->Finished() || now >= deadline ||
                (interrupted != nullptr && interrupted->load());
    if (done) break;
    if (now >= next_report) {
      out << FormatIntervalLine(stats.TakeInterval(now), target_messages, target_seconds) << std::endl;
      next_report += config.report_interval_ms * 1000LL;
      continue;
    }
    int64_t wake = std::min<int64_t>({next_report, deadline, now + 10'000});
    std::this_thread::sleep_for(std::chrono::microseconds(wake - now));
  }
  workload->Stop();
  const int64_t end = MonotonicMicros();
  IntervalReport last = stats.TakeInterval(end);
  if (last.ok > 0 || last.failed > 0) out << FormatIntervalLine(last, target_messages, target_seconds) << std::endl;
  BenchSummary summary = stats.Summarize(params, end);
  if (config.json) {
    out << FormatSummaryJson(summary) << "\n";
  } else {
    out << FormatSummaryText(summary);
  }
  out.flush();
  return summary;
}

}  // namespace apogee::admin
