// What the bench programs that measure a real broker over loopback share. BenchBroker is an
// in-process broker: a BrokerController (ASYNC_FLUSH store in a temp directory, no
// NameServer) on a free port, the project's RemotingClient connected to it, and one topic
// created with `queues` queues. Benches keep it for the whole process (Google Benchmark has
// no global teardown); the temp directory is removed when it is destroyed.
#pragma once

#include <spdlog/spdlog.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "base/logging.h"
#include "bench_ports.h"
#include "broker/broker_config.h"
#include "broker/broker_controller.h"
#include "protocol/admin_headers.h"
#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/system_topics.h"
#include "remoting/remoting_client.h"

namespace apogee::bench {

class BenchBroker {
 public:
  // `program` prefixes errors (which abort: a bench without its broker measures nothing);
  // `quiet_loggers` are set to warn so logging does not distort the numbers.
  BenchBroker(std::string program, const std::string& topic, int queues,
              std::initializer_list<const char*> quiet_loggers)
      : program_(std::move(program)) {
    for (const char* name : quiet_loggers) GetLogger(name)->set_level(spdlog::level::warn);
    std::string tmpl = "/tmp/apogee-" + program_ + "-XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) Fail("mkdtemp failed");
    dir_ = tmpl;
    Status s = config_.ApplyProperties({
        {"brokerName", "bench-a"},
        {"brokerIP1", "127.0.0.1"},
        {"bindAddress", "127.0.0.1"},
        {"listenPort", std::to_string(PickBrokerPort())},
        {"storePathRootDir", dir_ + "/store"},
        {"flushDiskType", "ASYNC_FLUSH"},
    });
    if (!s.ok()) Fail("config: " + s.ToString());
    controller_ = std::make_unique<broker::BrokerController>(&config_);
    if (s = controller_->Initialize(); !s.ok()) Fail("initialize: " + s.ToString());
    if (s = controller_->Start(); !s.ok()) Fail("start: " + s.ToString());
    addr_ = "127.0.0.1:" + std::to_string(controller_->port());
    client_.Start();
    protocol::CreateTopicRequestHeader h;
    h.topic = topic;
    h.default_topic = protocol::kAutoCreateTopicKeyTopic;
    h.read_queue_nums = queues;
    h.write_queue_nums = queues;
    h.perm = 6;  // PermName.PERM_READ | PERM_WRITE
    h.topic_filter_type = "SINGLE_TAG";
    protocol::RemotingCommand create =
        protocol::RemotingCommand::MakeRequest(protocol::request_code::kUpdateAndCreateTopic);
    protocol::EncodeCustomHeader(h, &create);
    auto res = client_.InvokeSync(addr_, std::move(create), std::chrono::seconds(10));
    if (!res.ok() || res->code != protocol::response_code::kSuccess) Fail("create topic failed");
  }
  ~BenchBroker() {
    client_.Shutdown();
    controller_->Shutdown();
    std::filesystem::remove_all(dir_);
  }
  BenchBroker(const BenchBroker&) = delete;
  BenchBroker& operator=(const BenchBroker&) = delete;

  remoting::RemotingClient& client() { return client_; }
  const std::string& addr() const { return addr_; }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    std::fprintf(stderr, "%s: %s\n", program_.c_str(), what.c_str());
    std::abort();
  }

  std::string program_;
  std::string dir_;
  broker::BrokerConfig config_;
  std::unique_ptr<broker::BrokerController> controller_;
  remoting::RemotingClient client_;
  std::string addr_;
};

// The 99th percentile of `micros` (reorders it); 0 when empty.
inline double P99Micros(std::vector<double>& micros) {
  if (micros.empty()) return 0;
  size_t k = micros.size() * 99 / 100;
  std::nth_element(micros.begin(), micros.begin() + k, micros.end());
  return micros[k];
}

}  // namespace apogee::bench
