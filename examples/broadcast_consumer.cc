// Quick start: a BROADCASTING push consumer (RocketMQ's broadcast PushConsumer). Every
// member of the group receives every message; offsets are kept per member in
// ~/.rocketmq_offsets/<clientId>/<group>/offsets.json.
//   broadcast_consumer -n 127.0.0.1:9876 -t TopicTest -g please_rename_unique_group_name
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
  CLI::App app{"Receives every message of a topic, whatever the other group members do"};
  std::string namesrv = "127.0.0.1:9876";
  std::string topic = "TopicTest";
  std::string group = "please_rename_unique_group_name";
  std::string instance = "DEFAULT";
  app.add_option("-n,--namesrv", namesrv, "NameServer addresses, host:port;host:port");
  app.add_option("-t,--topic", topic, "topic");
  app.add_option("-g,--group", group, "consumer group");
  app.add_option("-i,--instance", instance,
                 "instance name; members on one host need distinct ones");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "also print the client library's info logs (default: warnings)");
  CLI11_PARSE(app, argc, argv);
  if (verbose) (void)apogee::SetClientLogLevel("info");

  apogee::PushConsumerConfig config;
  config.client.namesrv_addr = namesrv;
  config.client.instance_name = instance;
  config.group = group;
  config.message_model = apogee::MessageModel::kBroadcasting;
  config.consume_from_where = apogee::ConsumeFromWhere::kFirstOffset;
  apogee::PushConsumer consumer(config);
  if (apogee::Status s = consumer.Subscribe(topic, "*"); !s.ok()) {
    std::fprintf(stderr, "subscribe: %s\n", s.ToString().c_str());
    return 1;
  }
  consumer.RegisterMessageListener(
      [](const std::vector<apogee::MessageExt>& msgs, apogee::ConsumeConcurrentlyContext&) {
        for (const auto& m : msgs) std::printf("%s %s\n", m.msg_id().c_str(), m.body().c_str());
        std::fflush(stdout);
        return apogee::ConsumeConcurrentlyStatus::kConsumeSuccess;
      });
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  if (apogee::Status s = consumer.Start(); !s.ok()) {
    std::fprintf(stderr, "start: %s\n", s.ToString().c_str());
    return 1;
  }
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  consumer.Shutdown();
  return 0;
}
