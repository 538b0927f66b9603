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
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/logging.h"
#include "bench_broker.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "protocol/system_topics.h"
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
  h.default_topic = std::string(apogee::protocol::kAutoCreateTopicKeyTopic);
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

using BrokerSetup = apogee::bench::BenchBroker;

// One broker and one client for the whole run.
BrokerSetup& Setup() {
  static BrokerSetup* setup =
      new BrokerSetup("broker_load_bench", kTopic, kQueues, {"broker", "store", "remoting", "net"});
  return *setup;
}

using apogee::bench::P99Micros;

// Each thread sends to its own queue; one round trip per message.
void BM_Send1KiB(benchmark::State& state) {
  BrokerSetup& setup = Setup();
  const int32_t queue_id = state.thread_index() % kQueues;
  std::vector<double> micros;
  micros.reserve(1 << 16);
  for (auto _ : state) {
    auto start = Clock::now();
    auto res = setup.client().InvokeSync(setup.addr(), SendRequest(queue_id), kTimeout);
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
    auto max = setup.client().InvokeSync(setup.addr(), Request(req::kGetMaxOffset, mh), kTimeout);
    if (max.ok() && max->code == rc::kSuccess) {
      auto h =
          apogee::protocol::DecodeCustomHeader<apogee::protocol::GetMaxOffsetResponseHeader>(*max);
      if (h.ok()) have = h->offset;
    }
    for (int64_t i = have; i < kFill; ++i) {
      (void)setup.client().InvokeSync(setup.addr(), SendRequest(queue_id), kTimeout);
    }
  }
  std::vector<double> micros;
  micros.reserve(1 << 16);
  int64_t offset = 0;
  int64_t messages = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    auto res = setup.client().InvokeSync(setup.addr(), PullRequest(queue_id, offset), kTimeout);
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
