// Quick start: send messages synchronously (RocketMQ's quickstart Producer).
//   producer -n 127.0.0.1:9876 -t TopicTest -c 10
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "apogee/log_level.h"
#include "apogee/producer.h"

int main(int argc, char** argv) {
  CLI::App app{"Sends messages with tag TagA and prints each SendResult"};
  std::string namesrv = "127.0.0.1:9876";
  std::string topic = "TopicTest";
  std::string group = "please_rename_unique_group_name";
  int count = 10;
  app.add_option("-n,--namesrv", namesrv, "NameServer addresses, host:port;host:port");
  app.add_option("-t,--topic", topic, "topic");
  app.add_option("-g,--group", group, "producer group");
  app.add_option("-c,--count", count, "messages to send");
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
  int failed = 0;
  for (int i = 0; i < count; ++i) {
    apogee::Message msg(topic, "TagA", "KEY" + std::to_string(i), "Hello RocketMQ " + std::to_string(i));
    apogee::Result<apogee::SendResult> result = producer.Send(msg);
    if (result.ok()) {
      std::printf("%s\n", result->ToString().c_str());
    } else {
      std::fprintf(stderr, "send %d: %s\n", i, result.status().ToString().c_str());
      ++failed;
    }
  }
  producer.Shutdown();
  return failed == 0 ? 0 : 1;
}
