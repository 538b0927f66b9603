#include "admin/bench_producer.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <string>

#include "apogee/producer.h"

namespace apogee::admin {
namespace {

// How long Stop waits for async sends still in flight.
constexpr auto kDrainTimeout = std::chrono::seconds(10);

std::string MakeBody(int size) {
  std::string body(static_cast<size_t>(size), 'a');
  for (size_t i = 0; i < body.size(); ++i) body[i] = static_cast<char>('a' + i % 26);
  return body;
}

}  // namespace

ProducerWorkload::ProducerWorkload(BenchConfig config) : config_(std::move(config)) {}

ProducerWorkload::~ProducerWorkload() { Stop(); }

bool ProducerWorkload::Claim(int64_t n) {
  if (config_.message_quantity <= 0) return true;
  return claimed_.fetch_add(n) + n <= config_.message_quantity;
}

Status ProducerWorkload::Start(BenchStats* stats) {
  stats_ = stats;
  ProducerConfig pc;
  pc.namesrv_addr = config_.namesrv_addr;
  pc.access_key = config_.access_key;
  pc.secret_key = config_.secret_key;
  pc.group_name = config_.group;
  pc.instance_name = "mqbench";
  pc.use_tls = config_.tls;
  pc.tls_config_file = config_.tls_config_file;
  // The benchmark measures the broker path, not zlib: never compress.
  pc.compress_msg_body_over_howmuch = INT32_MAX;
  pc.max_message_size = std::max(pc.max_message_size, config_.message_size * config_.batch_size + 4096);
  pc.client_callback_executor_threads = std::max(2, std::min(config_.threads, 8));
  // The callback only counts and frees a window slot (no blocking, no sync call), so a
  // successful send's callback runs on the IO thread, without a hand-off per message.
  pc.async_send_callback_on_io_thread = true;
  producer_ = std::make_unique<Producer>(pc);
  APOGEE_RETURN_IF_ERROR(producer_->Start());
  // Fail fast on a topic that has no route, instead of counting failures for the whole run.
  auto queues = producer_->FetchPublishMessageQueues(config_.topic);
  if (!queues.ok()) return queues.status();
  for (int i = 0; i < config_.threads; ++i) {
    auto window = std::make_shared<Window>();
    window->resume_at = config_.async_window - std::max(1, config_.async_window / 8);
    window->stats = stats_;
    window->message_bytes = config_.message_size;
    windows_.push_back(std::move(window));
  }
  running_threads_ = config_.threads;
  for (int i = 0; i < config_.threads; ++i) threads_.emplace_back([this, i] { SendLoop(i); });
  return Status::OK();
}

void ProducerWorkload::SendLoop(int thread_index) {
  const std::string body = MakeBody(config_.message_size);
  Window& window = *windows_[thread_index];
  int64_t seq = 0;
  // One message, changed per send: the producer copies what it sends, so a new Message (and
  // a copy of the body) per send would measure mqbench's allocations, not the library's.
  Message message(config_.topic, body);
  auto make_message = [&]() -> const Message& {
    if (config_.key_enable)
      message.set_keys("k-" + std::to_string(thread_index) + "-" + std::to_string(seq));
    ++seq;
    return message;
  };
  const int64_t batch = config_.send_mode == SendMode::kSync ? config_.batch_size : 1;
  while (!stop_.load(std::memory_order_relaxed) && Claim(batch)) {
    const int64_t bytes = batch * config_.message_size;
    switch (config_.send_mode) {
      case SendMode::kSync: {
        const int64_t t0 = MonotonicMicros();
        std::vector<Message> msgs;
        if (batch > 1) {
          for (int64_t i = 0; i < batch; ++i) msgs.push_back(make_message());
        }
        Result<SendResult> r = batch == 1 ? producer_->Send(make_message()) : producer_->Send(msgs);
        if (r.ok()) {
          stats_->RecordSuccess(MonotonicMicros() - t0, batch, bytes);
        } else {
          stats_->RecordFailure(batch);
        }
        break;
      }
      case SendMode::kAsync: {
        {
          std::unique_lock<std::mutex> lock(window.mu);
          if (window.in_flight >= config_.async_window) {
            window.sender_waits = true;
            window.cv.wait(lock, [&] { return window.in_flight <= window.resume_at; });
          }
          ++window.in_flight;
        }
        const int64_t t0 = MonotonicMicros();
        producer_->SendAsync(make_message(), [shared = &window, t0](Result<SendResult> r) {
          if (r.ok()) {
            shared->stats->RecordSuccess(MonotonicMicros() - t0, 1, shared->message_bytes);
          } else {
            shared->stats->RecordFailure(1);
          }
          std::lock_guard<std::mutex> lock(shared->mu);
          --shared->in_flight;
          bool wake = false;
          if (shared->sender_waits && shared->in_flight <= shared->resume_at) {
            shared->sender_waits = false;
            wake = true;
          }
          if (shared->drain_waits && shared->in_flight == 0) wake = true;
          if (wake) shared->cv.notify_all();
        });
        break;
      }
      case SendMode::kOneway: {
        if (producer_->SendOneway(make_message()).ok()) {
          stats_->RecordUnacked(1, bytes);
        } else {
          stats_->RecordFailure(1);
        }
        break;
      }
    }
  }
  running_threads_.fetch_sub(1);
}

bool ProducerWorkload::Finished() const {
  if (running_threads_.load() > 0) return false;
  for (const auto& w : windows_) {
    std::lock_guard<std::mutex> lock(w->mu);
    if (w->in_flight > 0) return false;
  }
  return true;
}

void ProducerWorkload::Stop() {
  stop_ = true;
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  auto deadline = std::chrono::steady_clock::now() + kDrainTimeout;
  for (const auto& w : windows_) {
    std::unique_lock<std::mutex> lock(w->mu);
    w->drain_waits = true;
    w->cv.wait_until(lock, deadline, [&] { return w->in_flight == 0; });
  }
  if (producer_) producer_->Shutdown();
  for (const auto& w : windows_) {
    std::lock_guard<std::mutex> lock(w->mu);
    // A callback still to come would find its window freed: keep it (a few hundred bytes,
    // only after a drain timed out).
    if (w->in_flight > 0) new std::shared_ptr<Window>(w);
  }
}

}  // namespace apogee::admin
