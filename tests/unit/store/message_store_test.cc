#include "store/message_store.h"

#include <gtest/gtest.h>

#include <climits>
#include <set>

#include "base/java_hash.h"
#include "env/fault_injection_env.h"
#include "env/mem_env.h"
#include "message/message_record.h"
#include "store_test_util.h"
#include "testutil/test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;

class MessageStoreTest : public ::testing::Test {
 protected:
  std::unique_ptr<MessageStore> OpenStore(env::Env* env = nullptr) {
    auto s = MessageStore::Open(config_, env ? env : mem_.get(), &clock_);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    if (!s.ok()) return nullptr;
    EXPECT_TRUE((*s)->Start().ok());
    return std::move(*s);
  }
  static PutResult Put(MessageStore* s, const TestMessage& m, bool wait = true) {
    return s->PutMessage(m.fields, wait).get();
  }
  // Waits until the reput has dispatched everything readable.
  static void WaitDispatched(MessageStore* s) {
    ASSERT_TRUE(apogee::testing::WaitUntil([&] { return s->DispatchBehindBytes() <= 0; },
                                           std::chrono::seconds(10)));
  }
  static message::RecordView Decode(const MessageRef& ref) {
    auto r = message::DecodeRecord(ref.data, static_cast<size_t>(ref.size));
    EXPECT_EQ(r.status, message::RecordStatus::kMessage) << r.reason;
    return r.record;
  }

  std::unique_ptr<env::Env> mem_ = env::NewMemEnv();
  StoreConfig config_ = SmallConfig("/store");
  ManualClock clock_;
};

TEST_F(MessageStoreTest, PutThenGetByQueueOffset) {
  auto store = OpenStore();
  for (int i = 0; i < 50; ++i) {
    TestMessage m("TopicA", i % 2, "body-" + std::to_string(i));
    PutResult r = Put(store.get(), m);
    ASSERT_EQ(r.status, PutStatus::kPutOk);
    EXPECT_EQ(r.queue_offset.value(), i / 2);
  }
  WaitDispatched(store.get());
  EXPECT_EQ(store->GetMaxOffsetInQueue("TopicA", 1), 25);
  EXPECT_EQ(store->GetMinOffsetInQueue("TopicA", 1), 0);
  GetMessageResult g = store->GetMessages("TopicA", 1, 3, 5, 1 << 20);
  ASSERT_EQ(g.status, GetStatus::kFound);
  ASSERT_EQ(g.messages.size(), 5u);
  EXPECT_EQ(g.next_begin_offset, 8);
  for (size_t i = 0; i < g.messages.size(); ++i) {
    message::RecordView v = Decode(g.messages[i]);
    EXPECT_EQ(v.queue_offset, static_cast<int64_t>(3 + i));
    EXPECT_EQ(v.body, "body-" + std::to_string(2 * (3 + i) + 1));
  }
  EXPECT_EQ(store->GetMessages("TopicA", 1, 25, 5, 1 << 20).status, GetStatus::kOffsetOverflowOne);
  EXPECT_EQ(store->GetMessages("TopicA", 1, 99, 5, 1 << 20).status,
            GetStatus::kOffsetOverflowBadly);
  EXPECT_EQ(store->GetMessages("Nope", 0, 0, 5, 1 << 20).status,
            GetStatus::kNoMatchedLogicQueue);
}

TEST_F(MessageStoreTest, ByteLimitStillReturnsOneMessage) {
  auto store = OpenStore();
  for (int i = 0; i < 4; ++i) Put(store.get(), TestMessage("T", 0, std::string(1000, 'x')));
  WaitDispatched(store.get());
  GetMessageResult g = store->GetMessages("T", 0, 0, 32, 10);
  EXPECT_EQ(g.messages.size(), 1u);
  g = store->GetMessages("T", 0, 0, 32, 2500);
  EXPECT_EQ(g.messages.size(), 2u);
  EXPECT_EQ(g.next_begin_offset, 2);
}

