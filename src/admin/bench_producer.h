// ProducerWorkload: mqbench's producer mode over the public Producer (apogee/producer.h).
// Each thread sends sync (one send at a time, or batches), async (up to async_window sends
// in flight) or one-way, until the runner stops it or the message quantity is claimed.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "admin/bench_config.h"
#include "admin/bench_runner.h"

namespace apogee {
class Producer;
}

namespace apogee::admin {

class ProducerWorkload : public BenchWorkload {
 public:
  explicit ProducerWorkload(BenchConfig config);
  ~ProducerWorkload() override;

  Status Start(BenchStats* stats) override;
  bool Finished() const override;
  void Stop() override;

 private:
  // Async sends in flight of one thread. A send's callback holds a plain pointer to it (with
  // the send time: sixteen bytes, which std::function holds without an allocation, and no
  // reference count touched by two threads per send); Stop keeps a window whose sends did not
  // all come back alive for good. A full window is refilled in bursts: the sender sleeps until `resume_at` sends are in
  // flight (an eighth of the window has come back), and only the answer that reaches that
  // mark wakes it. A wake-up per answer made every send a thread ping-pong of its own.
  struct Window {
    std::mutex mu;
    std::condition_variable cv;
    int in_flight = 0;
    int resume_at = 0;
    bool sender_waits = false;  // the sender sleeps until in_flight <= resume_at
    bool drain_waits = false;   // Stop sleeps until in_flight == 0
    BenchStats* stats = nullptr;
    int64_t message_bytes = 0;
  };

  void SendLoop(int thread_index);
  // Claims `n` messages of the quantity; false when it is used up.
  bool Claim(int64_t n);

  BenchConfig config_;
  BenchStats* stats_ = nullptr;
  std::unique_ptr<Producer> producer_;
  std::vector<std::thread> threads_;
  std::vector<std::shared_ptr<Window>> windows_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> claimed_{0};
  std::atomic<int> running_threads_{0};
};

}  // namespace apogee::admin
