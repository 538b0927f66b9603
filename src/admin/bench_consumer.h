// ConsumerWorkload: mqbench's consumer mode. It reads every queue of the topic with the
// client library's typed PULL_MESSAGE (client::MQClientAPI::PullMessageAsync), the queues
// spread over the threads (each pulls all of its queues at once, then decodes the answers),
// and records born-to-consume latency per message. It starts at
// each queue's current end (or its minimum with --fromStart) and commits no offsets.
// (The PushConsumer / LitePullConsumer were not available when this was written; the pull
// path measures the broker without the client's rebalance and flow control.)
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "admin/bench_config.h"
#include "admin/bench_runner.h"

namespace apogee::client {
class MQClientAPI;
}

namespace apogee::admin {

class ConsumerWorkload : public BenchWorkload {
 public:
  explicit ConsumerWorkload(BenchConfig config);
  ~ConsumerWorkload() override;

  Status Start(BenchStats* stats) override;
  bool Finished() const override;
  void Stop() override;

 private:
  struct QueueCursor {
    std::string broker_addr;
    int32_t queue_id = 0;
    int64_t offset = 0;
  };

  void PullLoop(std::vector<QueueCursor> queues);

  BenchConfig config_;
  BenchStats* stats_ = nullptr;
  std::unique_ptr<client::MQClientAPI> api_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> received_{0};
};

}  // namespace apogee::admin
