// Hostile clients that pipeline requests and never read the answers (issue 12, item 4):
// at 89c82c4 pipelined pulls took the broker from 115 MB to 6.1 GB in 60 s and
// GET_BROKER_CONFIG to 3 GB, still held 30 s after the socket closed. Now reading stops
// at the write high-water mark (docs/security.md, "Resource limits"); each test checks
// RSS stays bounded, an unrelated client is served, memory comes back once the socket
// closes, nothing acknowledged is lost, and SIGTERM + restart work.
#include <atomic>
#include <thread>

#include "hostile_net_util.h"

namespace apogee::testing::hostile {
namespace {

// Pipelines `requests` on a socket that never reads, for `flood_for`, and returns the
// largest RSS growth (MiB) seen meanwhile; the unrelated client is served in between.
class HostileNetPipelineTest : public HostileBrokerTest {
 protected:
  double FloodWithoutReading(const std::string& requests, std::chrono::milliseconds flood_for) {
    RawConn flood(broker_->port(), /*rcvbuf=*/4096);
    EXPECT_TRUE(flood.connected());
    std::atomic<bool> done{false};
    std::thread writer([&] {
      flood.Write(requests, flood_for);
      done = true;
    });
    double peak = 0;
    const auto end = std::chrono::steady_clock::now() + flood_for;
    bool served = false;
    while (std::chrono::steady_clock::now() < end) {
      peak = std::max(peak, GrowthMb());
      if (!served && std::chrono::steady_clock::now() > end - flood_for / 2) {
        ExpectServes(5s);  // mid-flood
        served = true;
      }
      std::this_thread::sleep_for(50ms);
    }
    writer.join();
    peak = std::max(peak, GrowthMb());
    flood.Close();
    return peak;
  }

  void ExpectMemoryBack(double max_growth_mb) {
    EXPECT_TRUE(WaitUntil([&] { return GrowthMb() < max_growth_mb; }, 8s))
        << "RSS still " << GrowthMb() << " MiB over the baseline after the socket closed";
    Report("MiB over baseline after the socket closed", GrowthMb());
  }
};

TEST_F(HostileNetPipelineTest, PipelinedPullsAreBoundedByTheWriteHighWaterMark) {
  StartBroker();
  // 64 messages of 16 KiB: each pull answer carries 32 of them (512 KiB), so 4000
  // pipelined pulls would queue 2 GiB of answers without a bound.
  for (int i = 0; i < 64; ++i) {
    auto sent = client_->InvokeSync(broker_->addr(),
                                    SendRequest("HostileBig", 0, std::string(16 * 1024, 'p')), 5s);
    ASSERT_TRUE(sent.ok() && sent->code == resp::kSuccess);
  }
  std::string pulls;
  for (int i = 0; i < 4000; ++i) pulls += Encode(PullRequest("HostileBig", 0, 0));
  const double peak = FloodWithoutReading(pulls, 3s);
  Report("peak MiB over baseline, pipelined pulls", peak);
  EXPECT_LT(peak, 64) << "RSS grew by " << peak << " MiB";
  ExpectMemoryBack(32);
  ExpectServes();
  ExpectPromptStopAndCleanRestart();
}

TEST_F(HostileNetPipelineTest, PipelinedGetBrokerConfigIsBoundedAndFreedOnClose) {
  StartBroker();
  std::string requests;
  const std::string one =
      Encode(protocol::RemotingCommand::MakeRequest(req::kGetBrokerConfig));
  for (int i = 0; i < 30000; ++i) requests += one;  // ~10 KiB answers: 300 MiB unbounded
  const double peak = FloodWithoutReading(requests, 3s);
  Report("peak MiB over baseline, pipelined GET_BROKER_CONFIG", peak);
  EXPECT_LT(peak, 48) << "RSS grew by " << peak << " MiB";
  ExpectMemoryBack(24);
  ExpectServes();
  ExpectPromptStopAndCleanRestart();
}

// At 89c82c4 SIGTERM did not stop a broker whose IO threads were busy decoding hostile
// headers. Here it comes while every kind of attack is under way at once: pipelining
// clients stuck at the high-water mark, unfinished 16 MiB frames, slowloris connections
// and held long-polls.
TEST_F(HostileNetPipelineTest, SigtermStopsTheBrokerPromptlyMidFlood) {
  StartBroker();
  std::vector<std::unique_ptr<RawConn>> attackers;
  const std::string one =
      Encode(protocol::RemotingCommand::MakeRequest(req::kGetBrokerConfig));
  std::string requests;
  for (int i = 0; i < 5000; ++i) requests += one;
  for (int c = 0; c < 8; ++c) {
    attackers.push_back(std::make_unique<RawConn>(broker_->port(), 4096));
    attackers.back()->Write(requests, 200ms);
  }
  // Unfinished 16 MiB frames (8 MiB of each sent).
  const std::string partial = BigFrameHead(16 * 1024 * 1024 - 64) + std::string(8 << 20, 'z');
  for (int c = 0; c < 8; ++c) {
    attackers.push_back(std::make_unique<RawConn>(broker_->port()));
    attackers.back()->Write(partial, 500ms);
  }
  // Slowloris: a few bytes of a frame, then nothing.
  const std::string frame = Encode(SendRequest("HostileSlow", 0, std::string(1000, 's')));
  for (int c = 0; c < 8; ++c) {
    attackers.push_back(std::make_unique<RawConn>(broker_->port()));
    attackers.back()->Write(frame.substr(0, 10), 200ms);
  }
  // Held long-polls on an empty queue.
  std::string pulls;
  for (int i = 0; i < 200; ++i) pulls += Encode(PullRequest("HostileHoldTerm", 0, 0, 30000));
  for (int c = 0; c < 4; ++c) {
    attackers.push_back(std::make_unique<RawConn>(broker_->port()));
    attackers.back()->Write(pulls, 1s);
  }
  std::this_thread::sleep_for(300ms);
  ExpectServes();
  ExpectPromptStopAndCleanRestart();  // SIGTERM while all of them are connected
}

}  // namespace
}  // namespace apogee::testing::hostile
