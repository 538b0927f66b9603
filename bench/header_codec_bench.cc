// The per-request header work of a send, alone: the JSON header of a SEND_MESSAGE_V2 as a Java
// producer writes it (one-letter keys, UNIQ_KEY and WAIT properties), decoded into a command,
// then into the typed send header, and the answer's header encoded (through the map, and as JSON
// text as the broker writes it). Run it under
// `valgrind --tool=callgrind` for instruction counts a loaded machine does not blur
// (docs/benchmarks.md, "Header decode and encode").
#include <benchmark/benchmark.h>

#include <string>

#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"
#include "protocol/send_headers.h"

namespace apogee::protocol {
namespace {

RemotingCommand JavaSendRequest() {
  RemotingCommand request = RemotingCommand::MakeRequest(310);  // SEND_MESSAGE_V2
  request.opaque = 42;
  request.has_ext_fields = true;
  request.ext_fields.Set("a", "benchmark_producer");
  request.ext_fields.Set("b", "BenchmarkTest");
  request.ext_fields.Set("c", "TBW102");
  request.ext_fields.Set("d", "4");
  request.ext_fields.Set("e", "3");
  request.ext_fields.Set("f", "0");
  request.ext_fields.Set("g", "1764720000000");
  request.ext_fields.Set("h", "0");
  request.ext_fields.Set("i", "UNIQ_KEY\x01" "AC11000100002A9F00000000000000C1\x02WAIT\x01true\x02");
  request.ext_fields.Set("j", "0");
  request.ext_fields.Set("k", "false");
  request.ext_fields.Set("m", "false");
  request.ext_fields.Set("n", "broker-a");
  request.body.assign(1024, 'x');
  return request;
}

// The frame as it arrives, without its 4-byte length.
std::string SendFrame() {
  std::string frame;
  EncodeCommand(JavaSendRequest(), &frame);
  return frame.substr(4);
}

void BM_DecodeSendRequest(benchmark::State& state) {
  const std::string frame = SendFrame();
  for (auto _ : state) {
    RemotingCommand command;
    Status s = DecodeCommandInto(frame, DecodeLimits{}, &command);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(command);
  }
}
BENCHMARK(BM_DecodeSendRequest);

void BM_DecodeSendMessageRequestHeader(benchmark::State& state) {
  const RemotingCommand request = JavaSendRequest();
  for (auto _ : state) {
    auto header = DecodeSendMessageRequestHeader(request);
    benchmark::DoNotOptimize(header);
  }
}
BENCHMARK(BM_DecodeSendMessageRequestHeader);

// What a broker does with each send: the frame decoded, then the typed header read.
void BM_DecodeSendRequestAndHeader(benchmark::State& state) {
  const std::string frame = SendFrame();
  for (auto _ : state) {
    RemotingCommand command;
    Status s = DecodeCommandInto(frame, DecodeLimits{}, &command);
    auto header = DecodeSendMessageRequestHeader(command);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(header);
  }
}
BENCHMARK(BM_DecodeSendRequestAndHeader);

// The typed header of a stored send's answer.
SendMessageResponseHeader SendAnswerHeader() {
  SendMessageResponseHeader header;
  header.msg_id = "7F00000100002A9F0000000000AB12CD";
  header.queue_id = 3;
  header.queue_offset = 123456;
  return header;
}

void BM_EncodeSendResponse(benchmark::State& state) {
  const RemotingCommand request = JavaSendRequest();
  const SendMessageResponseHeader header = SendAnswerHeader();
  std::string out;
  for (auto _ : state) {
    RemotingCommand response = RemotingCommand::MakeResponse(request, 0);
    EncodeCustomHeader(header, &response);
    response.ext_fields.Set("MSG_REGION", "DefaultRegion");
    response.ext_fields.Set("TRACE_ON", "true");
    out.clear();
    EncodeCommand(response, &out);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_EncodeSendResponse);

// The broker's answer: members written as JSON text (EncodeCustomHeaderToSend).
void BM_EncodeSendResponseToSend(benchmark::State& state) {
  const RemotingCommand request = JavaSendRequest();
  const SendMessageResponseHeader header = SendAnswerHeader();
  std::string out;
  for (auto _ : state) {
    RemotingCommand response = RemotingCommand::MakeResponse(request, 0);
    AddExtFieldToSend("MSG_REGION", "DefaultRegion", &response);
    AddExtFieldToSend("TRACE_ON", "true", &response);
    EncodeCustomHeaderToSend(header, &response);
    out.clear();
    EncodeCommand(response, &out);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_EncodeSendResponseToSend);

}  // namespace
}  // namespace apogee::protocol

BENCHMARK_MAIN();