TEST_F(MessageStoreTest, TagFilterUsesTagCodes) {
  auto store = OpenStore();
  for (int i = 0; i < 10; ++i) {
    Put(store.get(), TestMessage("T", 0, std::to_string(i), i % 3 == 0 ? "TagA" : "TagB"));
  }
  WaitDispatched(store.get());
  int64_t tag_a = JavaStringHashCode("TagA");
  GetMessageResult g =
      store->GetMessages("T", 0, 0, 32, 1 << 20, [&](int64_t code) { return code == tag_a; });
  ASSERT_EQ(g.status, GetStatus::kFound);
  ASSERT_EQ(g.messages.size(), 4u);
  EXPECT_EQ(Decode(g.messages[1]).body, "3");
  EXPECT_EQ(g.next_begin_offset, 10);
  GetMessageResult none =
      store->GetMessages("T", 0, 0, 32, 1 << 20, [](int64_t) { return false; });
  EXPECT_EQ(none.status, GetStatus::kNoMatchedMessage);
  EXPECT_EQ(none.next_begin_offset, 10);
}

TEST_F(MessageStoreTest, FilteredReadsScanInChunksWithinJavasScanBudget) {
  auto store = OpenStore();
  // Every 50th message matches; 1,000 in all (16 ConsumeQueue files of 64 entries).
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(Put(store.get(), TestMessage("T", 0, std::to_string(i), i % 50 == 0 ? "TagA" : "TagB"))
                  .status,
              PutStatus::kPutOk);
  }
  WaitDispatched(store.get());
  const int64_t tag_a = JavaStringHashCode("TagA");
  auto only_a = [&](int64_t code) { return code == tag_a; };
  GetMessageResult g = store->GetMessages("T", 0, 0, 3, 1 << 20, only_a);
  ASSERT_EQ(g.status, GetStatus::kFound);
  ASSERT_EQ(g.messages.size(), 3u);
  EXPECT_EQ(Decode(g.messages[2]).body, "100");
  EXPECT_EQ(g.next_begin_offset, 101);
  // Java scans at most 800 entries (16,000 bytes) per read, matches or not.
  GetMessageResult rest = store->GetMessages("T", 0, 101, 32, 1 << 20, only_a);
  ASSERT_EQ(rest.messages.size(), 16u);  // entries 101..900: 150, 200, ..., 900
  EXPECT_EQ(Decode(rest.messages.back()).body, "900");
  EXPECT_EQ(rest.next_begin_offset, 901);
  GetMessageResult none = store->GetMessages("T", 0, 0, 32, 1 << 20, [](int64_t) { return false; });
  EXPECT_EQ(none.status, GetStatus::kNoMatchedMessage);
  EXPECT_EQ(none.next_begin_offset, 800);
  // A client may ask for INT32_MAX messages: capped by maxTransferCountOnMessageInMemory.
  GetMessageResult most = store->GetMessages("T", 0, 0, INT32_MAX, INT64_MAX);
  EXPECT_EQ(most.messages.size(), 32u);
  EXPECT_EQ(most.next_begin_offset, 32);
}

TEST_F(MessageStoreTest, InDiskByConsumeOffsetFollowsTheMemoryRatio) {
  config_.access_message_in_memory_max_ratio = 0;  // nothing behind the end is "in memory"
  auto store = OpenStore();
  for (int i = 0; i < 3; ++i) Put(store.get(), TestMessage("T", 0, std::to_string(i)));
  WaitDispatched(store.get());
  EXPECT_TRUE(store->CheckInDiskByConsumeOffset("T", 0, 0));
  EXPECT_TRUE(store->CheckInDiskByConsumeOffset("T", 0, 2));
  // No entry (the queue's end, an unknown queue or topic): not in disk, as Java answers.
  EXPECT_FALSE(store->CheckInDiskByConsumeOffset("T", 0, 3));
  EXPECT_FALSE(store->CheckInDiskByConsumeOffset("T", 1, 0));
  EXPECT_FALSE(store->CheckInDiskByConsumeOffset("Nope", 0, 0));
  EXPECT_FALSE(store->CheckInDiskByCommitOffset(store->MaxPhyOffset()));
  // A pull's queueOffset comes straight from the client: the extremes find nothing (and
  // compute no overflowing byte position, which UBSan would report).
  for (int64_t hostile : {INT64_MAX, INT64_MAX / 20, INT64_MAX / 20 + 1, int64_t{-1}, INT64_MIN}) {
    EXPECT_FALSE(store->CheckInDiskByConsumeOffset("T", 0, hostile)) << hostile;
    EXPECT_EQ(store->GetCommitLogOffsetInQueue("T", 0, hostile), -1) << hostile;
    EXPECT_EQ(store->GetMessageStoreTimestamp("T", 0, hostile), -1) << hostile;
  }
  store.reset();
  config_.access_message_in_memory_max_ratio = 40;
  store = OpenStore();
  EXPECT_FALSE(store->CheckInDiskByConsumeOffset("T", 0, 0));
}

