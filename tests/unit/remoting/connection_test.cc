// The per-connection and per-server bounds of Connection (docs/security.md, "Resource
// limits"), driven through a RemotingServer by raw sockets that misbehave on purpose.
#include "remoting/connection.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "base/coding.h"
#include "base/wakeup_batch.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "remoting_test_util.h"

namespace apogee::remoting {
namespace {

using protocol::RemotingCommand;
using test::RawSocket;
using test::Request;
using test::WaitFor;
namespace response_code = protocol::response_code;
using std::chrono::milliseconds;

constexpr int32_t kBig = 1;      // inline, answers a 64 KiB body
constexpr int32_t kEcho = 2;     // inline, answers the body back
constexpr int32_t kBlocked = 3;  // on an executor, waits for the gate
constexpr int32_t kPooledEcho = 4;  // on an executor: answers the body back off the IO thread
constexpr int32_t kPieces = 5;      // inline, answers kPieceCount body segments (as a pull does)
constexpr int32_t kFailingEnd = 6;  // inline, answers OK but leaves a failing end-of-read action

constexpr int kPieceCount = 300;
constexpr size_t kPieceSize = 997;  // odd, so partial sends end inside pieces

// The body kPieces answers to the request with opaque `opaque`: every byte says which
// answer and which piece it belongs to.
std::string PiecesBody(int32_t opaque) {
  std::string body;
  for (int piece = 0; piece < kPieceCount; ++piece) {
    for (size_t i = 0; i < kPieceSize; ++i) {
      body.push_back(static_cast<char>('a' + (opaque * 7 + piece * 3 + static_cast<int>(i)) % 26));
    }
  }
  return body;
}

class ConnectionLimitsTest : public ::testing::Test {
 protected:
  void StartServer(RemotingServerOptions options) {
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    server_ = std::make_unique<RemotingServer>(options);
    executor_ = std::make_shared<ThreadPoolExecutor>("gate", 8, 10000);
    server_->RegisterProcessor(kBig, MakeProcessor([](RemotingCommand req, Responder r) {
                                 auto response = RemotingCommand::MakeResponse(req, 0);
                                 response.body.assign(64 * 1024, 'b');
                                 r.Send(std::move(response));
                               }));
    server_->RegisterProcessor(kEcho, MakeProcessor([](RemotingCommand req, Responder r) {
                                 auto response = RemotingCommand::MakeResponse(req, 0);
                                 response.body = req.body;
                                 r.Send(std::move(response));
                               }));
    server_->RegisterProcessor(kBlocked,
                               MakeProcessor([this](RemotingCommand req, Responder r) {
                                 entered_.fetch_add(1);
                                 std::unique_lock lock(mu_);
                                 cv_.wait(lock, [this] { return open_; });
                                 r.SendCode(0);
                               }),
                               executor_);
    server_->RegisterProcessor(
        kPieces, MakeProcessor([](RemotingCommand req, Responder r) {
          auto response = RemotingCommand::MakeResponse(req, 0);
          auto storage = std::make_shared<std::string>(PiecesBody(req.opaque));
          std::string_view all(*storage);
          for (int piece = 0; piece < kPieceCount; ++piece) {
            response.body_segments.segments.push_back(all.substr(piece * kPieceSize, kPieceSize));
          }
          response.body_segments.keepalive = storage;
          r.Send(std::move(response));
        }));
    server_->RegisterProcessor(
        kFailingEnd, MakeProcessor([](RemotingCommand req, Responder r) {
          // As the CommitLog does for an ASYNC_FLUSH put whose
          // record is written at the end of the read.
          EXPECT_TRUE(ScopedWakeupBatch::DeferAction(nullptr, [](void*) { return false; }));
          r.SendCode(0);
        }));
    server_->RegisterProcessor(kPooledEcho, MakeProcessor([](RemotingCommand req, Responder r) {
                                 auto response = RemotingCommand::MakeResponse(req, 0);
                                 response.body = req.body;
                                 r.Send(std::move(response));
                               }),
                               executor_);
    ASSERT_TRUE(server_->Start().ok());
    address_ = "127.0.0.1:" + std::to_string(server_->port());
  }

