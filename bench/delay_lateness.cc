// Lateness of delayed and timer messages through a real broker over loopback (a plain
// main, not Google Benchmark: what matters is the distribution of "how late", not a rate).
//
// An in-process BrokerController (ASYNC_FLUSH, messageDelayLevel "1s 2s 3s ...") gets, one
// phase at a time, N messages with DELAY level 1 (sent as fast as one client can) and N
// timer messages with TIMER_DELIVER_MS spread over the next 1-4 s. One long-polling puller
// per queue records when each message becomes visible. Reported per phase, in ms:
//   stored   = store time of the delivered copy - due time (the broker's own lateness)
//   received = the puller's receipt time - due time (what a consumer sees)
// The due time of a DELAY message is taken as send start + 1000 ms, which is at or before
// the true due time, so its lateness is an upper bound; a timer message's due time is
// exact (TIMER_OUT_MS). "early" counts messages stored before their due time (must be 0).
//
// Usage: delay_lateness [messages per phase, default 3000]
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/logging.h"
#include "bench_ports.h"
#include "broker/broker_config.h"
#include "broker/broker_controller.h"
#include "message/message.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/admin_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "protocol/system_topics.h"
#include "remoting/remoting_client.h"

namespace {

namespace rc = apogee::protocol::response_code;
namespace req = apogee::protocol::request_code;
using apogee::protocol::RemotingCommand;

constexpr int kQueues = 4;
constexpr auto kTimeout = std::chrono::seconds(10);

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "delay_lateness: %s\n", what.c_str());
  std::exit(1);
}

int PickBrokerPort() {
  std::srand(static_cast<unsigned>(getpid()));
  const int port = apogee::bench::PickBrokerPort();
  if (port == 0) Fail("no free port");
  return port;
}

template <typename H>
RemotingCommand Request(int32_t code, const H& header) {
  RemotingCommand request = RemotingCommand::MakeRequest(code);
  apogee::protocol::EncodeCustomHeader(header, &request);
  return request;
}

struct Sample {
  int64_t due = 0;        // ms
  int64_t stored = -1;    // store time of the delivered copy
  int64_t received = -1;  // first receipt by a puller
};

struct Stats {
  std::string Line(std::vector<int64_t> v) const {
    if (v.empty()) return "n/a";
    std::sort(v.begin(), v.end());
    auto at = [&](double q) {
      return v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))];
    };
    return std::to_string(at(0.5)) + " / " + std::to_string(at(0.99)) + " / " +
           std::to_string(v.back());
  }
};

class Bench {
 public:
  Bench() {
    for (const char* name : {"broker", "store", "remoting", "net"}) {
      apogee::GetLogger(name)->set_level(spdlog::level::warn);
    }
    char tmpl[] = "/tmp/apogee-delay-lateness-XXXXXX";
    dir_ = mkdtemp(tmpl);
    const int port = PickBrokerPort();
    apogee::Status s = config_.ApplyProperties({
        {"brokerName", "lateness-a"},
        {"brokerIP1", "127.0.0.1"},
        {"bindAddress", "127.0.0.1"},
        {"listenPort", std::to_string(port)},
        {"storePathRootDir", dir_ + "/store"},
        {"flushDiskType", "ASYNC_FLUSH"},
        {"messageDelayLevel", "1s 2s 3s 4s 5s 6s 7s 8s 9s 10s"},
    });
    if (!s.ok()) Fail("config: " + s.ToString());
    controller_ = std::make_unique<apogee::broker::BrokerController>(&config_);
    if (s = controller_->Initialize(); !s.ok()) Fail("initialize: " + s.ToString());
    if (s = controller_->Start(); !s.ok()) Fail("start: " + s.ToString());
    addr_ = "127.0.0.1:" + std::to_string(controller_->port());
    client_.Start();
  }
  ~Bench() {
    client_.Shutdown();
    controller_->Shutdown();
    std::filesystem::remove_all(dir_);
  }

  void CreateTopic(const std::string& topic) {
    apogee::protocol::CreateTopicRequestHeader h;
    h.topic = topic;
    h.default_topic = apogee::protocol::kAutoCreateTopicKeyTopic;
    h.read_queue_nums = kQueues;
    h.write_queue_nums = kQueues;
    h.perm = 6;
    h.topic_filter_type = "SINGLE_TAG";
    auto res = client_.InvokeSync(addr_, Request(req::kUpdateAndCreateTopic, h), kTimeout);
    if (!res.ok() || res->code != rc::kSuccess) Fail("create topic " + topic);
  }

