// The client's side of a pull: the body of a PULL_MESSAGE answer (32 records of 1 KiB, the
// properties a producer and the broker put on each) decoded into MessageExt values, as the
// push consumer and mqbench's consumer do for every pulled message, and the push consumer's
// conversion of them into the public MessageExt. docs/benchmarks.md,
// "Client decode of pulled messages".
#include <benchmark/benchmark.h>

#include <string>

#include "client/pull_api_wrapper.h"
#include "message/message_record.h"
#include "protocol/response_code.h"

namespace apogee::message {
namespace {

constexpr int kRecordsPerPull = 32;

std::string PullBody() {
  std::string body;
  const std::string payload(1024, 'x');
  const std::string properties =
      "UNIQ_KEY\x01" "AC11000100002A9F00000000000000C1\x02WAIT\x01true\x02"
      "CLUSTER\x01" "DefaultCluster\x02";
  for (int i = 0; i < kRecordsPerPull; ++i) {
    RecordFields f;
    f.queue_id = 3;
    f.queue_offset = 1000 + i;
    f.physical_offset = 1 << 20;
    f.born_timestamp = 1764720000000;
    f.store_timestamp = 1764720000001;
    f.born_host = HostAddress::IPv4(127, 0, 0, 1, 50000);
    f.store_host = HostAddress::IPv4(127, 0, 0, 1, 10911);
    f.body = payload;
    f.topic = "BenchmarkTest";
    f.properties = properties;
    auto record = EncodeRecordToString(f);
    body += *record;
  }
  return body;
}

void BM_DecodePulledMessages(benchmark::State& state) {
  const std::string body = PullBody();
  for (auto _ : state) {
    auto messages = DecodeMessages(body);
    benchmark::DoNotOptimize(messages);
  }
  state.SetItemsProcessed(state.iterations() * kRecordsPerPull);
}
BENCHMARK(BM_DecodePulledMessages);

// The push consumer's whole step (PullAPIWrapper.processPullResult): decode, tag check, the
// public MessageExt with MIN_OFFSET / MAX_OFFSET added.
void BM_PushConsumerProcessPullResponse(benchmark::State& state) {
  client::PullResponse response;
  response.code = protocol::response_code::kSuccess;
  response.header.min_offset = 0;
  response.header.max_offset = 123456;
  response.header.next_begin_offset = 1032;
  response.body = PullBody();
  const protocol::MessageQueue mq{"BenchmarkTest", "broker-a", 3};
  protocol::SubscriptionData sub;
  sub.topic = "BenchmarkTest";
  sub.sub_string = "*";
  for (auto _ : state) {
    auto result = client::ProcessPullResponse(response, mq, sub);
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * kRecordsPerPull);
}
BENCHMARK(BM_PushConsumerProcessPullResponse);

}  // namespace
}  // namespace apogee::message

BENCHMARK_MAIN();
