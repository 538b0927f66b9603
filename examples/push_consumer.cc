// Quick start: a CLUSTERING push consumer (RocketMQ's quickstart Consumer). Prints one line
// per message and, every second, the queues this member holds; stops on Ctrl-C / SIGTERM
// or after --seconds.
//   push_consumer -n 127.0.0.1:9876 -t TopicTest -g please_rename_unique_group_name
// Output lines (also what tests/compat/client_mixed_group.test.js reads):
//   CONSUMED <brokerName> <queueId> <queueOffset> <msgId> <body>
//   ASSIGNED <brokerName>:<queueId>,...
#include "apogee/log_level.h"
#include "apogee/push_consumer.h"

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace {
std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop.store(true); }
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Consumes a topic with a push consumer and prints every message"};
  std::string namesrv = "127.0.0.1:9876";
  std::string topic = "TopicTest";
  std::string group = "please_rename_unique_group_name";
  std::string expression = "*";
  std::string instance = "DEFAULT";
  std::string strategy = "AVG";
  bool from_first = false;
  int seconds = 0;
  app.add_option("-n,--namesrv", namesrv, "NameServer addresses, host:port;host:port");
  app.add_option("-t,--topic", topic, "topic");
  app.add_option("-g,--group", group, "consumer group");
  app.add_option("-s,--subscription", expression, "tag expression: * or TagA || TagB");
  app.add_option("-i,--instance", instance, "instance name (client id = ip@instance)");
  app.add_option("-a,--allocate", strategy, "AVG, AVG_BY_CIRCLE or CONSISTENT_HASH");
  app.add_flag("--from-first", from_first, "a new group starts at the first offset");
  app.add_option("--seconds", seconds, "stop after this many seconds (0: run until Ctrl-C)");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "also print the client library's info logs (default: warnings)");
  CLI11_PARSE(app, argc, argv);
  if (verbose) (void)apogee::SetClientLogLevel("info");

  apogee::PushConsumerConfig config;
  config.client.namesrv_addr = namesrv;
  config.client.instance_name = instance;
  config.group = group;
  config.allocate_strategy = strategy;
  if (from_first) config.consume_from_where = apogee::ConsumeFromWhere::kFirstOffset;
  apogee::PushConsumer consumer(config);
  if (apogee::Status s = consumer.Subscribe(topic, expression); !s.ok()) {
    std::fprintf(stderr, "subscribe: %s\n", s.ToString().c_str());
    return 1;
  }
  std::mutex out_mu;
  consumer.RegisterMessageListener([&](const std::vector<apogee::MessageExt>& msgs,
                                       apogee::ConsumeConcurrentlyContext&) {
    std::lock_guard lock(out_mu);
    for (const auto& m : msgs) {
      std::printf("CONSUMED %s %d %lld %s %s\n", m.broker_name().c_str(), m.queue_id(),
                  static_cast<long long>(m.queue_offset()), m.msg_id().c_str(), m.body().c_str());
    }
    std::fflush(stdout);
    return apogee::ConsumeConcurrentlyStatus::kConsumeSuccess;
  });
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  if (apogee::Status s = consumer.Start(); !s.ok()) {
    std::fprintf(stderr, "start: %s\n", s.ToString().c_str());
    return 1;
  }
  std::fprintf(stderr, "consumer %s started\n", consumer.client_id().c_str());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!g_stop.load() && (seconds == 0 || std::chrono::steady_clock::now() < deadline)) {
    std::string line;
    for (const auto& mq : consumer.AssignedQueues()) {
      if (mq.topic() != topic) continue;
      if (!line.empty()) line += ",";
      line += mq.broker_name() + ":" + std::to_string(mq.queue_id());
    }
    {
      std::lock_guard lock(out_mu);
      std::printf("ASSIGNED %s\n", line.c_str());
      std::fflush(stdout);
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  consumer.Shutdown();
  return 0;
}
