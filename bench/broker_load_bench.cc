// End-to-end load through a real broker over loopback: an in-process BrokerController
// (ASYNC_FLUSH store in a temp directory, no NameServer) serving the project's
// RemotingClient. SEND_MESSAGE_V2 of 1 KiB bodies and PULL_MESSAGE of 32 x 1 KiB, with
// 1..16 client threads sharing one connection; reports messages per second and the p99
// round trip. Results: docs/benchmarks.md "Broker end to end".
//
//   ./build/<dir>/bench/broker_load_bench --benchmark_min_time=2
#include <benchmark/benchmark.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/broker_controller.h"
#include "protocol/admin_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "remoting/remoting_client.h"

#include "bench_ports.h"

namespace {

namespace rc = apogee::protocol::response_code;
namespace req = apogee::protocol::request_code;
using apogee::protocol::RemotingCommand;
using Clock = std::chrono::steady_clock;

constexpr char kTopic[] = "BenchTopic";
constexpr int kQueues = 16;
constexpr size_t kBodySize = 1024;
constexpr auto kTimeout = std::chrono::seconds(10);

using apogee::bench::PickBrokerPort;

template <typename H>
RemotingCommand Request(int32_t code, const H& header) {
  RemotingCommand request = RemotingCommand::MakeRequest(code);
  apogee::protocol::EncodeCustomHeader(header, &request);
  return request;
}

RemotingCommand SendRequest(int32_t queue_id) {
  apogee::protocol::SendMessageRequestHeader h;
  h.producer_group = "BenchPG";
  h.topic = kTopic;
  h.default_topic = "TBW102";
  h.default_topic_queue_nums = 4;
  h.queue_id = queue_id;
  h.born_timestamp = apogee::NowMillis();
  RemotingCommand request = RemotingCommand::MakeRequest(req::kSendMessageV2);
  apogee::protocol::EncodeCustomHeader(apogee::protocol::SendMessageRequestHeaderV2{h}, &request);
  request.body.assign(kBodySize, 'x');
  return request;
}

RemotingCommand PullRequest(int32_t queue_id, int64_t offset) {
  apogee::protocol::PullMessageRequestHeader h;
  h.consumer_group = "BenchCG";
  h.topic = kTopic;
  h.queue_id = queue_id;
  h.queue_offset = offset;
  h.max_msg_nums = 32;
  h.sys_flag = 4;  // subscription present; no commit, no suspend
  h.subscription = "*";
  h.expression_type = "TAG";
  return Request(req::kPullMessage, h);
}

// One broker and one client for the whole run.
struct BrokerSetup {
  BrokerSetup() {
    for (const char* name : {"broker", "store", "remoting", "net"}) {
      apogee::GetLogger(name)->set_level(spdlog::level::warn);
    }
    char tmpl[] = "/tmp/apogee-broker-bench-XXXXXX";
    dir = mkdtemp(tmpl);
    int port = PickBrokerPort();
    apogee::Status s = config.ApplyProperties({
        {"brokerName", "bench-a"},
        {"brokerIP1", "127.0.0.1"},
        {"bindAddress", "127.0.0.1"},
        {"listenPort", std::to_string(port)},
        {"storePathRootDir", dir + "/store"},
        {"flushDiskType", "ASYNC_FLUSH"},
    });
    if (!s.ok()) Fail("config: " + s.ToString());
    controller = std::make_unique<apogee::broker::BrokerController>(&config);
    if (s = controller->Initialize(); !s.ok()) Fail("initialize: " + s.ToString());
    if (s = controller->Start(); !s.ok()) Fail("start: " + s.ToString());
    addr = "127.0.0.1:" + std::to_string(controller->port());
    client.Start();
    apogee::protocol::CreateTopicRequestHeader h;
    h.topic = kTopic;
    h.default_topic = "TBW102";
    h.read_queue_nums = kQueues;
    h.write_queue_nums = kQueues;
    h.perm = 6;
    h.topic_filter_type = "SINGLE_TAG";
    auto res = client.InvokeSync(addr, Request(req::kUpdateAndCreateTopic, h), kTimeout);
    if (!res.ok() || res->code != rc::kSuccess) Fail("create topic failed");
  }
  ~BrokerSetup() {
    client.Shutdown();
    controller->Shutdown();
    std::filesystem::remove_all(dir);
  }
  [[noreturn]] static void Fail(const std::string& what) {
    std::fprintf(stderr, "broker_load_bench: %s\n", what.c_str());
    std::abort();
  }

