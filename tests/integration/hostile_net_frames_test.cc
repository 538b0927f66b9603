// Unfinished frames and slow senders (issue 12, item 4): at 89c82c4, 64 connections each
// holding an unfinished 16 MiB frame took 1.2 GB of the broker and of the NameServer, and
// a slowloris at 1 byte/s outlived the 120 s idle timeout. Now partial frames of all
// connections share serverPartialFramesMaxBytes and a frame must complete within
// serverFrameReadTimeoutMillis (docs/security.md, "Resource limits").
#include <thread>

#include "hostile_net_util.h"

namespace apogee::testing::hostile {
namespace {

// Frames announced as 16 MiB (the largest frameMaxLength allows) that never complete.
constexpr uint32_t kBigBody = 16 * 1024 * 1024 - 64;
// What each connection sends of it: all but the last KiB.
constexpr size_t kBigSent = kBigBody - 1024;

// Opens `count` connections that each send the head of a 16 MiB frame and `sent` bytes of
// it; returns them (still open).
std::vector<std::unique_ptr<RawConn>> HoldPartialFrames(uint16_t port, int count, size_t sent) {
  std::vector<std::unique_ptr<RawConn>> conns;
  const std::string chunk = BigFrameHead(kBigBody) + std::string(sent, 'z');
  for (int i = 0; i < count; ++i) {
    conns.push_back(std::make_unique<RawConn>(port));
    conns.back()->Write(chunk, 1s);
  }
  return conns;
}

// Eight connections each send `frame` at one byte per second per connection (the issue's
// slowloris), until the server closes them or `give_up` passes; returns how many are
// still open then.
size_t Slowloris(uint16_t port, const std::string& frame, std::chrono::milliseconds give_up) {
  std::vector<std::unique_ptr<RawConn>> slow;
  for (int i = 0; i < 8; ++i) slow.push_back(std::make_unique<RawConn>(port));
  const auto start = std::chrono::steady_clock::now();
  std::vector<bool> closed(slow.size(), false);
  size_t open = slow.size();
  for (size_t pos = 0; pos < frame.size() && open > 0; ++pos) {
    for (size_t i = 0; i < slow.size(); ++i) {
      if (closed[i]) continue;
      if (slow[i]->Write(frame.substr(pos, 1), 100ms) != 1 || slow[i]->ClosedByPeer(1ms)) {
        closed[i] = true;
        --open;
      }
    }
    if (std::chrono::steady_clock::now() - start > give_up) break;
    // The server closes at the deadline; notice it within the second.
    for (int t = 0; t < 10 && open > 0; ++t) {
      for (size_t i = 0; i < slow.size(); ++i) {
        if (!closed[i] && slow[i]->ClosedByPeer(1ms)) {
          closed[i] = true;
          --open;
        }
      }
      std::this_thread::sleep_for(100ms);
    }
  }
  return open;
}

class HostileNetFramesTest : public HostileBrokerTest {};

// The case at the default limits: 64 connections, each 16 MiB frame all but
// complete (1 GiB announced and sent). serverPartialFramesMaxBytes (256 MiB) holds
// sixteen of them; the others are closed when their buffer would pass it.
TEST_F(HostileNetFramesTest, SixtyFourUnfinished16MiBFramesShareOneBudget) {
  StartBroker();
  auto conns = HoldPartialFrames(broker_->port(), 64, kBigSent);
  std::this_thread::sleep_for(200ms);
  const double held = GrowthMb();
  Report("MiB over baseline, 64 partial 16 MiB frames", held);
  // 256 MiB of frames plus the copy of one buffer that is being grown.
  EXPECT_LT(held, 256 + 48) << "partial frames beyond the budget were kept";
  int closed = 0;
  for (auto& conn : conns) closed += conn->ClosedByPeer(100ms) ? 1 : 0;
  EXPECT_GE(closed, 64 - 17) << "connections past the budget must be closed";
  ExpectServes();  // small frames always fit
  conns.clear();
  EXPECT_TRUE(WaitUntil([&] { return GrowthMb() < 24; }, 8s))
      << "RSS still " << GrowthMb() << " MiB over the baseline after the flood (" << held
      << " MiB while held)";
  Report("MiB over baseline after the flood", GrowthMb());
  ExpectServes();
  ExpectPromptStopAndCleanRestart();
}

// 1 byte/s never completes a frame: the frame deadline closes the connection, long
// before the 120 s idle timeout (at 89c82c4 it outlived the idle timeout).
TEST_F(HostileNetFramesTest, ASlowlorisAtOneBytePerSecondIsClosedAtTheFrameDeadline) {
  StartBroker({{"serverFrameReadTimeoutMillis", "1500"}});
  const auto start = std::chrono::steady_clock::now();
  const std::string frame = Encode(SendRequest("HostileSlow", 0, std::string(1000, 's')));
  EXPECT_EQ(Slowloris(broker_->port(), frame, 8s), 0u)
      << "a slowloris connection outlived the frame deadline";
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  ExpectServes();
  ExpectPromptStopAndCleanRestart();
}

// The NameServer shares the remoting server: the same 64 unfinished 16 MiB frames at its
// default budget, and a slowloris at 1 byte/s.
TEST(HostileNetNamesrvTest, PartialFramesAndSlowlorisAreBoundedOnTheNameServer) {
  NamesrvProcess namesrv(Props{{"serverFrameReadTimeoutMillis", "3000"}});
  ASSERT_TRUE(namesrv.Start());
  remoting::RemotingClient client;
  client.Start();
  auto serves = [&] {
    auto r = client.InvokeSync(namesrv.addr(), RouteRequest("AnyTopic"), 3s);
    return r.ok();  // TOPIC_NOT_EXIST is an answer too
  };
  ASSERT_TRUE(serves());
  std::this_thread::sleep_for(300ms);
  const uint64_t baseline = RssKb(namesrv.process().pid());
  auto growth = [&] {
    return (static_cast<double>(RssKb(namesrv.process().pid())) - static_cast<double>(baseline)) / 1024;
  };
  auto conns = HoldPartialFrames(namesrv.port(), 64, kBigSent);
  const double held = growth();
  std::printf("[ measured ] NameServer MiB over baseline, 64 partial 16 MiB frames: %.1f\n", held);
  EXPECT_LT(held, 256 + 48);
  EXPECT_TRUE(serves());
  // The ones still open never finish their frame: the deadline closes them.
  for (auto& conn : conns) EXPECT_TRUE(conn->ClosedByPeer(5s));
  conns.clear();
  EXPECT_TRUE(WaitUntil([&] { return growth() < 24; }, 8s))
      << growth() << " MiB over the baseline (" << held << " MiB while held)";
  EXPECT_TRUE(serves());

  const auto slow_start = std::chrono::steady_clock::now();
  EXPECT_EQ(Slowloris(namesrv.port(), Encode(RouteRequest("SlowTopic")), 10s), 0u);
  EXPECT_LT(std::chrono::steady_clock::now() - slow_start, 6s);
  EXPECT_TRUE(serves());

  const auto start = std::chrono::steady_clock::now();
  namesrv.process().Stop(20s);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  ASSERT_TRUE(namesrv.Start());
  EXPECT_TRUE(serves());
  client.Shutdown();
}

}  // namespace
}  // namespace apogee::testing::hostile