  void TearDown() override {
    OpenGate();
    if (server_) server_->Shutdown();
    if (executor_) executor_->Shutdown();
  }

  void OpenGate() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

  // An unrelated, well-behaved client still gets answers.
  void ExpectServesOthers() {
    RemotingClient client;
    client.Start();
    auto echo = client.InvokeSync(address_, Request(kEcho, "ping"), milliseconds(3000));
    ASSERT_TRUE(echo.ok()) << echo.status().ToString();
    EXPECT_EQ(echo->body, "ping");
    client.Shutdown();
  }

  static std::string Frames(int32_t code, int count) {
    std::string out;
    for (int i = 0; i < count; ++i) {
      auto request = Request(code);
      request.opaque = i;
      protocol::EncodeCommand(request, &out);
    }
    return out;
  }

  std::unique_ptr<RemotingServer> server_;
  std::shared_ptr<ThreadPoolExecutor> executor_;
  std::string address_;
  std::atomic<int> entered_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

TEST_F(ConnectionLimitsTest, PipelinedRequestsStopAtTheHighWaterMarkAndAllAreAnswered) {
  RemotingServerOptions options;
  options.write_high_water = 256 * 1024;
  options.write_low_water = 64 * 1024;
  options.write_stall_timeout = milliseconds(0);
  StartServer(options);
  RawSocket raw(server_->port());
  constexpr int kRequests = 1000;  // 1000 x 64 KiB = 64 MiB if nothing pushed back
  std::thread writer([&] { raw.Write(Frames(kBig, kRequests)); });
  uint64_t peak = 0;
  for (int i = 0; i < 50; ++i) {
    peak = std::max(peak, server_->Stats().unsent_bytes);
    std::this_thread::sleep_for(milliseconds(10));
  }
  // High water plus the response that crossed it.
  EXPECT_LE(peak, 256u * 1024 + 80 * 1024);
  EXPECT_GT(peak, 0u);
  for (int i = 0; i < kRequests; ++i) {
    auto response = raw.ReadCommand();
    ASSERT_TRUE(response.has_value()) << "response " << i;
    ASSERT_EQ(response->opaque, i);
    ASSERT_EQ(response->body.size(), 64u * 1024);
  }
  writer.join();
  // The peer can read the last responses before the server's write completion handler has
  // run and subtracted them, so the count reaches zero a moment later.
  EXPECT_TRUE(WaitFor([&] { return server_->Stats().unsent_bytes == 0; }))
      << server_->Stats().unsent_bytes << " bytes still counted as unsent";
  ExpectServesOthers();
}

// Answers of many pieces, batched into one write of thousands of buffers (more than one
// sendmsg takes), to a reader that takes them in small sips: every partial send, inside a
// piece or between frames, resumes at the right byte.
TEST_F(ConnectionLimitsTest, ManyPieceAnswersArriveWholeAtASlowReader) {
  StartServer(RemotingServerOptions{});
  RawSocket raw(server_->port());
  constexpr int kRequests = 40;  // 40 x 300 pieces = 12,000 buffers, ~12 MB
  raw.Write(Frames(kPieces, kRequests));
  std::this_thread::sleep_for(milliseconds(50));  // let the socket buffers fill
  for (int i = 0; i < kRequests; ++i) {
    if (i < 3) std::this_thread::sleep_for(milliseconds(20));  // a slow start: EAGAIN, then room
    auto response = raw.ReadCommand();
    ASSERT_TRUE(response.has_value()) << "response " << i;
    ASSERT_EQ(response->opaque, i);
    ASSERT_EQ(response->body.size(), kPieceCount * kPieceSize);
    ASSERT_TRUE(response->body == PiecesBody(i)) << "response " << i << " differs";
  }
  EXPECT_TRUE(WaitFor([&] { return server_->Stats().unsent_bytes == 0; }));
  ExpectServesOthers();
}

// When the work a read's requests left for its end fails (an ASYNC_FLUSH CommitLog write),
// none of that read's answers leaves: the connection closes and the peer sees no SEND_OK.
TEST_F(ConnectionLimitsTest, AFailedEndOfReadActionWithholdsTheReadsAnswers) {
  StartServer(RemotingServerOptions{});
  RawSocket raw(server_->port());
  raw.Write(Frames(kFailingEnd, 1));
  EXPECT_FALSE(raw.ReadCommand().has_value());
  ExpectServesOthers();
}

TEST_F(ConnectionLimitsTest, APeerThatReadsNothingIsClosedAfterTheStallTimeout) {
  RemotingServerOptions options;
  options.write_high_water = 128 * 1024;
  options.write_low_water = 32 * 1024;
  options.write_stall_timeout = milliseconds(300);
  StartServer(options);
  RawSocket raw(server_->port());
  std::thread writer([&] {
    try {
      raw.Write(Frames(kBig, 2000));
    } catch (const std::exception&) {
      // The server closed on us: expected.
    }
  });
  EXPECT_TRUE(WaitFor([&] { return server_->Stats().connections == 0; }, milliseconds(5000)));
  EXPECT_EQ(server_->Stats().unsent_bytes, 0u);
  raw.Close();
  writer.join();
  ExpectServesOthers();
}

TEST_F(ConnectionLimitsTest, RequestsInFlightStopReadingUntilProcessorsFinish) {
  RemotingServerOptions options;
  options.max_requests_in_flight = 4;
  StartServer(options);
  RawSocket raw(server_->port());
  raw.Write(Frames(kBlocked, 40));
  ASSERT_TRUE(WaitFor([&] { return entered_.load() == 4; }));
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_EQ(entered_.load(), 4);  // 8 threads, but only 4 requests let in
  ExpectServesOthers();           // another connection has its own allowance
  OpenGate();
  for (int i = 0; i < 40; ++i) {
    auto response = raw.ReadCommand();
    ASSERT_TRUE(response.has_value()) << "response " << i;
  }
  EXPECT_EQ(entered_.load(), 40);
}

// Responses finished on other threads are handed to the IO thread in batches: every one
// arrives, exactly once, with its own opaque and body, while eight threads answer at once.
TEST_F(ConnectionLimitsTest, ResponsesFromOtherThreadsAllArriveOnce) {
  StartServer(RemotingServerOptions{});
  OpenGate();
  RawSocket raw(server_->port());
  constexpr int kRequests = 3000;
  std::string frames;
  for (int i = 0; i < kRequests; ++i) {
    auto request = Request(kPooledEcho, "body-" + std::to_string(i));
    request.opaque = i;
    protocol::EncodeCommand(request, &frames);
  }
  std::thread writer([&] { raw.Write(frames); });
  std::vector<int> seen(kRequests, 0);
  for (int i = 0; i < kRequests; ++i) {
    auto response = raw.ReadCommand();
    ASSERT_TRUE(response.has_value()) << "response " << i;
    ASSERT_GE(response->opaque, 0);
    ASSERT_LT(response->opaque, kRequests);
    EXPECT_EQ(response->body, "body-" + std::to_string(response->opaque));
    ++seen[static_cast<size_t>(response->opaque)];
  }
  writer.join();
  for (int i = 0; i < kRequests; ++i) EXPECT_EQ(seen[static_cast<size_t>(i)], 1) << i;
}

TEST_F(ConnectionLimitsTest, ASlowFrameIsClosedAtItsDeadlineWhateverItsPace) {
  RemotingServerOptions options;
  options.frame_read_timeout = milliseconds(400);
  options.channel_max_idle = std::chrono::seconds(60);
  StartServer(options);
  RawSocket raw(server_->port());
  std::string frame;
  protocol::EncodeCommand(Request(kEcho, std::string(200, 'x')), &frame);
  const auto start = std::chrono::steady_clock::now();
  bool closed = false;
  for (size_t i = 0; i < frame.size() && !closed; ++i) {
    try {
      raw.Write(frame.substr(i, 1));  // a byte every 20 ms: 4+ s for the frame
    } catch (const std::exception&) {
      closed = true;
    }
    if (server_->Stats().connections == 0) closed = true;
    std::this_thread::sleep_for(milliseconds(20));
  }
  EXPECT_TRUE(closed);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  ExpectServesOthers();
}

TEST_F(ConnectionLimitsTest, DribbledBytesDoNotCountAsActivityForTheIdleTimeout) {
  RemotingServerOptions options;
  options.frame_read_timeout = milliseconds(0);
  options.channel_max_idle = milliseconds(400);
  StartServer(options);
  RawSocket raw(server_->port());
  std::string frame;
  protocol::EncodeCommand(Request(kEcho, std::string(500, 'x')), &frame);
  ASSERT_TRUE(WaitFor([&] { return server_->Stats().connections == 1; }));
  for (size_t i = 0; i < 100 && server_->Stats().connections == 1; ++i) {
    try {
      raw.Write(frame.substr(i, 1));
    } catch (const std::exception&) {
      break;
    }
    std::this_thread::sleep_for(milliseconds(20));
  }
  EXPECT_EQ(server_->Stats().connections, 0u);
}

TEST_F(ConnectionLimitsTest, PartialFramesShareOneBudget) {
  RemotingServerOptions options;
  options.partial_frame_budget = 1024 * 1024;
  StartServer(options);
  auto prefix = [](uint32_t body) {
    std::string out(8, '\0');
    EncodeFixed32(reinterpret_cast<uint8_t*>(out.data()), 4 + 2 + body);
    EncodeFixed32(reinterpret_cast<uint8_t*>(out.data() + 4), 2);
    out.append("{}");
    return out;
  };
  RawSocket first(server_->port());
  first.Write(prefix(8 << 20) + std::string(700 * 1024, 'a'));
  ASSERT_TRUE(WaitFor([&] { return server_->Stats().partial_frame_bytes >= 700 * 1024; }));
  RawSocket second(server_->port());
  // Over the shared budget the server closes the connection, possibly while these bytes are
  // still being written (then the write fails with a broken pipe).
  second.TryWrite(prefix(8 << 20) + std::string(700 * 1024, 'a'));
  EXPECT_TRUE(second.ReadsEof());
  EXPECT_LE(server_->Stats().partial_frame_bytes, 1024u * 1024);
  ExpectServesOthers();  // small frames need no budget
  first.Close();
  EXPECT_TRUE(WaitFor([&] { return server_->Stats().partial_frame_bytes == 0; }));
}

TEST_F(ConnectionLimitsTest, TooManyHeaderFieldsAreAnsweredWithTheLimit) {
  RemotingServerOptions options;
  options.decode_limits.max_ext_fields = 100;
  StartServer(options);
  RawSocket raw(server_->port());
  auto request = Request(kEcho, "x");
  request.opaque = 77;
  for (int i = 0; i < 5000; ++i) request.ext_fields.Set("k" + std::to_string(i), "v");
  raw.WriteCommand(request);
  auto response = raw.ReadCommand();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->opaque, 77);
  EXPECT_EQ(response->code, response_code::kSystemError);
  EXPECT_NE(response->remark.value_or("").find("limit of 100"), std::string::npos)
      << response->remark.value_or("");
  // The connection stays usable.
  auto ok = Request(kEcho, "after");
  ok.opaque = 78;
  raw.WriteCommand(ok);
  auto echoed = raw.ReadCommand();
  ASSERT_TRUE(echoed.has_value());
  EXPECT_EQ(echoed->body, "after");
}

TEST_F(ConnectionLimitsTest, AnOversizedHeaderClosesTheConnection) {
  RemotingServerOptions options;
  options.decode_limits.max_header_length = 4096;
  StartServer(options);
  RawSocket raw(server_->port());
  auto request = Request(kEcho);
  request.ext_fields.Set("big", std::string(10000, 'v'));
  raw.WriteCommand(request);
  EXPECT_TRUE(raw.ReadsEof());
  ExpectServesOthers();
}

}  // namespace
}  // namespace apogee::remoting
