// Transaction throughput through a real broker over loopback: an in-process
// BrokerController (ASYNC_FLUSH store in a temp directory, no NameServer) and the project's
// RemotingClient acting as a transactional producer. One iteration = one transaction:
// a prepared SEND_MESSAGE_V2 of 1 KiB (parked in RMQ_SYS_TRANS_HALF_TOPIC) followed by an
// END_TRANSACTION commit sent as a request (as ali-ons and the C++ client do), which stores
// the real message and an op record. Reports transactions per second and the p99 of the
// whole prepare + commit. Results: docs/benchmarks.md "Transactions".
//
//   ./build/<dir>/bench/transaction_bench --benchmark_min_time=2
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
#include "message/message_id.h"
#include "message/properties.h"
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

constexpr char kTopic[] = "TxBenchTopic";
constexpr char kGroup[] = "TxBenchPG";
constexpr int kQueues = 16;
constexpr size_t kBodySize = 1024;
constexpr auto kTimeout = std::chrono::seconds(10);

RemotingCommand PreparedRequest(int32_t queue_id, uint64_t n) {
  apogee::protocol::SendMessageRequestHeader h;
  h.producer_group = kGroup;
  h.topic = kTopic;
  h.default_topic = std::string(apogee::protocol::kAutoCreateTopicKeyTopic);
  h.default_topic_queue_nums = 4;
  h.queue_id = queue_id;
  h.sys_flag = 0x4;  // PREPARED
  h.born_timestamp = apogee::NowMillis();
  apogee::message::MessageProperties props;
  (void)props.Set("TRAN_MSG", "true");
  (void)props.Set("PGROUP", kGroup);
  std::string id = std::to_string(n);
  (void)props.Set("UNIQ_KEY", "7F000001" + std::string(24 - id.size(), '0') + id);
  h.properties = props.Encode();
  RemotingCommand request = RemotingCommand::MakeRequest(req::kSendMessageV2);
  apogee::protocol::EncodeCustomHeader(apogee::protocol::SendMessageRequestHeaderV2{h}, &request);
  request.body.assign(kBodySize, 'x');
  return request;
}

RemotingCommand CommitRequest(const RemotingCommand& send_response) {
  apogee::protocol::EndTransactionRequestHeader h;
  h.producer_group = kGroup;
  h.tran_state_table_offset =
      std::stoll(std::string(send_response.ext_fields.Get("queueOffset").value_or("0")));
  auto id = apogee::message::ParseOffsetMsgId(send_response.ext_fields.Get("msgId").value_or(""));
  h.commit_log_offset = id.ok() ? id->physical_offset : -1;
  h.commit_or_rollback = 0x8;
  h.msg_id = std::string(send_response.ext_fields.Get("msgId").value_or(""));
  RemotingCommand request = RemotingCommand::MakeRequest(req::kEndTransaction);
  apogee::protocol::EncodeCustomHeader(h, &request);
  return request;
}

// The broker, its client and the transaction id counter, for the whole run.
struct BrokerSetup : apogee::bench::BenchBroker {
  BrokerSetup()
      : BenchBroker("transaction_bench", kTopic, kQueues,
                    {"broker", "store", "remoting", "net", "transaction"}) {}
  std::atomic<uint64_t> next_id{0};
};

BrokerSetup& Setup() {
  static BrokerSetup* setup = new BrokerSetup();  // lives for the process
  return *setup;
}

using apogee::bench::P99Micros;

void BM_PrepareCommit1KiB(benchmark::State& state) {
  BrokerSetup& setup = Setup();
  const int32_t queue_id = state.thread_index() % kQueues;
  std::vector<double> micros;
  micros.reserve(1 << 16);
  for (auto _ : state) {
    auto start = Clock::now();
    auto sent = setup.client().InvokeSync(setup.addr(), PreparedRequest(queue_id, setup.next_id++),
                                          kTimeout);
    if (!sent.ok() || sent->code != rc::kSuccess) {
      state.SkipWithError("prepared send failed");
      break;
    }
    auto ended = setup.client().InvokeSync(setup.addr(), CommitRequest(*sent), kTimeout);
    micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (!ended.ok() || ended->code != rc::kSuccess) {
      state.SkipWithError("commit failed");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["p99_us"] = benchmark::Counter(P99Micros(micros), benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_PrepareCommit1KiB)->Threads(1)->Threads(4)->Threads(16)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
