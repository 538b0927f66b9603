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

TEST(StoreRetentionTest, FullDiskRefusesWritesKeepsReadsAndCorruptsNothing) {
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
    // Room for the checkpoint, index and queue files and two CommitLog files only.
    fault.SetCapacity(fault.used_bytes() + 2 * config.mapped_file_size_commit_log + 16 * 1024);
    PutStatus last = PutStatus::kPutOk;
    for (int i = 0; i < 200 && last == PutStatus::kPutOk; ++i) {
      TestMessage m("T", 0, std::string(4000, 'f'), "", "", "K" + std::to_string(i));
      PutResult r = store->PutMessage(m.fields).get();
      last = r.status;
      if (r.status == PutStatus::kPutOk) stored.push_back(r);
    }
    EXPECT_EQ(last, PutStatus::kCreateMappedFileFailed);
    EXPECT_GT(stored.size(), 20u);
    // The disk check has flipped: writes are refused with a clear status, reads go on.
    TestMessage more("T", 0, "more");
    EXPECT_EQ(store->PutMessage(more.fields).get().status, PutStatus::kServiceNotAvailable);
    EXPECT_FALSE(store->writable());
    EXPECT_EQ(store->unwritable_reason(), "disk full");
    WaitDispatched(store.get());
    EXPECT_EQ(store->GetMaxOffsetInQueue("T", 0), static_cast<int64_t>(stored.size()));
    EXPECT_EQ(store->GetMessages("T", 0, 0, 4, 1 << 20).status, GetStatus::kFound);
    store->Shutdown();
  }
  fault.SetCapacity(0);
  auto reopened = MessageStore::Open(config, &fault, &clock);
  ASSERT_TRUE(reopened.ok()) << reopened.status().ToString();
  EXPECT_EQ((*reopened)->GetMaxOffsetInQueue("T", 0), static_cast<int64_t>(stored.size()));
  // The failed put ended the second file with a BLANK before the roll failed.
  EXPECT_EQ((*reopened)->MaxPhyOffset(), 2 * config.mapped_file_size_commit_log);
  EXPECT_EQ((*reopened)->QueryMessages("T", "K0", 4, 0, INT64_MAX).messages.size(), 1u);
}

}  // namespace
}  // namespace apogee::store
