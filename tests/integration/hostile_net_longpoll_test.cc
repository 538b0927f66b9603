// Held long-polls are capped (issue 12, item 4: 344k held long-polls took 570 MB at
// 89c82c4). Past pullHoldMaxRequests a suspended pull is answered SYSTEM_BUSY at once
// (retriable flow control) instead of being held; the held ones are still answered when
// a message arrives.
#include <thread>

#include "hostile_net_util.h"

namespace apogee::testing::hostile {
namespace {

class HostileNetLongPollTest : public HostileBrokerTest {};

TEST_F(HostileNetLongPollTest, HeldPullsStopAtTheCapAndTheRestAreToldToBackOff) {
  StartBroker({{"pullHoldMaxRequests", "10000"}});
  // A queue with one message; pulls past it park.
  auto seeded = client_->InvokeSync(broker_->addr(), SendRequest("HostileHold", 0, "seed"), 5s);
  ASSERT_TRUE(seeded.ok() && seeded->code == resp::kSuccess);
  // Dispatched to its queue (until then a pull at offset 1 is answered OFFSET_MOVED).
  ASSERT_FALSE(PullBodies(0, 5s, "HostileHold").empty());
  constexpr size_t kHeld = 10000;
  constexpr int kConnections = 4;
  constexpr int kPerConnection = 5000;  // 20000 pulls, 10000 may be held
  std::vector<std::unique_ptr<RawConn>> conns;
  std::string pulls;
  for (int i = 0; i < kPerConnection; ++i) pulls += Encode(PullRequest("HostileHold", 0, 1, 30000));
  for (int c = 0; c < kConnections; ++c) {
    conns.push_back(std::make_unique<RawConn>(broker_->port()));
    ASSERT_EQ(conns.back()->Write(pulls, 5s), pulls.size());
  }
  // Everything past the cap is answered now, and says why.
  constexpr size_t kBusy = kConnections * kPerConnection - kHeld;
  int busy = 0;
  for (const auto& response : ReadResponses(conns, kBusy, 10s)) {
    ASSERT_EQ(response.code, resp::kSystemBusy) << response.remark.value_or("");
    EXPECT_NE(response.remark.value_or("").find("pullHoldMaxRequests"), std::string::npos);
    ++busy;
  }
  EXPECT_EQ(busy, static_cast<int>(kBusy));
  Report("MiB over baseline, 10000 held pulls", GrowthMb());
  EXPECT_LT(GrowthMb(), 64);
  ExpectServes();
  // A message arrives: the held pulls are all answered with it.
  auto arrived = client_->InvokeSync(broker_->addr(), SendRequest("HostileHold", 0, "wake"), 5s);
  ASSERT_TRUE(arrived.ok() && arrived->code == resp::kSuccess);
  int found = 0;
  for (const auto& response : ReadResponses(conns, kHeld, 10s)) {
    if (response.code == resp::kSuccess) ++found;
  }
  EXPECT_EQ(found, static_cast<int>(kHeld));
  for (auto& conn : conns) conn->Close();
  ExpectServes();
  ExpectPromptStopAndCleanRestart();
}

}  // namespace
}  // namespace apogee::testing::hostile
