// Quick start: transactional messages (RocketMQ's TransactionProducer example). Message i
// runs a "local transaction" whose outcome depends on i: 0 -> commit at once, 1 -> roll
// back at once, 2 -> unknown (the broker checks back later; the check answers commit).
//   transaction_producer -n 127.0.0.1:9876 -t TopicTest -c 9 -w 30
#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "apogee/log_level.h"
#include "apogee/transaction_producer.h"

namespace {

class ExampleListener : public apogee::TransactionListener {
 public:
  apogee::LocalTransactionState ExecuteLocalTransaction(const apogee::Message& msg, void* arg) override {
    int i = *static_cast<int*>(arg);
    switch (i % 3) {
      case 0:
        return apogee::LocalTransactionState::kCommitMessage;
      case 1:
        return apogee::LocalTransactionState::kRollbackMessage;
      default:
        return apogee::LocalTransactionState::kUnknow;
    }
  }
  apogee::LocalTransactionState CheckLocalTransaction(const apogee::MessageExt& msg) override {
    ++checks;
    std::printf("check-back for %s: commit\n", msg.transaction_id().c_str());
    return apogee::LocalTransactionState::kCommitMessage;
  }
  std::atomic<int> checks{0};
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Sends transactional messages: commit, rollback and check-back"};
  std::string namesrv = "127.0.0.1:9876";
  std::string topic = "TopicTest";
  std::string group = "please_rename_unique_group_name";
  int count = 9;
  int wait_seconds = 30;
  app.add_option("-n,--namesrv", namesrv, "NameServer addresses, host:port;host:port");
  app.add_option("-t,--topic", topic, "topic");
  app.add_option("-g,--group", group, "producer group");
  app.add_option("-c,--count", count, "messages to send");
  app.add_option("-w,--wait", wait_seconds, "seconds to stay up for check-backs");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "also print the client library's info logs (default: warnings)");
  CLI11_PARSE(app, argc, argv);
  if (verbose) (void)apogee::SetClientLogLevel("info");

  apogee::ProducerConfig config;
  config.namesrv_addr = namesrv;
  config.group_name = group;
  auto listener = std::make_shared<ExampleListener>();
  apogee::TransactionProducer producer(config, listener);
  if (apogee::Status s = producer.Start(); !s.ok()) {
    std::fprintf(stderr, "start: %s\n", s.ToString().c_str());
    return 1;
  }
  int failed = 0;
  for (int i = 0; i < count; ++i) {
    apogee::Message msg(topic, "TagA", "KEY" + std::to_string(i), "Hello RocketMQ " + std::to_string(i));
    auto result = producer.SendMessageInTransaction(msg, &i);
    if (result.ok()) {
      std::printf("%s localState=%s\n", result->ToString().c_str(),
                  std::string(apogee::LocalTransactionStateName(result->local_transaction_state)).c_str());
    } else {
      std::fprintf(stderr, "send %d: %s\n", i, result.status().ToString().c_str());
      ++failed;
    }
  }
  // Undecided (UNKNOW) messages are settled by the broker's check-backs.
  std::this_thread::sleep_for(std::chrono::seconds(wait_seconds));
  std::printf("check-backs answered: %d\n", listener->checks.load());
  producer.Shutdown();
  return failed == 0 ? 0 : 1;
}
