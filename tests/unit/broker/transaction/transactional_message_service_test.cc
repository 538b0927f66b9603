#include "broker/transaction/transactional_message_service.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/transaction/transaction_op.h"
#include "protocol/mix_all.h"
#include "protocol/system_topics.h"
#include "unit/broker/transaction_test_util.h"

namespace apogee::broker {
namespace {

using testing::TransactionHarness;

// Records what a check round hands out.
class RecordingListener : public TransactionCheckListener {
 public:
  void ResolveHalfMessage(const message::MessageExt& half) override { checked.push_back(half); }
  Status ResolveDiscardMessage(const message::MessageExt& half) override {
    if (!discard_status.ok()) return discard_status;
    discarded.push_back(half);
    return Status::OK();
  }
  std::vector<message::MessageExt> checked;
  std::vector<message::MessageExt> discarded;
  Status discard_status = Status::OK();
};

constexpr int64_t kTimeout = 6000;
constexpr int64_t kReserved = 72LL * 3600 * 1000;

TEST(TransactionalMessageServiceTest, FindsAHalfMessageByItsPhysicalOffset) {
  TransactionHarness h;
  message::MessageExt half = h.PutHalf("U1", h.clock.NowMillis());
  EXPECT_EQ(half.topic, protocol::kTransHalfTopic);
  EXPECT_EQ(half.queue_id, 0);
  EXPECT_EQ(half.queue_offset, 0);
  EXPECT_EQ(half.properties.Get(message::kPropertyRealTopic), "TxTopic");
  EXPECT_EQ(half.properties.Get(message::kPropertyRealQueueId), "1");
  EXPECT_EQ(half.sys_flag & message::kTransactionTypeMask, message::kTransactionNotType);

  EXPECT_TRUE(h.service->GetHalfMessage(half.commit_log_offset + 1).status().IsNotFound());
  h.AddTopic("Plain", 1);
  message::MessageExt plain;
  plain.topic = "Plain";
  plain.body = "x";
  store::PutResult put = h.service->PutAndWait(plain);
  Result<message::MessageExt> not_half = h.service->GetHalfMessage(put.wrote_offset.value());
  EXPECT_EQ(not_half.status().message(),
            "the message at commitLogOffset " + std::to_string(put.wrote_offset.value()) +
                " is not a half message (topic Plain)");
}

TEST(TransactionalMessageServiceTest, ChecksTheRequestAgainstTheHalfMessage) {
  TransactionHarness h;
  message::MessageExt half = h.PutHalf("U1", h.clock.NowMillis());
  protocol::EndTransactionRequestHeader header;
  header.producer_group = "PG_TX";
  header.tran_state_table_offset = half.queue_offset;
  header.commit_log_offset = half.commit_log_offset;
  EXPECT_TRUE(TransactionalMessageService::CheckPrepareMessage(half, header).ok());

  auto wrong = header;
  wrong.producer_group = "OTHER";
  EXPECT_EQ(TransactionalMessageService::CheckPrepareMessage(half, wrong).message(),
            "The producer group wrong: the half message belongs to 'PG_TX', the request names "
            "'OTHER'");
  wrong = header;
  wrong.tran_state_table_offset = 5;
  EXPECT_EQ(TransactionalMessageService::CheckPrepareMessage(half, wrong).message(),
            "The transaction state table offset wrong: the half message is at queue offset 0, "
            "the request names 5");
  wrong = header;
  wrong.commit_log_offset = half.commit_log_offset + 7;
  EXPECT_NE(TransactionalMessageService::CheckPrepareMessage(half, wrong)
                .message()
                .find("The commit log offset wrong"),
            std::string::npos);
}

TEST(TransactionalMessageServiceTest, CommittedMessageGoesBackToItsRealQueue) {
  TransactionHarness h;
  message::MessageExt half = h.PutHalf("U1", 1234);
  Result<message::MessageExt> committed = TransactionalMessageService::BuildCommittedMessage(half);
  ASSERT_TRUE(committed.ok());
  EXPECT_EQ(committed->topic, "TxTopic");
  EXPECT_EQ(committed->queue_id, 1);
  EXPECT_EQ(committed->sys_flag & message::kTransactionTypeMask, message::kTransactionCommitType);
  EXPECT_EQ(committed->prepared_transaction_offset, half.commit_log_offset);
  EXPECT_EQ(committed->born_timestamp, 1234);
  EXPECT_EQ(committed->body, "body of U1");
  EXPECT_EQ(committed->properties.Get(message::kPropertyUniqClientMessageIdKeyIdx), "U1");
  EXPECT_EQ(committed->properties.Get(message::kPropertyProducerGroup), "PG_TX");
  EXPECT_FALSE(committed->properties.Has(message::kPropertyRealTopic));
  EXPECT_FALSE(committed->properties.Has(message::kPropertyRealQueueId));
  EXPECT_FALSE(committed->properties.Has(message::kPropertyTransactionPrepared));

  message::MessageExt broken = half;
  broken.properties.Erase(message::kPropertyRealQueueId);
  EXPECT_FALSE(TransactionalMessageService::BuildCommittedMessage(broken).ok());
}

TEST(TransactionalMessageServiceTest, OpMessageNamesTheHalfQueueOffset) {
  TransactionHarness h;
  h.PutHalf("U0", 1);
  message::MessageExt half = h.PutHalf("U1", 1);
  message::MessageExt op = h.service->BuildOpMessage(half);
  EXPECT_EQ(op.topic, protocol::kTransOpHalfTopic);
  EXPECT_EQ(op.queue_id, 0);
  EXPECT_EQ(op.body, "1");
  EXPECT_EQ(op.tags(), "d");
}

TEST(TransactionalMessageServiceTest, YoungHalfMessagesWaitForTheTimeout) {
  TransactionHarness h;
  h.PutHalf("U1", h.clock.NowMillis());
  h.clock.Advance(kTimeout - 1000);
  RecordingListener listener;
  TransactionCheckRoundStats stats = h.service->Check(kTimeout, 15, kReserved, &listener);
  EXPECT_EQ(stats.checked, 0);
  EXPECT_EQ(stats.half_offset, 0);
  EXPECT_TRUE(listener.checked.empty());
}

TEST(TransactionalMessageServiceTest, UndecidedOldHalfIsReappendedAndChecked) {
  TransactionHarness h;
  message::MessageExt half = h.PutHalf("U1", h.clock.NowMillis());
  h.clock.Advance(kTimeout + 1000);
  RecordingListener listener;
  TransactionCheckRoundStats stats = h.service->Check(kTimeout, 15, kReserved, &listener);
  EXPECT_EQ(stats.checked, 1);
  EXPECT_EQ(stats.half_offset, 1);
  ASSERT_EQ(listener.checked.size(), 1u);
  const message::MessageExt& copy = listener.checked[0];
  EXPECT_EQ(copy.queue_offset, 1);
  EXPECT_GT(copy.commit_log_offset, half.commit_log_offset);
  EXPECT_EQ(copy.properties.Get(message::kPropertyTransactionCheckTimes), "1");
  EXPECT_EQ(copy.properties.Get(message::kPropertyUniqClientMessageIdKeyIdx), "U1");
  EXPECT_EQ(h.offsets->QueryOffset(protocol::kTransSysConsumerGroup, protocol::kTransHalfTopic, 0),
            1);
  // The copy is what END_TRANSACTION will name.
  h.WaitDispatched();
  Result<message::MessageExt> stored = h.service->GetHalfMessage(copy.commit_log_offset);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->queue_offset, 1);
  EXPECT_EQ(stored->properties.Get(message::kPropertyTransactionCheckTimes), "1");

