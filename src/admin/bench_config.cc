#include "admin/bench_config.h"

#include <CLI/CLI.hpp>

namespace apogee::admin {

std::string_view SendModeName(SendMode mode) {
  switch (mode) {
    case SendMode::kSync: return "sync";
    case SendMode::kAsync: return "async";
    case SendMode::kOneway: return "oneway";
  }
  return "?";
}

Result<BenchConfig> ParseBenchArgs(const std::vector<std::string>& args, const std::string& env_namesrv,
                                   bool* help, std::string* usage) {
  BenchConfig c;
  CLI::App app("mqbench: load generator for RocketMQ-compatible brokers", "mqbench");
  std::string mode = "producer";
  std::string send_mode = "sync";
  app.add_option("mode", mode, "producer or consumer")->check(CLI::IsMember({"producer", "consumer"}));
  app.add_option("-n,--namesrvAddr", c.namesrv_addr, "NameServer list 'host:port;host:port' (default NAMESRV_ADDR, else 127.0.0.1:9876)");
  app.add_option("--accessKey", c.access_key, "ACL access key: sign every request");
  app.add_option("--secretKey", c.secret_key, "ACL secret key");
  app.add_option("-t,--topic", c.topic, "Topic name")->capture_default_str();
  app.add_option("-g,--group", c.group, "Producer / consumer group (default benchmark_producer / benchmark_consumer)");
  app.add_option("-w,--threadCount", c.threads, "Sender or puller threads")->capture_default_str()->check(CLI::Range(1, 1024));
  app.add_option("-s,--messageSize", c.message_size, "Body size in bytes")->capture_default_str()->check(CLI::Range(1, 4 * 1024 * 1024));
  app.add_option("-k,--keyEnable", c.key_enable, "Give every message a key (true|false)")->capture_default_str();
  app.add_option("-m,--sendMode", send_mode, "sync, async or oneway")->capture_default_str()
      ->check(CLI::IsMember({"sync", "async", "oneway"}));
  app.add_option("-a,--asyncWindow", c.async_window, "Async sends in flight per thread")->capture_default_str()->check(CLI::Range(1, 100000));
  app.add_option("-b,--batchSize", c.batch_size, "Messages per send (sync mode only)")->capture_default_str()->check(CLI::Range(1, 1024));
  app.add_option("-q,--messageQuantity", c.message_quantity, "Stop after this many messages (0 = no limit)")->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("-d,--duration", c.duration_seconds, "Stop after this many seconds (0 = no limit)")->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("-r,--reportInterval", c.report_interval_ms, "Milliseconds between progress lines")->capture_default_str()->check(CLI::Range(100, 3600000));
  app.add_option("-c,--createTopicQueues", c.create_queue_nums, "Create the topic on every master of --cluster with this many queues first (0 = no)")->check(CLI::Range(0, 1024));
  app.add_option("--cluster", c.cluster, "Cluster for --createTopicQueues")->capture_default_str();
  app.add_flag("--json", c.json, "Print the final summary as one JSON object");
  app.add_flag("--tls", c.tls, "Connect with TLS (Java's -Dtls.enable=true)");
  app.add_option("--tlsConfigFile", c.tls_config_file,
                 "Java's tls.properties with the tls.client.* settings, read when it exists")
      ->capture_default_str();
  app.add_flag("--fromStart", c.from_start, "Consumer: read each queue from its minimum offset (default: only new messages)");
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    if (help != nullptr) *help = true;
    if (usage != nullptr) *usage = app.help();
    return c;
  } catch (const CLI::ParseError& e) {
    if (usage != nullptr) *usage = app.help();
    return Status::InvalidArgument(e.what());
  }
  c.mode = mode == "consumer" ? BenchMode::kConsumer : BenchMode::kProducer;
  c.send_mode = send_mode == "async" ? SendMode::kAsync : send_mode == "oneway" ? SendMode::kOneway : SendMode::kSync;
  if (c.batch_size > 1 && c.send_mode != SendMode::kSync) {
    return Status::InvalidArgument("--batchSize > 1 needs --sendMode sync (the producer sends batches synchronously)");
  }
  if (c.namesrv_addr.empty()) c.namesrv_addr = env_namesrv.empty() ? "127.0.0.1:9876" : env_namesrv;
  if (c.group.empty()) c.group = c.mode == BenchMode::kProducer ? "benchmark_producer" : "benchmark_consumer";
  return c;
}

acl::Credentials BenchCredentials(const BenchConfig& config) {
  return acl::Credentials{config.access_key, config.secret_key, std::nullopt, std::nullopt};
}

}  // namespace apogee::admin