TEST_F(MessageStoreTest, QueryByKeyChecksTheRealKey) {
  auto store = OpenStore();
  Put(store.get(), TestMessage("T", 0, "a", "", "order-1 order-2", "UNIQ-A"));
  clock_.Advance(2000);
  Put(store.get(), TestMessage("T", 1, "b", "", "order-2", "UNIQ-B"));
  Put(store.get(), TestMessage("Other", 0, "c", "", "order-2", "UNIQ-C"));
  WaitDispatched(store.get());
  QueryMessageResult q = store->QueryMessages("T", "order-2", 32, 0, INT64_MAX);
  ASSERT_EQ(q.messages.size(), 2u);
  EXPECT_EQ(Decode(q.messages[0]).body, "b");  // newest first
  EXPECT_EQ(store->QueryMessages("T", "UNIQ-A", 32, 0, INT64_MAX).messages.size(), 1u);
  EXPECT_EQ(store->QueryMessages("T", "order-9", 32, 0, INT64_MAX).messages.size(), 0u);
  auto by_offset = store->GetMessageByOffset(q.messages[1].phy_offset);
  ASSERT_TRUE(by_offset.ok());
  EXPECT_EQ(Decode(by_offset->messages[0]).body, "a");
}

TEST_F(MessageStoreTest, OffsetsAndTimes) {
  auto store = OpenStore();
  int64_t t0 = clock_.NowMillis();
  for (int i = 0; i < 10; ++i) {
    Put(store.get(), TestMessage("T", 0, "m"));
    clock_.Advance(1000);
  }
  WaitDispatched(store.get());
  EXPECT_EQ(store->GetOffsetInQueueByTime("T", 0, t0 + 3500), 4);
  EXPECT_EQ(store->GetMessageStoreTimestamp("T", 0, 2), t0 + 2000);
  EXPECT_EQ(store->GetEarliestMessageTime("T", 0), t0);
  EXPECT_EQ(store->GetEarliestMessageTime(), t0);
  EXPECT_EQ(store->GetCommitLogOffsetInQueue("T", 0, 0), 0);
  EXPECT_EQ(store->GetCommitLogOffsetInQueue("T", 0, 10), -1);
}

TEST_F(MessageStoreTest, SyncFlushAcknowledgesAfterFlush) {
  config_.flush_disk_type = "SYNC_FLUSH";
  auto store = OpenStore();
  std::vector<std::future<PutResult>> futures;
  for (int i = 0; i < 100; ++i) {
    futures.push_back(store->PutMessage(TestMessage("T", i % 4, std::to_string(i)).fields, true));
  }
  for (auto& f : futures) EXPECT_EQ(f.get().status, PutStatus::kPutOk);
  WaitDispatched(store.get());
  EXPECT_EQ(store->GetMaxOffsetInQueue("T", 3), 25);
}

TEST_F(MessageStoreTest, NormalRestartKeepsEverythingAndContinuesOffsets) {
  {
    auto store = OpenStore();
    for (int i = 0; i < 300; ++i) {
      Put(store.get(), TestMessage("T", i % 3, std::string(500, 'a'), "", "", "U" + std::to_string(i)));
    }
    WaitDispatched(store.get());
    store->Shutdown();
  }
  EXPECT_FALSE(mem_->FileExists("/store/abort"));
  auto store = OpenStore();
  EXPECT_TRUE(store->recovery_report().last_exit_ok);
  EXPECT_EQ(store->GetMaxOffsetInQueue("T", 2), 100);
  PutResult r = Put(store.get(), TestMessage("T", 2, "next"));
  EXPECT_EQ(r.queue_offset.value(), 100);
  WaitDispatched(store.get());
  EXPECT_EQ(store->QueryMessages("T", "U299", 32, 0, INT64_MAX).messages.size(), 1u);
  EXPECT_EQ(store->GetMessages("T", 2, 100, 1, 1 << 20).messages.size(), 1u);
}

