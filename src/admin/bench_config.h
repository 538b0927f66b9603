// BenchConfig: mqbench's settings and their command line, modeled on RocketMQ's benchmark
// Producer / Consumer (example/.../benchmark/*.java): -t topic, -w threads, -s message size,
// -k keys, -q message quantity, plus Apogee's send mode, async window, batch size, duration,
// topic creation and JSON summary.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/signature.h"
#include "base/status.h"
#include "protocol/system_topics.h"

namespace apogee::admin {

enum class BenchMode { kProducer, kConsumer };
enum class SendMode { kSync, kAsync, kOneway };

struct BenchConfig {
  BenchMode mode = BenchMode::kProducer;
  std::string namesrv_addr;  // -n, else NAMESRV_ADDR, else 127.0.0.1:9876
  // --tls: every connection with TLS (Java's -Dtls.enable=true); its settings come from
  // --tlsConfigFile (Java's tls.properties) when that file exists.
  bool tls = false;
  std::string tls_config_file = "/etc/rocketmq/tls.properties";
  // ACL: every request is signed when both are set (--accessKey / --secretKey).
  std::string access_key;
  std::string secret_key;
  std::string topic{protocol::kBenchmarkTopic};
  std::string group;  // producer or consumer group; a default per mode when empty
  int threads = 4;
  int message_size = 1024;
  bool key_enable = false;
  SendMode send_mode = SendMode::kSync;
  int async_window = 16;  // in-flight async sends per thread
  int batch_size = 1;
  int64_t message_quantity = 0;  // 0 = no limit
  double duration_seconds = 0;   // 0 = no limit (until quantity, or Ctrl-C)
  int report_interval_ms = 1000;
  // Create the topic first on every master of `cluster` with this many queues (0 = no).
  int create_queue_nums = 0;
  std::string cluster = "DefaultCluster";
  bool json = false;
  // Consumer mode: start at the queue's minimum offset instead of its current maximum.
  bool from_start = false;
};

std::string_view SendModeName(SendMode mode);

// The credentials every mqbench request is signed with (empty: unsigned).
acl::Credentials BenchCredentials(const BenchConfig& config);

// Parses argv after the program name ("producer -t T -w 8 ..."). `env_namesrv` stands for
// NAMESRV_ADDR. Errors name the flag; `help` (when not null) is set when -h was asked for,
// with `usage` receiving the help text.
Result<BenchConfig> ParseBenchArgs(const std::vector<std::string>& args, const std::string& env_namesrv,
                                   bool* help = nullptr, std::string* usage = nullptr);

}  // namespace apogee::admin
