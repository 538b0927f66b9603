// Retention (MessageStore::CleanExpiredFiles) and disk-full behaviour.
#include <gtest/gtest.h>

#include <climits>
#include <ctime>

#include "env/fault_injection_env.h"
#include "env/mem_env.h"
#include "message/message_record.h"
#include "store/message_store.h"
#include "store_test_util.h"
#include "testutil/test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;

int LocalHour(int64_t ms) {
  time_t secs = static_cast<time_t>(ms / 1000);
  struct tm local {};
  localtime_r(&secs, &local);
  return local.tm_hour;
}

void WaitDispatched(MessageStore* s) {
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return s->DispatchBehindBytes() <= 0; },
                                         std::chrono::seconds(10)));
}

TEST(StoreRetentionTest, ExpiredFilesGoAtDeleteWhenAndQueuesFollow) {
  auto mem = env::NewMemEnv();
  ManualClock clock;
  StoreConfig config = SmallConfig("/r");
  config.file_reserved_time = 1;
  const int64_t t0 = clock.NowMillis();
  config.delete_when = std::to_string(LocalHour(t0 + 6 * 3600 * 1000));
  auto opened = MessageStore::Open(config, mem.get(), &clock);
  ASSERT_TRUE(opened.ok());
  auto store = std::move(*opened);
  ASSERT_TRUE(store->Start().ok());
  // ~6 KiB records, ten per 64 KiB file: files 0..3. A file was last written when the next
  // one got its first record: file 0 at t0, files 1 and 2 at t0+3h and t0+6h.
  for (int i = 0; i < 40; ++i) {
    TestMessage m("T", 0, std::string(6000, 'r'), "", "", "U" + std::to_string(i));
    ASSERT_EQ(store->PutMessage(m.fields).get().status, PutStatus::kPutOk);
    if (i == 19 || i == 29) clock.Advance(3 * 3600 * 1000);
    if (i == 25) {
      // t0+3h: file 0 has expired, but it is not the deleteWhen hour.
      ASSERT_TRUE(store->CleanExpiredFiles(false).ok());
      EXPECT_EQ(store->MinPhyOffset(), 0);
    }
  }
  WaitDispatched(store.get());
  // t0+6h and the deleteWhen hour: files last written before t0+5h go (files 0 and 1).
  ASSERT_TRUE(store->CleanExpiredFiles(false).ok());
  int64_t file_size = config.mapped_file_size_commit_log;
  EXPECT_EQ(store->MinPhyOffset(), 2 * file_size);
  int64_t min = store->GetMinOffsetInQueue("T", 0);
  EXPECT_EQ(min, 20);
  GetMessageResult g = store->GetMessages("T", 0, 0, 32, 1 << 20);
  EXPECT_EQ(g.status, GetStatus::kOffsetTooSmall);
  EXPECT_EQ(g.next_begin_offset, min);
  GetMessageResult from_min = store->GetMessages("T", 0, min, 1, 1 << 20);
  ASSERT_EQ(from_min.status, GetStatus::kFound);
  EXPECT_EQ(from_min.messages[0].phy_offset, 2 * file_size);
  EXPECT_TRUE(store->QueryMessages("T", "U5", 4, 0, INT64_MAX).messages.empty());
  // Forced cleaning keeps only the newest file.
  ASSERT_TRUE(store->CleanExpiredFiles(true).ok());
  EXPECT_EQ(store->MinPhyOffset(), 3 * file_size);
  EXPECT_TRUE(store->QueryMessages("T", "U39", 4, 0, INT64_MAX).messages.size() == 1);
}

// The DiskGuard refuses writes while every file the store must still create fits: no
// put ever meets a failed file creation, everything acknowledged stays readable, and the
// store reopens on the same full disk.
//
// The guard's answer moves a little with the background threads (the allocator's next
// CommitLog file, ConsumeQueue files that dispatch has yet to create), so a put refused
// now may be admitted a moment later while room remains. The test therefore writes until
// the guard has refused several times in a row and counts every acknowledged message.
namespace {

// Puts 4000-byte messages until `refusals_in_a_row` consecutive refusals; appends every
// acknowledged result to `stored` and returns the reason given with the last refusal.
std::string FillUntilRefused(MessageStore* store, ManualClock* clock, std::vector<PutResult>* stored,
                             int refusals_in_a_row) {
  std::string reason;
  int refused = 0;
  for (int i = 0; i < 400 && refused < refusals_in_a_row; ++i) {
    TestMessage m("T", 0, std::string(4000, 'f'), "", "",
                  "K" + std::to_string(stored->size()));
    PutResult r = store->PutMessage(m.fields).get();
    if (r.status == PutStatus::kPutOk) {
      stored->push_back(r);
      refused = 0;
    } else {
      EXPECT_EQ(r.status, PutStatus::kServiceNotAvailable);
      ++refused;
      if (!store->unwritable_reason().empty()) reason = store->unwritable_reason();
    }
    WaitDispatched(store);
    clock->Advance(200);  // the guard re-reads the free space
  }
  EXPECT_EQ(refused, refusals_in_a_row) << "the guard never settled on refusing";
  return reason;
}

}  // namespace

