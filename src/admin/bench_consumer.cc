#include "admin/bench_consumer.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

#include "admin/client_transport.h"
#include "client/mq_client_api.h"
#include "message/message_record.h"
#include "protocol/consumer_headers.h"
#include "protocol/mix_all.h"
#include "protocol/pull_sys_flag.h"
#include "protocol/response_code.h"
#include "protocol/route_data.h"
#include "protocol/topic_config.h"

namespace apogee::admin {
namespace {

constexpr auto kRpcTimeout = std::chrono::seconds(5);
// PullSysFlag.FLAG_SUBSCRIPTION: the pull carries its own "*" subscription.
constexpr int32_t kPullBatch = 32;
// A thread whose queues all came back empty waits this long before asking again.
constexpr auto kIdleWait = std::chrono::milliseconds(2);

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

ConsumerWorkload::ConsumerWorkload(BenchConfig config) : config_(std::move(config)) {}

ConsumerWorkload::~ConsumerWorkload() { Stop(); }

Status ConsumerWorkload::Start(BenchStats* stats) {
  stats_ = stats;
  client::MQClientAPIOptions options;
  if (config_.tls) {
    APOGEE_ASSIGN_OR_RETURN(options.tls, ClientTransport::ResolveToolTls(config_.tls_config_file));
    options.use_tls = true;
  }
  options.credentials = BenchCredentials(config_);
  api_ = std::make_unique<client::MQClientAPI>(options);
  APOGEE_RETURN_IF_ERROR(api_->UpdateNameServerAddressList(config_.namesrv_addr));
  api_->Start();
  APOGEE_ASSIGN_OR_RETURN(protocol::TopicRouteData route,
                          api_->GetTopicRouteInfoFromNameServer(config_.topic, kRpcTimeout));
  std::vector<QueueCursor> all;
  for (const protocol::QueueData& q : route.queue_datas) {
    if (!(q.perm & protocol::kPermRead)) continue;
    std::string addr;
    for (const protocol::BrokerData& b : route.broker_datas) {
      auto m = b.broker_addrs.find(protocol::kMasterId);
      if (b.broker_name == q.broker_name && m != b.broker_addrs.end()) addr = m->second;
    }
    if (addr.empty()) continue;
    for (int32_t id = 0; id < q.read_queue_nums; ++id) {
      auto offset = config_.from_start ? api_->GetMinOffset(addr, config_.topic, id, kRpcTimeout)
                                       : api_->GetMaxOffset(addr, config_.topic, id, kRpcTimeout);
      if (!offset.ok()) return offset.status();
      all.push_back({addr, id, *offset});
    }
  }
  if (all.empty()) return Status::NotFound("topic " + config_.topic + " has no readable queue with a master");
  const size_t n = std::min<size_t>(static_cast<size_t>(config_.threads), all.size());
  std::vector<std::vector<QueueCursor>> shares(n);
  for (size_t i = 0; i < all.size(); ++i) shares[i % n].push_back(all[i]);
  for (auto& share : shares) threads_.emplace_back([this, s = std::move(share)] { PullLoop(s); });
  return Status::OK();
}

void ConsumerWorkload::PullLoop(std::vector<QueueCursor> queues) {
  namespace resp = protocol::response_code;
  // One round pulls every queue of this thread at once and waits for all the answers: one
  // wake-up of this thread per round instead of one per queue, and every queue's pull in
  // flight while the broker serves the others. The answers are decoded here, not on the
  // client's IO thread, so the threads decode in parallel (a catch-up read needs that).
  // The remoting client calls every callback exactly once (answer, error or timeout), and a
  // round always waits for all of them, so the callbacks never outlive `round`.
  struct Round {
    std::mutex mu;
    std::condition_variable done;
    size_t pending = 0;
    std::vector<std::optional<Result<client::PullResponse>>> answers;
  } round;
  round.answers.resize(queues.size());
  while (!stop_.load(std::memory_order_relaxed)) {
    {
      std::lock_guard<std::mutex> lock(round.mu);
      round.pending = queues.size();
    }
    for (size_t i = 0; i < queues.size(); ++i) {
      const QueueCursor& q = queues[i];
      protocol::PullMessageRequestHeader header;
      header.consumer_group = config_.group;
      header.topic = config_.topic;
      header.queue_id = q.queue_id;
      header.queue_offset = q.offset;
      header.max_msg_nums = kPullBatch;
      header.sys_flag = protocol::kPullFlagSubscription;
      header.subscription = "*";
      api_->PullMessageAsync(q.broker_addr, header, kRpcTimeout,
                             [&round, i](Result<client::PullResponse> answer) {
                               std::lock_guard<std::mutex> lock(round.mu);
                               round.answers[i] = std::move(answer);
                               if (--round.pending == 0) round.done.notify_one();
                             });
    }
    {
      std::unique_lock<std::mutex> lock(round.mu);
      round.done.wait(lock, [&round] { return round.pending == 0; });
    }
    bool got_any = false;
    for (size_t i = 0; i < queues.size(); ++i) {
      QueueCursor& q = queues[i];
      Result<client::PullResponse> r = std::move(*round.answers[i]);
      round.answers[i].reset();
      if (!r.ok()) {
        stats_->RecordFailure(1);
        continue;
      }
      if (r->code == resp::kSuccess) {
        auto msgs = message::DecodeMessages(r->body);
        if (!msgs.ok()) {
          stats_->RecordFailure(1);
        } else {
          const int64_t now = NowMillis();
          for (const message::MessageExt& m : *msgs) {
            // Born-to-consume: both clocks are this machine's in a local benchmark.
            stats_->RecordSuccess((now - m.born_timestamp) * 1000, 1, static_cast<int64_t>(m.body.size()));
          }
          received_.fetch_add(static_cast<int64_t>(msgs->size()));
          got_any = !msgs->empty() || got_any;
        }
      }
      if (r->header.next_begin_offset > q.offset) q.offset = r->header.next_begin_offset;
    }
    if (!got_any) std::this_thread::sleep_for(kIdleWait);
  }
}

bool ConsumerWorkload::Finished() const {
  return config_.message_quantity > 0 && received_.load() >= config_.message_quantity;
}

void ConsumerWorkload::Stop() {
  stop_ = true;
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  if (api_) api_->Shutdown();
}

}  // namespace apogee::admin
