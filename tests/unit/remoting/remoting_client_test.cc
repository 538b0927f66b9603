#include "remoting/remoting_client.h"

#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <atomic>
#include <future>
#include <thread>

#include "protocol/response_code.h"
#include "remoting/remoting_server.h"
#include "remoting_test_util.h"

namespace apogee::remoting {
namespace {

using boost::asio::ip::tcp;
using protocol::RemotingCommand;
using test::Request;
using test::WaitFor;
using std::chrono::milliseconds;

// A one-connection server written with blocking Asio, whose behaviour each test scripts.
class ScriptedServer {
 public:
  ScriptedServer() : acceptor_(ctx_, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0)) {}
  ~ScriptedServer() {
    if (thread_.joinable()) thread_.join();
  }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port()); }

  // Runs `script` with the first accepted socket on a background thread.
  void Run(std::function<void(tcp::socket&)> script) {
    thread_ = std::thread([this, script = std::move(script)] {
      tcp::socket socket(ctx_);
      acceptor_.accept(socket);
      script(socket);
    });
  }

  static std::optional<RemotingCommand> Read(tcp::socket& socket) {
    char prefix[4];
    boost::system::error_code ec;
    boost::asio::read(socket, boost::asio::buffer(prefix, 4), ec);
    if (ec) return std::nullopt;
    std::string frame(DecodeFixed32(reinterpret_cast<const uint8_t*>(prefix)), '\0');
    boost::asio::read(socket, boost::asio::buffer(frame), ec);
    if (ec) return std::nullopt;
    auto command = protocol::DecodeCommand(frame);
    if (!command.ok()) return std::nullopt;
    return std::move(command).value();
  }
  static void Write(tcp::socket& socket, const RemotingCommand& command) {
    std::string out;
    protocol::EncodeCommand(command, &out);
    boost::asio::write(socket, boost::asio::buffer(out));
  }

 private:
  boost::asio::io_context ctx_;
  tcp::acceptor acceptor_;
  std::thread thread_;
};