TEST(StoreRetentionTest, FullDiskRefusesWritesBeforeAFileCreationCanFail) {
  auto mem = env::NewMemEnv();
  env::FaultInjectionEnv fault(mem.get());
  ManualClock clock;
  StoreConfig config = SmallConfig("/d");
  config.clean_file_forcibly_enable = false;  // keep the data: we check it survives
  config.delete_when = "";
  std::vector<PutResult> stored;
  {
    auto opened = MessageStore::Open(config, &fault, &clock);
    ASSERT_TRUE(opened.ok());
    auto store = std::move(*opened);
    ASSERT_TRUE(store->Start().ok());
    // A first message, dispatched, so the CommitLog, ConsumeQueue and IndexFile files exist
    // before the capacity is measured (they are created on demand, by the put and by the
    // dispatch thread: measuring earlier made the room left depend on that thread).
    TestMessage first("T", 0, std::string(4000, 'f'), "", "", "K0");
    PutResult first_result = store->PutMessage(first.fields).get();
    ASSERT_EQ(first_result.status, PutStatus::kPutOk);
    stored.push_back(first_result);
    WaitDispatched(store.get());
    // Room for about three more CommitLog files.
    fault.SetCapacity(fault.used_bytes() + 3 * config.mapped_file_size_commit_log + 16 * 1024);
    clock.Advance(1000);
    std::string reason = FillUntilRefused(store.get(), &clock, &stored, 3);
    EXPECT_GT(stored.size(), 10u);
    EXPECT_NE(reason.find("disk full"), std::string::npos) << reason;
    EXPECT_EQ(store->GetMaxOffsetInQueue("T", 0), static_cast<int64_t>(stored.size()));
    EXPECT_EQ(store->GetMessages("T", 0, 0, 4, 1 << 20).status, GetStatus::kFound);
    store->Shutdown();
  }
  // Restart on the full disk: it opens, serves every acknowledged message, refuses writes.
  {
    auto reopened = MessageStore::Open(config, &fault, &clock);
    ASSERT_TRUE(reopened.ok()) << reopened.status().ToString();
    auto store = std::move(*reopened);
    ASSERT_TRUE(store->Start().ok());
    EXPECT_EQ(store->GetMaxOffsetInQueue("T", 0), static_cast<int64_t>(stored.size()));
    EXPECT_EQ(store->QueryMessages("T", "K0", 4, 0, INT64_MAX).messages.size(), 1u);
    FillUntilRefused(store.get(), &clock, &stored, 2);
    EXPECT_EQ(store->GetMaxOffsetInQueue("T", 0), static_cast<int64_t>(stored.size()));
    // Space comes back: writes resume at the next look at the disk.
    fault.SetCapacity(0);
    clock.Advance(1000);
    TestMessage more("T", 0, "more");
    EXPECT_EQ(store->PutMessage(more.fields).get().status, PutStatus::kPutOk);
    store->Shutdown();
  }
}

// Each first message of a queue starts a ConsumeQueue file; a flood of them to new queues
// is refused once the files they would need do not fit, before dispatch could fail.
TEST(StoreRetentionTest, NewQueuesAreRefusedWhenTheirConsumeQueueFilesWouldNotFit) {
  auto mem = env::NewMemEnv();
  env::FaultInjectionEnv fault(mem.get());
  ManualClock clock;
  StoreConfig config = SmallConfig("/q");
  config.mapped_file_size_consume_queue = 20 * 1000;  // 20 KB per queue
  auto opened = MessageStore::Open(config, &fault, &clock);
  ASSERT_TRUE(opened.ok());
  auto store = std::move(*opened);
  ASSERT_TRUE(store->Start().ok());
  fault.SetCapacity(fault.used_bytes() + 2 * config.mapped_file_size_commit_log + 40 * 20000);
  clock.Advance(1000);
  int accepted = 0;
  PutStatus last = PutStatus::kPutOk;
  for (int q = 0; q < 100 && last == PutStatus::kPutOk; ++q) {
    TestMessage m("Q" + std::to_string(q), 0, "x");
    last = store->PutMessage(m.fields).get().status;
    if (last == PutStatus::kPutOk) ++accepted;
  }
  EXPECT_EQ(last, PutStatus::kServiceNotAvailable);
  EXPECT_GT(accepted, 5);
  EXPECT_LT(accepted, 50);
  WaitDispatched(store.get());
  for (int q = 0; q < accepted; ++q) {
    EXPECT_EQ(store->GetMaxOffsetInQueue("Q" + std::to_string(q), 0), 1) << q;
  }
}

// A nearly full disk deletes expired files only: young, unread messages stay, unless
// cleanUnexpiredFileForciblyEnable restores Java's way.
TEST(StoreRetentionTest, ForcedCleanKeepsFilesYoungerThanFileReservedTime) {
  for (bool java_way : {false, true}) {
    auto mem = env::NewMemEnv();
    env::FaultInjectionEnv fault(mem.get());
    ManualClock clock;
    StoreConfig config = SmallConfig("/f");
    config.delete_when = "";
    config.disk_space_clean_forcibly_ratio = 10;
    config.disk_max_used_space_ratio = 95;
    config.clean_unexpired_file_forcibly_enable = java_way;
    auto opened = MessageStore::Open(config, &fault, &clock);
    ASSERT_TRUE(opened.ok());
    auto store = std::move(*opened);
    ASSERT_TRUE(store->Start().ok());
    for (int i = 0; i < 40; ++i) {
      TestMessage m("T", 0, std::string(6000, 'y'));
      ASSERT_EQ(store->PutMessage(m.fields).get().status, PutStatus::kPutOk);
    }
    WaitDispatched(store.get());
    fault.SetCapacity(fault.used_bytes() * 100 / 50);  // 50% used: above the forced ratio
    ASSERT_TRUE(store->CleanExpiredFiles(false).ok());
    if (java_way) {
      EXPECT_GT(store->MinPhyOffset(), 0);
    } else {
      EXPECT_EQ(store->MinPhyOffset(), 0);
      EXPECT_EQ(store->GetMinOffsetInQueue("T", 0), 0);
    }
  }
}

}  // namespace
}  // namespace apogee::store