  std::string dir;
  apogee::broker::BrokerConfig config;
  std::unique_ptr<apogee::broker::BrokerController> controller;
  apogee::remoting::RemotingClient client;
  std::string addr;
};

BrokerSetup& Setup() {
  static BrokerSetup* setup = new BrokerSetup();  // lives for the process
  return *setup;
}

double P99Micros(std::vector<double>& micros) {
  if (micros.empty()) return 0;
  size_t k = micros.size() * 99 / 100;
  std::nth_element(micros.begin(), micros.begin() + k, micros.end());
  return micros[k];
}

// Each thread sends to its own queue; one round trip per message.
void BM_Send1KiB(benchmark::State& state) {
  BrokerSetup& setup = Setup();
  const int32_t queue_id = state.thread_index() % kQueues;
  std::vector<double> micros;
  micros.reserve(1 << 16);
  for (auto _ : state) {
    auto start = Clock::now();
    auto res = setup.client.InvokeSync(setup.addr, SendRequest(queue_id), kTimeout);
    micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (!res.ok() || res->code != rc::kSuccess) {
      state.SkipWithError("send failed");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(kBodySize));
  state.counters["p99_us"] = benchmark::Counter(P99Micros(micros), benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_Send1KiB)->Threads(1)->Threads(4)->Threads(16)->UseRealTime();

// Each thread pulls 32 messages per request from its own pre-filled queue, wrapping
// around at the end (the data stays in the page cache: this measures the broker path).
void BM_Pull32x1KiB(benchmark::State& state) {
  BrokerSetup& setup = Setup();
  const int32_t queue_id = state.thread_index() % kQueues;
  constexpr int64_t kFill = 4096;
  if (state.thread_index() < kQueues) {
    // BM_Send1KiB left some messages; top the queue up to kFill.
    int64_t have = 0;
    apogee::protocol::GetMaxOffsetRequestHeader mh;
    mh.topic = kTopic;
    mh.queue_id = queue_id;
    auto max = setup.client.InvokeSync(setup.addr, Request(req::kGetMaxOffset, mh), kTimeout);
    if (max.ok() && max->code == rc::kSuccess) {
      auto h =
          apogee::protocol::DecodeCustomHeader<apogee::protocol::GetMaxOffsetResponseHeader>(*max);
      if (h.ok()) have = h->offset;
    }
    for (int64_t i = have; i < kFill; ++i) {
      (void)setup.client.InvokeSync(setup.addr, SendRequest(queue_id), kTimeout);
    }
  }
  std::vector<double> micros;
  micros.reserve(1 << 16);
  int64_t offset = 0;
  int64_t messages = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    auto res = setup.client.InvokeSync(setup.addr, PullRequest(queue_id, offset), kTimeout);
    micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (!res.ok()) {
      state.SkipWithError("pull failed");
      break;
    }
    if (res->code == rc::kSuccess) {
      auto h =
          apogee::protocol::DecodeCustomHeader<apogee::protocol::PullMessageResponseHeader>(*res);
      if (!h.ok()) {
        state.SkipWithError("bad pull header");
        break;
      }
      messages += (h->next_begin_offset - offset);
      offset = h->next_begin_offset;
      if (offset >= kFill) offset = 0;
    } else {
      offset = 0;  // PULL_NOT_FOUND etc.: start over
    }
  }
  state.SetItemsProcessed(messages);
  state.SetBytesProcessed(messages * static_cast<int64_t>(kBodySize));
  state.counters["p99_us"] = benchmark::Counter(P99Micros(micros), benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_Pull32x1KiB)->Threads(1)->Threads(4)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