  // The next round, later, checks the copy once more.
  h.clock.Advance(1000);
  stats = h.service->Check(kTimeout, 15, kReserved, &listener);
  EXPECT_EQ(stats.checked, 1);
  ASSERT_EQ(listener.checked.size(), 2u);
  EXPECT_EQ(listener.checked[1].properties.Get(message::kPropertyTransactionCheckTimes), "2");
}

TEST(TransactionalMessageServiceTest, DecidedHalfMessagesAreSkippedAndOpsConsumed) {
  TransactionHarness h;
  message::MessageExt a = h.PutHalf("A", h.clock.NowMillis());
  message::MessageExt b = h.PutHalf("B", h.clock.NowMillis());
  message::MessageExt c = h.PutHalf("C", h.clock.NowMillis());
  // b and a decided (in that order), c not.
  EXPECT_TRUE(store::PutStatusStored(h.service->PutAndWait(h.service->BuildOpMessage(b)).status));
  EXPECT_TRUE(store::PutStatusStored(h.service->PutAndWait(h.service->BuildOpMessage(a)).status));
  h.WaitDispatched();
  h.clock.Advance(kTimeout + 1000);
  RecordingListener listener;
  TransactionCheckRoundStats stats = h.service->Check(kTimeout, 15, kReserved, &listener);
  EXPECT_EQ(stats.decided, 2);
  EXPECT_EQ(stats.checked, 1);
  ASSERT_EQ(listener.checked.size(), 1u);
  EXPECT_EQ(listener.checked[0].properties.Get(message::kPropertyUniqClientMessageIdKeyIdx), "C");
  EXPECT_EQ(stats.half_offset, 3);
  EXPECT_EQ(stats.op_offset, 2);
  EXPECT_EQ(
      h.offsets->QueryOffset(protocol::kTransSysConsumerGroup, protocol::kTransOpHalfTopic, 0), 2);
}

TEST(TransactionalMessageServiceTest, ADecidedYoungHalfIsPassedWithoutWaiting) {
  TransactionHarness h;
  h.PutHalf("A", h.clock.NowMillis());
  h.clock.Advance(kTimeout + 1000);
  // The op for a half message that is still young stays pending.
  message::MessageExt young = h.PutHalf("Y", h.clock.NowMillis());
  EXPECT_TRUE(
      store::PutStatusStored(h.service->PutAndWait(h.service->BuildOpMessage(young)).status));
  h.WaitDispatched();
  RecordingListener listener;
  TransactionCheckRoundStats stats = h.service->Check(kTimeout, 15, kReserved, &listener);
  EXPECT_EQ(stats.checked, 1);
  // Y is decided: the round passes it without waiting for its timeout.
  EXPECT_EQ(stats.decided, 1);
  EXPECT_EQ(stats.half_offset, 2);
  EXPECT_EQ(stats.op_offset, 1);
}

TEST(TransactionalMessageServiceTest, CheckedTooOftenIsDiscarded) {
  TransactionHarness h;
  message::MessageProperties props;
  (void)props.Set(message::kPropertyTransactionCheckTimes, "2");
  h.PutHalf("U1", h.clock.NowMillis(), "PG_TX", 1, props);
  h.clock.Advance(kTimeout + 1000);
  RecordingListener listener;
  listener.discard_status = Status::Unavailable("disk");
  TransactionCheckRoundStats stats = h.service->Check(kTimeout, 2, kReserved, &listener);
  EXPECT_EQ(stats.discarded, 0);
  EXPECT_EQ(stats.half_offset, 0);  // retried next round
  listener.discard_status = Status::OK();
  stats = h.service->Check(kTimeout, 2, kReserved, &listener);
  EXPECT_EQ(stats.discarded, 1);
  EXPECT_EQ(stats.checked, 0);
  EXPECT_EQ(stats.half_offset, 1);
  ASSERT_EQ(listener.discarded.size(), 1u);
}

TEST(TransactionalMessageServiceTest, ImmunityTimeDelaysTheFirstCheck) {
  TransactionHarness h;
  message::MessageProperties props;
  (void)props.Set(message::kPropertyCheckImmunityTimeInSeconds, "60");
  h.PutHalf("U1", h.clock.NowMillis(), "PG_TX", 1, props);
  h.clock.Advance(kTimeout + 1000);
  RecordingListener listener;
  // Young for its immunity: moved once to the end, carrying its first offset.
  TransactionCheckRoundStats stats = h.service->Check(kTimeout, 15, kReserved, &listener);
  EXPECT_EQ(stats.checked, 0);
  EXPECT_EQ(stats.half_offset, 1);
  h.WaitDispatched();
  h.clock.Advance(1000);
  stats = h.service->Check(kTimeout, 15, kReserved, &listener);
  EXPECT_EQ(stats.checked, 0);
  EXPECT_EQ(stats.half_offset, 1);  // the copy waits
  h.clock.Advance(60'000);
  stats = h.service->Check(kTimeout, 15, kReserved, &listener);
  EXPECT_EQ(stats.checked, 1);
  ASSERT_EQ(listener.checked.size(), 1u);
  EXPECT_EQ(listener.checked[0].properties.Get(message::kPropertyTranPreparedQueueOffset), "0");
}

TEST(TransactionalMessageServiceTest, AnOpNamingTheFirstOffsetDecidesAnImmuneCopy) {
  TransactionHarness h;
  message::MessageProperties props;
  (void)props.Set(message::kPropertyCheckImmunityTimeInSeconds, "60");
  message::MessageExt half = h.PutHalf("U1", h.clock.NowMillis(), "PG_TX", 1, props);
  h.clock.Advance(kTimeout + 1000);
  RecordingListener listener;
  h.service->Check(kTimeout, 15, kReserved, &listener);  // moves it to offset 1
  EXPECT_TRUE(store::PutStatusStored(h.service->PutAndWait(h.service->BuildOpMessage(half)).status));
  h.WaitDispatched();
  h.clock.Advance(1000);
  TransactionCheckRoundStats stats = h.service->Check(kTimeout, 15, kReserved, &listener);
  EXPECT_EQ(stats.decided, 1);
  EXPECT_EQ(stats.half_offset, 2);
  EXPECT_TRUE(listener.checked.empty());
}

TEST(TransactionalMessageServiceTest, ProgressSurvivesInTheConsumerOffsets) {
  TransactionHarness h;
  h.PutHalf("U1", h.clock.NowMillis());
  h.clock.Advance(kTimeout + 1000);
  RecordingListener listener;
  h.service->Check(kTimeout, 15, kReserved, &listener);
  ASSERT_TRUE(h.offsets->Persist().ok());
  ConsumerOffsetManager reloaded(h.env.get(), "/store/config/consumerOffset.json");
  ASSERT_TRUE(reloaded.Load().ok());
  EXPECT_EQ(reloaded.QueryOffset(protocol::kTransSysConsumerGroup, protocol::kTransHalfTopic, 0),
            1);
}

}  // namespace
}  // namespace apogee::broker