uint16_t UnusedPort() {
  boost::asio::io_context ctx;
  tcp::acceptor a(ctx, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

class RemotingClientTest : public ::testing::Test {
 protected:
  void SetUp() override { client_.Start(); }
  void TearDown() override { client_.Shutdown(); }
  RemotingClient client_;
};

TEST_F(RemotingClientTest, ConnectRefusedNamesAddress) {
  std::string address = "127.0.0.1:" + std::to_string(UnusedPort());
  auto r = client_.InvokeSync(address, Request(105), milliseconds(3000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(r.status().message().find("connect to " + address + " failed"), std::string::npos)
      << r.status().ToString();
  EXPECT_TRUE(client_.ConnectedAddresses().empty());
}

TEST_F(RemotingClientTest, BadAddressIsInvalidArgument) {
  auto r = client_.InvokeSync("no-port-here", Request(105), milliseconds(3000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("no-port-here"), std::string::npos);
}

TEST_F(RemotingClientTest, NotStartedOrShutDownFailsClearly) {
  RemotingClient idle;
  auto r = idle.InvokeSync("127.0.0.1:1", Request(105), milliseconds(100));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not running"), std::string::npos);
}

TEST_F(RemotingClientTest, UnknownOpaqueIsDroppedAndRealResponseDelivered) {
  ScriptedServer server;
  server.Run([](tcp::socket& socket) {
    auto request = ScriptedServer::Read(socket);
    ASSERT_TRUE(request.has_value());
    auto bogus = RemotingCommand::MakeResponse(*request, 0, "bogus");
    bogus.opaque = request->opaque + 1000;
    ScriptedServer::Write(socket, bogus);
    ScriptedServer::Write(socket, RemotingCommand::MakeResponse(*request, 0, "real"));
    ScriptedServer::Read(socket);  // wait for the client to go away
  });
  auto r = client_.InvokeSync(server.address(), Request(105), milliseconds(3000));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->remark, "real");
  client_.CloseChannel(server.address());
}

TEST_F(RemotingClientTest, PeerCloseFailsPendingAndNextCallReconnects) {
  ScriptedServer server;
  server.Run([](tcp::socket& socket) {
    ScriptedServer::Read(socket);
    socket.close();  // no answer
  });
  auto r = client_.InvokeSync(server.address(), Request(105), milliseconds(5000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(r.status().message().find("closed"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("request code 105"), std::string::npos);
  EXPECT_TRUE(WaitFor([&] { return client_.ConnectedAddresses().empty(); }));

  // A real server on a new port: the client opens a fresh connection per address.
  RemotingServerOptions options;
  options.listen_host = "127.0.0.1";
  options.io_threads = 1;
  RemotingServer real(options);
  real.RegisterProcessor(105, MakeProcessor([](RemotingCommand, Responder r) { r.SendCode(0, "ok"); }));
  ASSERT_TRUE(real.Start().ok());
  std::string address = "127.0.0.1:" + std::to_string(real.port());
  ASSERT_TRUE(client_.InvokeSync(address, Request(105), milliseconds(3000)).ok());
  for (const auto& channel : real.Channels()) channel->Close();  // server drops us
  EXPECT_TRUE(WaitFor([&] { return client_.ConnectedAddresses().empty(); }));
  auto again = client_.InvokeSync(address, Request(105), milliseconds(3000));
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->remark, "ok");
  real.Shutdown();
}

TEST_F(RemotingClientTest, OneConnectionPerAddress) {
  RemotingServerOptions options;
  options.listen_host = "127.0.0.1";
  options.io_threads = 1;
  RemotingServer server(options);
  server.RegisterProcessor(1, MakeProcessor([](RemotingCommand, Responder r) { r.SendCode(0); }));
  ASSERT_TRUE(server.Start().ok());
  std::string address = "127.0.0.1:" + std::to_string(server.port());
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 20; ++j) EXPECT_TRUE(client_.InvokeSync(address, Request(1), milliseconds(3000)).ok());
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(server.Channels().size(), 1u);
  EXPECT_EQ(client_.ConnectedAddresses(), std::vector<std::string>{address});
  auto channel = client_.GetChannel(address);
  ASSERT_TRUE(channel.ok());
  EXPECT_EQ((*channel)->RemoteAddress(), address);
  server.Shutdown();
}

TEST_F(RemotingClientTest, InvokeSyncOnIoThreadIsRefused) {
  RemotingServerOptions options;
  options.listen_host = "127.0.0.1";
  options.io_threads = 1;
  RemotingServer server(options);
  server.RegisterProcessor(1, MakeProcessor([](RemotingCommand, Responder r) { r.SendCode(0); }));
  ASSERT_TRUE(server.Start().ok());
  std::string address = "127.0.0.1:" + std::to_string(server.port());
  std::promise<Status> nested;
  client_.InvokeAsync(address, Request(1), milliseconds(3000), [&](Result<RemotingCommand>) {
    nested.set_value(client_.InvokeSync(address, Request(1), milliseconds(3000)).status());
  });
  Status st = nested.get_future().get();
  EXPECT_EQ(st.code(), StatusCode::kInternal);
  EXPECT_NE(st.message().find("would deadlock"), std::string::npos);
  server.Shutdown();
}

TEST_F(RemotingClientTest, OnewayWaitsForWrite) {
  ScriptedServer server;
  std::promise<RemotingCommand> got;
  server.Run([&](tcp::socket& socket) {
    auto request = ScriptedServer::Read(socket);
    if (request) got.set_value(*request);
    ScriptedServer::Read(socket);
  });
  ASSERT_TRUE(client_.InvokeOneway(server.address(), Request(15, "x"), milliseconds(3000)).ok());
  auto request = got.get_future().get();
  EXPECT_TRUE(request.IsOneway());
  EXPECT_EQ(request.body, "x");
  client_.CloseChannel(server.address());
}

TEST_F(RemotingClientTest, ShutdownFailsPendingCalls) {
  ScriptedServer server;
  server.Run([](tcp::socket& socket) {
    ScriptedServer::Read(socket);
    ScriptedServer::Read(socket);  // never answers; ends when the client closes
  });
  std::promise<Result<RemotingCommand>> done;
  client_.InvokeAsync(server.address(), Request(105), milliseconds(30000),
                      [&](Result<RemotingCommand> r) { done.set_value(std::move(r)); });
  ASSERT_TRUE(WaitFor([&] { return !client_.ConnectedAddresses().empty(); }));
  client_.Shutdown();
  auto r = done.get_future().get();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
}

// A ResponseHandler that counts its deliveries and hands the answer to a promise; it is
// destroyed with the `self` it is given, which the test sees through `destroyed`.
class PromiseHandler final : public ResponseHandler {
 public:
  PromiseHandler(std::promise<Result<RemotingCommand>>* done, std::atomic<int>* destroyed)
      : done_(done), destroyed_(destroyed) {}
  ~PromiseHandler() override { destroyed_->fetch_add(1); }
  void OnResponse(std::unique_ptr<ResponseHandler> self,
                  Result<RemotingCommand> response) override {
    EXPECT_EQ(self.get(), this);
    done_->set_value(std::move(response));
  }

 private:
  std::promise<Result<RemotingCommand>>* done_;
  std::atomic<int>* destroyed_;
};

// The handler form of InvokeAsync: delivered once with the answer while connecting (the
// first call) and on the open connection, with a timeout, and with the close of the
// connection; the handler is owned by the call until then and freed after.
TEST_F(RemotingClientTest, HandlerGetsAnswerTimeoutAndCloseOnce) {
  std::promise<void> answered_two;
  ScriptedServer server;
  server.Run([&](tcp::socket& socket) {
    for (int i = 0; i < 2; ++i) {
      auto request = ScriptedServer::Read(socket);
      ASSERT_TRUE(request.has_value());
      ScriptedServer::Write(socket, RemotingCommand::MakeResponse(*request, 0, "r" + std::to_string(i)));
    }
    ScriptedServer::Read(socket);  // the third is never answered (it times out)
    ScriptedServer::Read(socket);  // the fourth neither: the client closes
  });
  std::atomic<int> destroyed{0};
  auto call = [&](milliseconds timeout) {
    std::promise<Result<RemotingCommand>> done;
    auto future = done.get_future();
    client_.InvokeAsync(server.address(), Request(105), timeout,
                        std::make_unique<PromiseHandler>(&done, &destroyed));
    return future.get();
  };
  auto first = call(milliseconds(3000));  // no connection yet
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->remark, "r0");
  auto second = call(milliseconds(3000));  // the open connection
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->remark, "r1");
  auto third = call(milliseconds(200));
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.status().code(), StatusCode::kTimeout) << third.status().ToString();
  std::promise<Result<RemotingCommand>> fourth;
  client_.InvokeAsync(server.address(), Request(105), milliseconds(30000),
                      std::make_unique<PromiseHandler>(&fourth, &destroyed));
  client_.CloseChannel(server.address());
  auto closed = fourth.get_future().get();
  ASSERT_FALSE(closed.ok());
  EXPECT_EQ(closed.status().code(), StatusCode::kUnavailable) << closed.status().ToString();
  EXPECT_TRUE(WaitFor([&] { return destroyed.load() == 4; })) << destroyed.load();
}

// A thread that sends a request while no other is awaited and the IO thread has nothing to
// write writes the frame itself; what the socket does not take goes to the IO thread, which
// writes it before anything else. A peer that reads nothing at first: the first frame (8 MiB,
// more than the socket buffers hold) is cut, and the frames sent behind it from other threads
// must wait for its rest. Every frame must arrive whole, once, in the order each thread sent
// them.
TEST_F(RemotingClientTest, FramesCutByAFullSocketArriveWholeAndInOrder) {
  ScriptedServer server;
  constexpr int kThreads = 3;
  constexpr int kPerThread = 40;
  std::promise<void> start_reading;
  std::atomic<int> answered{0};
  std::string big(8 << 20, 'B');
  std::atomic<bool> big_first{false};
  std::vector<std::vector<std::string>> received(kThreads);
  server.Run([&](tcp::socket& socket) {
    // One answered request first, so that the connection is open before the senders start.
    auto hello = ScriptedServer::Read(socket);
    if (!hello) return;
    ScriptedServer::Write(socket, RemotingCommand::MakeResponse(*hello, 0));
    start_reading.get_future().wait();
    for (int i = 0; i < kThreads * kPerThread + 1; ++i) {
      auto request = ScriptedServer::Read(socket);
      if (!request) return;
      // The body names its thread and sequence: "t:i:" then filler.
      const std::string& body = request->body;
      if (body == big) {
        big_first = i == 0;
      } else {
        const int thread = body[0] - '0';
        received[thread].push_back(body);
      }
      ScriptedServer::Write(socket, RemotingCommand::MakeResponse(*request, 0));
    }
  });
  std::vector<std::thread> senders;
  std::atomic<int> ok{0};
  std::atomic<int> failed{0};
  std::vector<std::string> expected[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kPerThread; ++i) {
      // 50-300 KiB: a few fill the socket buffers of both ends.
      const size_t size = 50000 + static_cast<size_t>((i * 7919 + t * 104729) % 250000);
      std::string body = std::to_string(t) + ":" + std::to_string(i) + ":";
      body.resize(size, static_cast<char>('a' + (i + t) % 26));
      expected[t].push_back(body);
    }
  }
  ASSERT_TRUE(client_.InvokeSync(server.address(), Request(2), milliseconds(5000)).ok());
  client_.InvokeAsync(server.address(), Request(1, big), milliseconds(30000),
                      [&](Result<RemotingCommand> r) {
                        (r.ok() ? ok : failed)++;
                        answered++;
                      });
  for (int t = 0; t < kThreads; ++t) {
    senders.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        client_.InvokeAsync(server.address(), Request(1, expected[t][i]), milliseconds(30000),
                            [&](Result<RemotingCommand> r) {
                              (r.ok() ? ok : failed)++;
                              answered++;
                            });
      }
    });
  }
  for (auto& s : senders) s.join();
  start_reading.set_value();
  const bool all_answered =
      WaitFor([&] { return answered.load() == kThreads * kPerThread + 1; }, std::chrono::seconds(30));
  // A cut frame leaves the scripted server reading forever: close, so that it ends.
  if (!all_answered) client_.Shutdown();
  ASSERT_TRUE(all_answered) << answered.load() << " answered";
  EXPECT_EQ(ok.load(), kThreads * kPerThread + 1);
  EXPECT_EQ(failed.load(), 0);
  EXPECT_TRUE(big_first);
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(received[t].size(), static_cast<size_t>(kPerThread)) << "thread " << t;
    for (int i = 0; i < kPerThread; ++i) {
      EXPECT_TRUE(received[t][i] == expected[t][i]) << "thread " << t << " frame " << i;
    }
  }
}

// Requests sent from several threads while the peer closes the connection: every one is
// answered or failed once, none hangs, and the next request reconnects.
TEST_F(RemotingClientTest, RequestsRacingAPeerCloseAllComplete) {
  for (int round = 0; round < 5; ++round) {
    ScriptedServer server;
    server.Run([](tcp::socket& socket) {
      for (int i = 0; i < 30; ++i) {
        auto request = ScriptedServer::Read(socket);
        if (!request) return;
        ScriptedServer::Write(socket, RemotingCommand::MakeResponse(*request, 0));
      }
      socket.close();
    });
    std::atomic<int> done{0};
    std::vector<std::thread> senders;
    for (int t = 0; t < 4; ++t) {
      senders.emplace_back([&] {
        for (int i = 0; i < 50; ++i) {
          client_.InvokeAsync(server.address(), Request(1, std::string(100 + i * 37, 'x')),
                              milliseconds(10000), [&](Result<RemotingCommand>) { done++; });
        }
      });
    }
    for (auto& s : senders) s.join();
    ASSERT_TRUE(WaitFor([&] { return done.load() == 200; }, std::chrono::seconds(15)))
        << "round " << round << ": " << done.load() << " of 200 completed";
  }
}

}  // namespace
}  // namespace apogee::remoting