TEST_F(MessageStoreTest, SecondStoreOnTheSameDirectoryIsRefused) {
  auto store = OpenStore();
  auto second = MessageStore::Open(config_, mem_.get(), &clock_);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("Lock failed"), std::string::npos);
  EXPECT_NE(second.status().message().find("/store"), std::string::npos);
}

TEST_F(MessageStoreTest, CrashLosesNothingAcknowledgedUnderSyncFlush) {
  config_.flush_disk_type = "SYNC_FLUSH";
  env::FaultInjectionEnv fault(mem_.get());
  int acked = 0;
  {
    auto store = OpenStore(&fault);
    for (int i = 0; i < 200; ++i) {
      TestMessage m("T", i % 2, "m" + std::to_string(i), "", "", "K" + std::to_string(i));
      ASSERT_EQ(Put(store.get(), m).status, PutStatus::kPutOk);
      ++acked;
    }
    // An unacknowledged tail: in mapped memory only.
    for (int i = 0; i < 20; ++i) {
      store->PutMessage(TestMessage("T", 0, "tail").fields, false, [](const PutResult&) {});
    }
    store->Halt();
    ASSERT_TRUE(fault.DropUnsyncedData().ok());
  }
  EXPECT_TRUE(fault.FileExists("/store/abort"));
  auto store = OpenStore(&fault);
  EXPECT_FALSE(store->recovery_report().last_exit_ok);
  EXPECT_GE(store->GetMaxOffsetInQueue("T", 0) + store->GetMaxOffsetInQueue("T", 1), acked);
  EXPECT_EQ(store->QueryMessages("T", "K199", 4, 0, INT64_MAX).messages.size(), 1u);
  GetMessageResult g = store->GetMessages("T", 1, 0, 32, 1 << 20);
  ASSERT_EQ(g.status, GetStatus::kFound);
  EXPECT_EQ(Decode(g.messages[0]).body, "m1");
  // New puts continue after the recovered end with the right queue offsets.
  int64_t next = store->GetMaxOffsetInQueue("T", 1);
  PutResult r = Put(store.get(), TestMessage("T", 1, "after"));
  EXPECT_EQ(r.queue_offset.value(), next);
}

TEST_F(MessageStoreTest, FlushErrorStopsWrites) {
  config_.flush_disk_type = "SYNC_FLUSH";
  env::FaultInjectionEnv fault(mem_.get());
  auto store = OpenStore(&fault);
  ASSERT_EQ(Put(store.get(), TestMessage("T", 0, "ok")).status, PutStatus::kPutOk);
  fault.FailNext(env::FaultPoint::kSync, 1000);
  PutResult failed = Put(store.get(), TestMessage("T", 0, "lost"));
  EXPECT_EQ(failed.status, PutStatus::kServiceNotAvailable);
  EXPECT_FALSE(store->writable());
  EXPECT_NE(store->unwritable_reason().find("flush"), std::string::npos);
  fault.ClearAllFaults();
  EXPECT_EQ(Put(store.get(), TestMessage("T", 0, "refused")).status,
            PutStatus::kServiceNotAvailable);
  // Reads go on.
  WaitDispatched(store.get());
  EXPECT_EQ(store->GetMessages("T", 0, 0, 10, 1 << 20).messages.size(), 1u);
}

// ASYNC_FLUSH acknowledges before the flush, but the first failed flush stops every later
// acknowledgement: the store never keeps answering OK for bytes it cannot make durable.
TEST_F(MessageStoreTest, AsyncFlushErrorStopsLaterAcks) {
  config_.flush_disk_type = "ASYNC_FLUSH";
  config_.flush_commit_log_least_pages = 0;  // flush whatever is dirty at every interval
  env::FaultInjectionEnv fault(mem_.get());
  auto store = OpenStore(&fault);
  ASSERT_EQ(Put(store.get(), TestMessage("T", 0, "ok")).status, PutStatus::kPutOk);
  fault.FailNext(env::FaultPoint::kSync, 1000);
  ASSERT_EQ(Put(store.get(), TestMessage("T", 0, "dirty")).status, PutStatus::kPutOk);
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return !store->writable(); },
                                         std::chrono::seconds(10)));
  EXPECT_NE(store->unwritable_reason().find("flush"), std::string::npos)
      << store->unwritable_reason();
  fault.ClearAllFaults();
  EXPECT_EQ(Put(store.get(), TestMessage("T", 0, "refused")).status,
            PutStatus::kServiceNotAvailable);
  // What was acknowledged before stays readable.
  WaitDispatched(store.get());
  EXPECT_EQ(store->GetMessages("T", 0, 0, 10, 1 << 20).messages.size(), 2u);
}