  // One phase: `n` messages to `topic`, each given its properties by `props(i)`, which
  // returns the message's due time.
  template <typename PropsFn>
  void RunPhase(const std::string& name, const std::string& topic, int n, PropsFn props) {
    CreateTopic(topic);
    std::vector<Sample> samples(static_cast<size_t>(n));
    std::mutex mu;
    std::atomic<int> received{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> pullers;
    for (int q = 0; q < kQueues; ++q) {
      pullers.emplace_back([&, q] {
        int64_t offset = 0;
        while (!stop.load()) {
          apogee::protocol::PullMessageRequestHeader h;
          h.consumer_group = "LatenessCG";
          h.topic = topic;
          h.queue_id = q;
          h.queue_offset = offset;
          h.max_msg_nums = 32;
          h.sys_flag = 0x2 | 0x4;  // suspend, subscription
          h.suspend_timeout_millis = 1000;
          h.subscription = "*";
          auto res = client_.InvokeSync(addr_, Request(req::kPullMessage, h), kTimeout);
          const int64_t now = apogee::NowMillis();
          if (!res.ok() || res->code != rc::kSuccess) continue;
          auto msgs = apogee::message::DecodeMessages(res->body);
          if (!msgs.ok()) Fail("decode: " + msgs.status().ToString());
          std::lock_guard<std::mutex> lock(mu);
          for (const auto& m : *msgs) {
            const size_t i = static_cast<size_t>(std::stoll(m.body));
            if (samples[i].received < 0) {
              samples[i].received = now;
              samples[i].stored = m.store_timestamp;
              received.fetch_add(1);
            }
            offset = m.queue_offset + 1;
          }
        }
      });
    }
    const int64_t start = apogee::NowMillis();
    for (int i = 0; i < n; ++i) {
      apogee::protocol::SendMessageRequestHeaderV2 h;
      h.producer_group = "LatenessPG";
      h.topic = topic;
      h.default_topic = apogee::protocol::kAutoCreateTopicKeyTopic;
      h.default_topic_queue_nums = kQueues;
      h.queue_id = i % kQueues;
      h.born_timestamp = apogee::NowMillis();
      apogee::message::MessageProperties p;
      const int64_t due = props(i, &p);
      h.properties = p.Encode();
      RemotingCommand request = Request(req::kSendMessageV2, h);
      request.body = std::to_string(i);
      {
        std::lock_guard<std::mutex> lock(mu);
        samples[static_cast<size_t>(i)].due = due;
      }
      auto res = client_.InvokeSync(addr_, std::move(request), kTimeout);
      if (!res.ok() || res->code != rc::kSuccess) Fail("send failed");
    }
    const int64_t sent = apogee::NowMillis();
    while (received.load() < n && apogee::NowMillis() - sent < 60000) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    stop = true;
    for (auto& t : pullers) t.join();

    std::vector<int64_t> stored, got;
    int early = 0;
    for (const Sample& s : samples) {
      if (s.received < 0) continue;
      if (s.stored < s.due) ++early;
      stored.push_back(s.stored - s.due);
      got.push_back(s.received - s.due);
    }
    Stats st;
    std::printf("%-34s sent %d in %lld ms, delivered %zu, early %d\n", name.c_str(), n,
                static_cast<long long>(sent - start), got.size(), early);
    std::printf("  stored   lateness p50 / p99 / max: %s ms\n", st.Line(stored).c_str());
    std::printf("  received lateness p50 / p99 / max: %s ms\n", st.Line(got).c_str());
  }

 private:
  std::string dir_;
  apogee::broker::BrokerConfig config_;
  std::unique_ptr<apogee::broker::BrokerController> controller_;
  apogee::remoting::RemotingClient client_;
  std::string addr_;
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3000;
  Bench bench;
  bench.RunPhase("DELAY level 1 (1 s)", "LatenessDelay", n,
                 [](int, apogee::message::MessageProperties* p) {
                   (void)p->Set("DELAY", "1");
                   return apogee::NowMillis() + 1000;
                 });
  bench.RunPhase("TIMER_DELIVER_MS now + 1..4 s", "LatenessTimer", n,
                 [](int i, apogee::message::MessageProperties* p) {
                   const int64_t due = apogee::NowMillis() + 1000 + (i * 7919) % 3000;
                   (void)p->Set("TIMER_DELIVER_MS", std::to_string(due));
                   return due;
                 });
  return 0;
}
