// Quick start: one batch send (RocketMQ's batch example; all messages of one topic, no delay).
//   batch_producer -n 127.0.0.1:9876 -t TopicTest -c 10
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "apogee/log_level.h"
#include "apogee/producer.h"

int main(int argc, char** argv) {
  CLI::App app{"Sends one batch of messages and prints the SendResult"};
  std::string namesrv = "127.0.0.1:9876";
  std::string topic = "TopicTest";
  std::string group = "BatchProducerGroupName";
  int count = 10;
  app.add_option("-n,--namesrv", namesrv, "NameServer addresses, host:port;host:port");
  app.add_option("-t,--topic", topic, "topic");
  app.add_option("-g,--group", group, "producer group");
  app.add_option("-c,--count", count, "messages in the batch");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "also print the client library's info logs (default: warnings)");
  CLI11_PARSE(app, argc, argv);
  if (verbose) (void)apogee::SetClientLogLevel("info");

  apogee::ProducerConfig config;
  config.namesrv_addr = namesrv;
  config.group_name = group;
  apogee::Producer producer(config);
  if (apogee::Status s = producer.Start(); !s.ok()) {
    std::fprintf(stderr, "start: %s\n", s.ToString().c_str());
    return 1;
  }
  std::vector<apogee::Message> batch;
  for (int i = 0; i < count; ++i) {
    batch.emplace_back(topic, "TagA", "OrderID" + std::to_string(i), "Hello world " + std::to_string(i));
  }
  apogee::Result<apogee::SendResult> result = producer.Send(batch);
  producer.Shutdown();
  if (!result.ok()) {
    std::fprintf(stderr, "batch send: %s\n", result.status().ToString().c_str());
    return 1;
  }
  std::printf("%s\n", result->ToString().c_str());
  return 0;
}