// One record no ConsumeQueue can hold (written raw, as a replica or an older version could
// have) neither stalls the dispatch of later messages nor fails a recovery after a crash.
TEST_F(MessageStoreTest, ARecordThatCannotBeIndexedIsSkippedLiveAndInRecovery) {
  {
    auto store = OpenStore();
    for (int i = 0; i < 3; ++i)
      ASSERT_EQ(Put(store.get(), TestMessage("T", 0, "a")).status, PutStatus::kPutOk);
    TestMessage bad("a/b", 0, "bad");
    EXPECT_EQ(Put(store.get(), bad).status, PutStatus::kMessageIllegal);
    bad.fields.physical_offset = store->MaxPhyOffset();
    Result<std::string> raw = message::EncodeRecordToString(bad.fields);
    ASSERT_TRUE(raw.ok());
    ASSERT_TRUE(store->AppendRaw(store->MaxPhyOffset(), *raw).ok());
    for (int i = 0; i < 3; ++i)
      ASSERT_EQ(Put(store.get(), TestMessage("T", 0, "b")).status, PutStatus::kPutOk);
    WaitDispatched(store.get());
    EXPECT_EQ(store->GetMaxOffsetInQueue("T", 0), 6);
    EXPECT_EQ(store->SkippedRecords(), 1);
    EXPECT_EQ(store->LastSkippedRecordOffset(), bad.fields.physical_offset);
    store->Halt();
  }
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_FALSE(store->recovery_report().last_exit_ok);
  EXPECT_EQ(store->recovery_report().skipped_records, 1);
  EXPECT_EQ(store->GetMaxOffsetInQueue("T", 0), 6);
  EXPECT_EQ(Put(store.get(), TestMessage("T", 0, "c")).queue_offset.value(), 6);
}

TEST_F(MessageStoreTest, SlaveRefusesPutsButAcceptsRawBytes) {
  auto master = OpenStore();
  for (int i = 0; i < 20; ++i) Put(master.get(), TestMessage("T", 0, std::string(3000, 's')));
  config_.store_path_root_dir = "/slave";
  config_.broker_role = "SLAVE";
  auto slave = OpenStore();
  EXPECT_EQ(Put(slave.get(), TestMessage("T", 0, "x")).status, PutStatus::kServiceNotAvailable);
  int64_t offset = 0;
  while (offset < master->MaxPhyOffset()) {
    auto seg = master->ReadRaw(offset, 4000);
    ASSERT_TRUE(seg.ok()) << seg.status().ToString();
    ASSERT_TRUE(slave->AppendRaw(offset, seg->data).ok());
    offset += static_cast<int64_t>(seg->data.size());
  }
  WaitDispatched(slave.get());
  EXPECT_EQ(slave->GetMaxOffsetInQueue("T", 0), 20);
  EXPECT_FALSE(slave->AppendRaw(0, "x").ok());
}

}  // namespace
}  // namespace apogee::store

namespace apogee::store {
namespace {

TEST_F(MessageStoreTest, BatchPutIsReadableInOrder) {
  auto store = OpenStore();
  std::vector<TestMessage> owners;
  for (int i = 0; i < 10; ++i) owners.emplace_back("B", 0, "m" + std::to_string(i), "", "", "U" + std::to_string(i));
  std::vector<message::RecordFields> batch;
  for (auto& m : owners) batch.push_back(m.fields);
  std::promise<PutResult> p;
  store->PutMessages(batch, true, [&](const PutResult& r) { p.set_value(r); });
  PutResult r = p.get_future().get();
  ASSERT_EQ(r.status, PutStatus::kPutOk);
  EXPECT_EQ(r.msg_num, 10);
  WaitDispatched(store.get());
  GetMessageResult g = store->GetMessages("B", 0, 0, 32, 1 << 20);
  ASSERT_EQ(g.messages.size(), 10u);
  EXPECT_EQ(Decode(g.messages[9]).body, "m9");
  EXPECT_EQ(store->QueryMessages("B", "U7", 4, 0, INT64_MAX).messages.size(), 1u);
}

}  // namespace
}  // namespace apogee::store
