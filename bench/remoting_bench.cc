// Remoting round trips over loopback (small JSON header, 1 KiB body, echoed back), next
// to a plain TCP ping-pong of the same frame size measured in the same run, so the
// ratio shows what the remoting layer (framing, header codec, opaque table, executor
// hand-offs, asio) costs over the bare socket. Results: docs/benchmarks.md "Remoting".
//
//   ./build/<dir>/bench/remoting_bench --benchmark_min_time=2
#include <benchmark/benchmark.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "base/logging.h"
#include "protocol/remoting_command.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using apogee::protocol::RemotingCommand;

constexpr int32_t kEchoCode = 1;
constexpr size_t kBodySize = 1024;
constexpr auto kTimeout = std::chrono::seconds(10);

RemotingCommand MakeBenchRequest() {
  auto request = RemotingCommand::MakeRequest(kEchoCode);
  request.ext_fields.Set("topic", "BenchTopic");
  request.body.assign(kBodySize, 'x');
  return request;
}

// Size of the request frame on the wire; the TCP baseline moves this many bytes each way.
size_t FrameSize() {
  std::string out;
  apogee::protocol::EncodeCommand(MakeBenchRequest(), &out);
  return out.size();
}

// One RemotingServer with an inline echo processor and one client, for the whole run.
struct RemotingSetup {
  RemotingSetup() {
    apogee::GetLogger("remoting")->set_level(spdlog::level::warn);
    apogee::remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    server = std::make_unique<apogee::remoting::RemotingServer>(options);
    server->RegisterProcessor(
        kEchoCode, apogee::remoting::MakeProcessor([](RemotingCommand request,
                                                      apogee::remoting::Responder responder) {
          auto response = RemotingCommand::MakeResponse(request, 0);
          response.body = std::move(request.body);
          responder.Send(std::move(response));
        }));
    if (!server->Start().ok()) std::abort();
    address = "127.0.0.1:" + std::to_string(server->port());
    client.Start();
    if (!client.InvokeSync(address, MakeBenchRequest(), kTimeout).ok()) std::abort();
  }
  std::unique_ptr<apogee::remoting::RemotingServer> server;
  apogee::remoting::RemotingClient client;
  std::string address;
};

RemotingSetup& Remoting() {
  static RemotingSetup* setup = new RemotingSetup();  // lives until exit
  return *setup;
}

// A blocking echo server: a thread per connection reads `frame` bytes, writes them back.
struct TcpEchoSetup {
  TcpEchoSetup() : frame(FrameSize()), acceptor(ctx, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    acceptor.set_option(tcp::no_delay(true));
    std::thread([this] {
      for (;;) {
        auto socket = std::make_shared<tcp::socket>(ctx);
        acceptor.accept(*socket);
        socket->set_option(tcp::no_delay(true));
        std::thread([this, socket] {
          std::string buf(frame, '\0');
          boost::system::error_code ec;
          for (;;) {
            asio::read(*socket, asio::buffer(buf), ec);
            if (ec) return;
            asio::write(*socket, asio::buffer(buf), ec);
            if (ec) return;
          }
        }).detach();
      }
    }).detach();
  }
  size_t frame;
  asio::io_context ctx;
  tcp::acceptor acceptor;
};

TcpEchoSetup& TcpEcho() {
  static TcpEchoSetup* setup = new TcpEchoSetup();
  return *setup;
}

void BM_TcpPingPong(benchmark::State& state) {
  auto& echo = TcpEcho();
  asio::io_context ctx;
  tcp::socket socket(ctx);
  socket.connect(echo.acceptor.local_endpoint());
  socket.set_option(tcp::no_delay(true));
  std::string out(echo.frame, 'x');
  std::string in(echo.frame, '\0');
  const int64_t in_flight = state.range(0);
  for (int64_t i = 0; i < in_flight - 1; ++i) asio::write(socket, asio::buffer(out));
  for (auto _ : state) {
    asio::write(socket, asio::buffer(out));
    asio::read(socket, asio::buffer(in));
  }
  for (int64_t i = 0; i < in_flight - 1; ++i) asio::read(socket, asio::buffer(in));
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(echo.frame) * 2);
  state.counters["frame_bytes"] = static_cast<double>(echo.frame);
}
BENCHMARK(BM_TcpPingPong)->Arg(1)->Arg(16)->UseRealTime();

void BM_RemotingInvokeSync(benchmark::State& state) {
  auto& r = Remoting();
  const RemotingCommand request = MakeBenchRequest();
  for (auto _ : state) {
    auto response = r.client.InvokeSync(r.address, request, kTimeout);
    if (!response.ok() || response->body.size() != kBodySize) {
      state.SkipWithError(response.ok() ? "short body" : response.status().ToString().c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RemotingInvokeSync)->UseRealTime();

// Keeps range(0) requests in flight with InvokeAsync.
void BM_RemotingInvokeAsync(benchmark::State& state) {
  auto& r = Remoting();
  const RemotingCommand request = MakeBenchRequest();
  const int64_t window = state.range(0);
  std::mutex mu;
  std::condition_variable cv;
  int64_t outstanding = 0;
  std::atomic<int64_t> errors{0};
  auto on_response = [&](apogee::Result<RemotingCommand> response) {
    if (!response.ok()) errors++;
    std::lock_guard lock(mu);
    outstanding--;
    cv.notify_one();
  };
  for (auto _ : state) {
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return outstanding < window; });
      outstanding++;
    }
    r.client.InvokeAsync(r.address, request, kTimeout, on_response);
  }
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return outstanding == 0; });
  if (errors.load() > 0) state.SkipWithError("some requests failed");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RemotingInvokeAsync)->Arg(1)->Arg(16)->Arg(64)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
