// Quick start: ordered messages (RocketMQ's OrderedProducer). Every order's steps go to the
// queue its id hashes to, so a consumer of that queue sees them in order.
//   orderly_producer -n 127.0.0.1:9876 -t TopicTest -c 100
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "apogee/log_level.h"
#include "apogee/producer.h"

int main(int argc, char** argv) {
  CLI::App app{"Sends messages of 10 orders, each order to one queue"};
  std::string namesrv = "127.0.0.1:9876";
  std::string topic = "TopicTest";
  std::string group = "please_rename_unique_group_name";
  int count = 100;
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
  const char* tags[] = {"TagA", "TagB", "TagC", "TagD", "TagE"};
  int failed = 0;
  for (int i = 0; i < count; ++i) {
    int order_id = i % 10;
    apogee::Message msg(topic, tags[i % 5], "KEY" + std::to_string(i),
                        "Hello RocketMQ " + std::to_string(i));
    // The queue selector of Java's example: order id modulo the queue count.
    apogee::Result<apogee::SendResult> result = producer.Send(
        msg, [order_id](const std::vector<apogee::MessageQueue>& mqs, const apogee::Message&) {
          return mqs[static_cast<size_t>(order_id) % mqs.size()];
        });
    if (result.ok()) {
      std::printf("order %d: %s\n", order_id, result->ToString().c_str());
    } else {
      std::fprintf(stderr, "send %d: %s\n", i, result.status().ToString().c_str());
      ++failed;
    }
  }
  producer.Shutdown();
  return failed == 0 ? 0 : 1;
}
