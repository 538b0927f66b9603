// The master-slave HA link cut by a TcpProxy while the master keeps serving clients.
//
// stall: the connection stays open but nothing moves (a black-holed route): a SYNC_MASTER
// send waits slaveTimeout and answers FLUSH_SLAVE_TIMEOUT (or SLAVE_NOT_AVAILABLE once the
// link is declared dead), never a plain SEND_OK.
// drop: the connection is closed and reconnects are refused: SLAVE_NOT_AVAILABLE (or a
// FLUSH_SLAVE_TIMEOUT for a send already waiting when the link went).
// strictAckEnable=true: those sends fail with SYSTEM_ERROR instead (producers retry it).
// After resume the slave reconnects, catches up, and SEND_OK comes back.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ha_harness.h"
#include "protocol/response_code.h"

namespace apogee::testing {
namespace {

namespace rc = protocol::response_code;
using namespace std::chrono_literals;

constexpr int32_t kQueues = 2;
constexpr int kSendsDuringCut = 4;

HaBrokerSetOptions SyncOptions(bool strict) {
  HaBrokerSetOptions options;
  options.master_role = "SYNC_MASTER";
  options.flush_disk_type = "SYNC_FLUSH";
  // A short replica wait keeps each send during the cut near 2 s (long enough that a
  // healthy link on a loaded CI machine still answers in time).
  options.master_extra = {{"slaveTimeout", "2000"}, {"strictAckEnable", strict ? "true" : "false"}};
  return options;
}

class HaLinkCutTest : public ::testing::Test {
 protected:
  void StartSet(bool strict) {
    ASSERT_TRUE(namesrv_.Start());
    set_ = std::make_unique<HaBrokerSet>(namesrv_.addr(), SyncOptions(strict));
    ASSERT_TRUE(set_->Start());
    ASSERT_TRUE(set_->CreateTopic(kHaTopic, kQueues));
    ASSERT_TRUE(WaitForSendOk(30s)) << "no SEND_OK before the cut:\n"
                                    << set_->master().ReadLog() << "\n"
                                    << set_->slave().ReadLog();
  }

  // Sends until one is SEND_OK (recording every SEND_OK for the final check).
  bool WaitForSendOk(std::chrono::milliseconds timeout) {
    return WaitUntil([&] { return SendOne().code == rc::kSuccess; }, timeout);
  }

  SendOutcome SendOne() {
    const int32_t q = static_cast<int32_t>(seq_ % kQueues);
    const int64_t seq = seq_++ / kQueues;
    SendOutcome out =
        client_.Send(set_->master().addr(), kHaTopic, q, LoadGenerator::Body(q, seq, 64));
    if (out.code == rc::kSuccess) acked_.push_back({q, seq, out.queue_offset, SteadyMillis()});
    return out;
  }

  // During the cut: every answer is one of `allowed`, and none is SEND_OK.
  void ExpectCutAnswers(const std::set<int32_t>& allowed) {
    for (int i = 0; i < kSendsDuringCut; ++i) {
      SendOutcome out = SendOne();
      EXPECT_NE(out.code, rc::kSuccess) << "plain SEND_OK while the slave link is cut";
      EXPECT_TRUE(allowed.count(out.code))
          << "send " << i << " during the cut answered code " << out.code << " " << out.error;
    }
  }

  // After resume: SEND_OK again, the slave caught up and holding every SEND_OK.
  void ExpectRecovery() {
    EXPECT_TRUE(WaitForSendOk(40s)) << "no SEND_OK after resume:\n" << set_->slave().ReadLog();
    for (int i = 0; i < 20; ++i) EXPECT_EQ(SendOne().code, rc::kSuccess);
    EXPECT_TRUE(set_->WaitForSlaveCaughtUp(30s));
    auto report = VerifyReplica(client_, set_->slave().addr(), kHaTopic, kQueues, acked_, 15s);
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    EXPECT_EQ(report->lost, 0) << report->ToString();
    EXPECT_EQ(report->duplicated, 0) << report->ToString();
    EXPECT_EQ(report->mismatched, 0) << report->ToString();
  }

  NamesrvProcess namesrv_;
  std::unique_ptr<HaBrokerSet> set_;
  HaClient client_{10s};
  int64_t seq_ = 0;
  std::vector<AckedMessage> acked_;
};

TEST_F(HaLinkCutTest, StalledLinkNeverYieldsPlainSendOk) {
  StartSet(false);
  set_->proxy().Stall();
  ExpectCutAnswers({rc::kFlushSlaveTimeout, rc::kSlaveNotAvailable});
  // The master kept serving: its own reads still work during the cut.
  EXPECT_TRUE(client_.MaxQueueOffset(set_->master().addr(), kHaTopic, 0).ok());
  set_->proxy().Resume();
  ExpectRecovery();
}

TEST_F(HaLinkCutTest, DroppedLinkNeverYieldsPlainSendOk) {
  StartSet(false);
  set_->proxy().Drop();
  ExpectCutAnswers({rc::kFlushSlaveTimeout, rc::kSlaveNotAvailable});
  set_->proxy().Resume();
  ExpectRecovery();
}

TEST_F(HaLinkCutTest, StrictAcksFailSendsWhileTheLinkIsCut) {
  StartSet(true);
  set_->proxy().Drop();
  ExpectCutAnswers({rc::kSystemError});
  set_->proxy().Resume();
  ExpectRecovery();
}

TEST_F(HaLinkCutTest, StrictAcksFailSendsWhileTheLinkIsStalled) {
  StartSet(true);
  set_->proxy().Stall();
  ExpectCutAnswers({rc::kSystemError});
  set_->proxy().Resume();
  ExpectRecovery();
}

}  // namespace
}  // namespace apogee::testing
