// Quick start: an orderly push consumer (RocketMQ's OrderedConsumer). Messages of one queue
// arrive in queue order, one queue at a time per consumer, while this member holds the
// queue's broker lock. Pair it with orderly_producer.
//   orderly_consumer -n 127.0.0.1:9876 -t TopicTest -g please_rename_unique_group_name
#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>

#include "apogee/log_level.h"
#include "apogee/push_consumer.h"

namespace {
std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop.store(true); }
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Consumes a topic queue by queue, in order"};
  std::string namesrv = "127.0.0.1:9876";
  std::string topic = "TopicTest";
  std::string group = "please_rename_unique_group_name";
  std::string expression = "*";
  app.add_option("-n,--namesrv", namesrv, "NameServer addresses, host:port;host:port");
  app.add_option("-t,--topic", topic, "topic");
  app.add_option("-g,--group", group, "consumer group");
  app.add_option("-s,--subscription", expression, "tag expression: * or TagA || TagB");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "also print the client library's info logs (default: warnings)");
  CLI11_PARSE(app, argc, argv);
  if (verbose) (void)apogee::SetClientLogLevel("info");

  apogee::PushConsumerConfig config;
  config.client.namesrv_addr = namesrv;
  config.group = group;
  config.consume_from_where = apogee::ConsumeFromWhere::kFirstOffset;
  apogee::PushConsumer consumer(config);
  if (apogee::Status s = consumer.Subscribe(topic, expression); !s.ok()) {
    std::fprintf(stderr, "subscribe: %s\n", s.ToString().c_str());
    return 1;
  }
  consumer.RegisterMessageListener(
      [](const std::vector<apogee::MessageExt>& msgs, apogee::ConsumeOrderlyContext&) {
        for (const auto& m : msgs) {
          std::printf("queue %d offset %lld: %s\n", m.queue_id(),
                      static_cast<long long>(m.queue_offset()), m.body().c_str());
        }
        std::fflush(stdout);
        return apogee::ConsumeOrderlyStatus::kSuccess;
      });
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  if (apogee::Status s = consumer.Start(); !s.ok()) {
    std::fprintf(stderr, "start: %s\n", s.ToString().c_str());
    return 1;
  }
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  consumer.Shutdown();  // unlocks the queues so another member can take them at once
  return 0;
}
