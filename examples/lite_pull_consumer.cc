// Quick start: a lite pull consumer (RocketMQ's LitePullConsumerSubscribe /
// LitePullConsumerAssign). With -q the consumer takes the listed queues itself (assign
// mode, no rebalance) and commits by hand; otherwise it subscribes and the group shares the
// queues, committing automatically.
//   lite_pull_consumer -n 127.0.0.1:9876 -t TopicTest -g lite_group
//   lite_pull_consumer -n 127.0.0.1:9876 -t TopicTest -g lite_group -q 0,1 --seek 0
#include "apogee/log_level.h"
#include "apogee/lite_pull_consumer.h"

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

namespace {
std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop.store(true); }
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Polls messages with a lite pull consumer"};
  std::string namesrv = "127.0.0.1:9876";
  std::string topic = "TopicTest";
  std::string group = "lite_pull_consumer_group";
  std::string broker = "broker-a";
  std::vector<int> queues;
  int64_t seek = -1;
  app.add_option("-n,--namesrv", namesrv, "NameServer addresses, host:port;host:port");
  app.add_option("-t,--topic", topic, "topic");
  app.add_option("-g,--group", group, "consumer group");
  app.add_option("-b,--broker", broker, "broker name of the assigned queues");
  app.add_option("-q,--queues", queues, "assign these queue ids instead of subscribing")
      ->delimiter(',');
  app.add_option("--seek", seek, "assign mode: start every queue at this offset");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "also print the client library's info logs (default: warnings)");
  CLI11_PARSE(app, argc, argv);
  if (verbose) (void)apogee::SetClientLogLevel("info");

  apogee::LitePullConsumerConfig config;
  config.client.namesrv_addr = namesrv;
  config.group = group;
  config.auto_commit = queues.empty();
  config.consume_from_where = apogee::ConsumeFromWhere::kFirstOffset;
  apogee::LitePullConsumer consumer(config);
  std::vector<apogee::MessageQueue> assigned;
  for (int q : queues) assigned.emplace_back(topic, broker, q);
  apogee::Status s = assigned.empty() ? consumer.Subscribe(topic, "*") : consumer.Assign(assigned);
  if (s.ok()) s = consumer.Start();
  if (!s.ok()) {
    std::fprintf(stderr, "start: %s\n", s.ToString().c_str());
    return 1;
  }
  if (seek >= 0) {
    for (const auto& mq : assigned) {
      if (apogee::Status r = consumer.Seek(mq, seek); !r.ok()) {
        std::fprintf(stderr, "seek: %s\n", r.ToString().c_str());
      }
    }
  }
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  while (!g_stop.load()) {
    std::vector<apogee::MessageExt> msgs = consumer.Poll(1000);
    for (const auto& m : msgs) {
      std::printf("queue %d offset %lld: %s\n", m.queue_id(),
                  static_cast<long long>(m.queue_offset()), m.body().c_str());
    }
    std::fflush(stdout);
    if (!msgs.empty() && !config.auto_commit) {
      if (apogee::Status c = consumer.CommitSync(); !c.ok()) {
        std::fprintf(stderr, "commit: %s\n", c.ToString().c_str());
      }
    }
  }
  consumer.Shutdown();
  return 0;
}
