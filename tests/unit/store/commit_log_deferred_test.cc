// CommitLog::WriteMode::kWithNextFlush: SYNC_FLUSH records left for the next flush to write
// with one pwrite (commit_log.h); and ASYNC_FLUSH records put inside a wake-up batch, left for
// the batch's end. What a user relies on: offsets are assigned at the put,
// nothing is readable before it is written, records are written in put order whoever writes
// them, a file roll and a put written now keep that order, and a failed write of deferred
// records stops the log instead of publishing a hole.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "base/wakeup_batch.h"
#include "env/fault_injection_env.h"
#include "env/mem_env.h"
#include "message/message_format.h"
#include "store/commit_log.h"
#include "store_test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;
using WriteMode = CommitLog::WriteMode;

class CommitLogDeferredTest : public ::testing::Test {
 protected:
  std::unique_ptr<CommitLog> Open(env::Env* env, const std::string& flush = "SYNC_FLUSH",
                                  bool async_through_file = true) {
    StoreConfig config = SmallConfig("/store");
    config.flush_disk_type = flush;
    config.write_commit_log_through_file_on_async_flush = async_through_file;
    auto cl = std::make_unique<CommitLog>(env, config, &clock_, nullptr);
    EXPECT_TRUE(cl->Load().ok());
    return cl;
  }
  // Bodies of every message from offset 0 to the end, in log order (BLANKs skipped).
  static std::vector<std::string> Bodies(const CommitLog& cl) {
    std::vector<std::string> out;
    int64_t offset = 0;
    while (offset < cl.MaxOffset()) {
      auto d = cl.DecodeAt(offset, true, nullptr);
      if (d.status == message::RecordStatus::kBlank) {
        offset = cl.RollNextFile(offset);
        continue;
      }
      EXPECT_EQ(d.status, message::RecordStatus::kMessage) << d.reason << " at " << offset;
      if (d.status != message::RecordStatus::kMessage) break;
      out.emplace_back(d.record.body);
      offset += static_cast<int64_t>(d.size);
    }
    return out;
  }

  // Both logs hold the same bytes from offset 0 to their (equal) ends.
  static void ExpectSameLog(const CommitLog& a, const CommitLog& b) {
    ASSERT_EQ(a.MaxOffset(), b.MaxOffset());
    auto x = a.GetRecord(0, static_cast<int32_t>(a.MaxOffset()));
    auto y = b.GetRecord(0, static_cast<int32_t>(b.MaxOffset()));
    ASSERT_TRUE(x.ok() && y.ok());
    EXPECT_EQ(x->view(), y->view());
  }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  ManualClock clock_;
};

TEST_F(CommitLogDeferredTest, OffsetsAtThePutRecordsReadableOnceWritten) {
  auto cl = Open(env_.get());
  TestMessage a("T", 0, "a"), b("T", 0, "b");
  PutResult ra = cl->Append(a.fields, WriteMode::kWithNextFlush);
  PutResult rb = cl->Append(b.fields, WriteMode::kWithNextFlush);
  ASSERT_EQ(ra.status, PutStatus::kPutOk);
  ASSERT_EQ(rb.status, PutStatus::kPutOk);
  EXPECT_EQ(ra.wrote_offset.value(), 0);
  EXPECT_EQ(rb.wrote_offset.value(), ra.wrote_bytes);
  EXPECT_EQ(rb.queue_offset.value(), 1);
  EXPECT_EQ(cl->GetQueueOffset("T", 0), 2);
  // Not written yet: nothing is readable and nothing can be flushed.
  EXPECT_EQ(cl->MaxOffset(), 0);
  EXPECT_EQ(cl->DeferredBytes(), ra.wrote_bytes + rb.wrote_bytes);
  EXPECT_EQ(cl->DecodeAt(0, true, nullptr).status, message::RecordStatus::kEndOfData);

  ASSERT_TRUE(cl->WriteDeferred().ok());
  EXPECT_EQ(cl->DeferredBytes(), 0);
  EXPECT_EQ(cl->MaxOffset(), rb.wrote_offset.value() + rb.wrote_bytes);
  EXPECT_EQ(Bodies(*cl), (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(cl->WriteDeferred().ok());  // nothing left: a no-op
  ASSERT_TRUE(cl->Flush(0).ok());
  EXPECT_EQ(cl->FlushedOffset(), cl->MaxOffset());
}

TEST_F(CommitLogDeferredTest, SameBytesAsAPutWrittenNow) {
  auto deferred_env = env::NewMemEnv();
  auto now = Open(env_.get());
  auto deferred = Open(deferred_env.get());
  TestMessage m("T", 3, "payload", "TagA");
  ASSERT_EQ(now->Append(m.fields).status, PutStatus::kPutOk);
  ASSERT_EQ(deferred->Append(m.fields, WriteMode::kWithNextFlush).status, PutStatus::kPutOk);
  ASSERT_TRUE(deferred->WriteDeferred().ok());
  ExpectSameLog(*now, *deferred);
}

TEST_F(CommitLogDeferredTest, AsyncFlushWritesAtOnce) {
  auto cl = Open(env_.get(), "ASYNC_FLUSH");
  TestMessage m("T", 0, "x");
  PutResult r = cl->Append(m.fields, WriteMode::kWithNextFlush);
  ASSERT_EQ(r.status, PutStatus::kPutOk);
  EXPECT_EQ(cl->MaxOffset(), r.wrote_bytes);
  EXPECT_EQ(cl->DeferredBytes(), 0);
}

// ASYNC_FLUSH on the IO thread: the puts of one read are written together when its wake-up
// batch ends, before the batch's owner sends their answers; nothing is readable before.
TEST_F(CommitLogDeferredTest, AsyncFlushPutsInsideABatchAreWrittenAtItsEnd) {
  auto cl = Open(env_.get(), "ASYNC_FLUSH");
  TestMessage a("T", 0, "a"), b("T", 1, "b"), c("T", 0, "c");
  std::vector<message::RecordFields> batch{b.fields, b.fields};
  int64_t end = 0;
  {
    ScopedWakeupBatch wakeups;
    PutResult ra = cl->Append(a.fields);
    PutResult rb = cl->AppendBatch(batch);
    PutResult rc = cl->Append(c.fields);
    ASSERT_EQ(ra.status, PutStatus::kPutOk);
    ASSERT_EQ(rb.status, PutStatus::kPutOk);
    ASSERT_EQ(rc.status, PutStatus::kPutOk);
    EXPECT_EQ(rc.queue_offset.value(), 1);
    end = rc.wrote_offset.value() + rc.wrote_bytes;
    EXPECT_EQ(cl->MaxOffset(), 0);
    EXPECT_EQ(cl->DeferredBytes(), end);
    EXPECT_TRUE(wakeups.Finish());
    EXPECT_EQ(cl->DeferredBytes(), 0);
    EXPECT_EQ(cl->MaxOffset(), end);
  }
  EXPECT_EQ(Bodies(*cl), (std::vector<std::string>{"a", "b", "b", "c"}));
  // Outside a batch (a pool thread, a timer): written at once.
  PutResult rd = cl->Append(a.fields);
  ASSERT_EQ(rd.status, PutStatus::kPutOk);
  EXPECT_EQ(cl->MaxOffset(), rd.wrote_offset.value() + rd.wrote_bytes);
}

// The same bytes whether written by the batch's end or stored into the mapping.
TEST_F(CommitLogDeferredTest, AsyncFlushBatchWritesTheBytesTheMappingWould) {
  auto mapped_env = env::NewMemEnv();
  auto through_file = Open(env_.get(), "ASYNC_FLUSH");
  auto mapped = Open(mapped_env.get(), "ASYNC_FLUSH", /*async_through_file=*/false);
  TestMessage m("T", 3, "payload", "TagA");
  {
    ScopedWakeupBatch wakeups;
    ASSERT_EQ(through_file->Append(m.fields).status, PutStatus::kPutOk);
    ASSERT_EQ(mapped->Append(m.fields).status, PutStatus::kPutOk);
    EXPECT_EQ(mapped->MaxOffset(), through_file->DeferredBytes());  // stored at once
    ASSERT_TRUE(wakeups.Finish());
  }
  ExpectSameLog(*through_file, *mapped);
}

// A failed write at the batch's end fails the batch (its owner withholds the answers), publishes
// nothing, and refuses every later put.
TEST_F(CommitLogDeferredTest, AsyncFlushFailedBatchWriteFailsTheBatchAndStopsTheLog) {
  env::FaultInjectionEnv faults(env_.get());
  auto cl = Open(&faults, "ASYNC_FLUSH");
  TestMessage a("T", 0, "a");
  ASSERT_EQ(cl->Append(a.fields).status, PutStatus::kPutOk);
  const int64_t end = cl->MaxOffset();
  {
    ScopedWakeupBatch wakeups;
    ASSERT_EQ(cl->Append(a.fields).status, PutStatus::kPutOk);
    faults.FailNext(env::FaultPoint::kWrite, 1);
    EXPECT_FALSE(wakeups.Finish());
  }
  faults.ClearFault(env::FaultPoint::kWrite);
  EXPECT_EQ(cl->MaxOffset(), end);
  EXPECT_EQ(cl->Append(a.fields).status, PutStatus::kUnknownError);
  {
    ScopedWakeupBatch wakeups;
    EXPECT_EQ(cl->Append(a.fields).status, PutStatus::kUnknownError);
    EXPECT_FALSE(wakeups.Finish());  // sticky: a later batch is failed too
  }
  EXPECT_EQ(Bodies(*cl), (std::vector<std::string>{"a"}));
}

TEST_F(CommitLogDeferredTest, APutWrittenNowWritesTheDeferredOnesFirst) {
  auto cl = Open(env_.get());
  TestMessage a("T", 0, "a"), b("T", 0, "b"), c("T", 0, "c");
  ASSERT_EQ(cl->Append(a.fields, WriteMode::kWithNextFlush).status, PutStatus::kPutOk);
  std::vector<message::RecordFields> batch{b.fields, b.fields};
  ASSERT_EQ(cl->AppendBatch(batch, WriteMode::kWithNextFlush).status, PutStatus::kPutOk);
  PutResult rc = cl->Append(c.fields);  // written now
  ASSERT_EQ(rc.status, PutStatus::kPutOk);
  EXPECT_EQ(rc.queue_offset.value(), 3);
  EXPECT_EQ(cl->DeferredBytes(), 0);
  EXPECT_EQ(cl->MaxOffset(), rc.wrote_offset.value() + rc.wrote_bytes);
  EXPECT_EQ(Bodies(*cl), (std::vector<std::string>{"a", "b", "b", "c"}));
}

TEST_F(CommitLogDeferredTest, AFileRollWritesTheDeferredRecordsBeforeTheBlank) {
  auto cl = Open(env_.get());  // 64 KiB files
  std::vector<std::string> expected;
  int64_t first_file_end = 0;
  for (int i = 0; i < 20; ++i) {
    std::string body = std::to_string(i) + std::string(5000, 'x');
    TestMessage m("T", 0, body);
    PutResult r = cl->Append(m.fields, WriteMode::kWithNextFlush);
    ASSERT_EQ(r.status, PutStatus::kPutOk) << i;
    EXPECT_EQ(r.queue_offset.value(), i);
    if (r.wrote_offset.value() < 64 * 1024) first_file_end = r.wrote_offset.value() + r.wrote_bytes;
    expected.push_back(body);
  }
  // The roll wrote the first file (its records and the BLANK); the second file's records wait.
  EXPECT_EQ(cl->MaxOffset(), 64 * 1024);
  EXPECT_GT(cl->DeferredBytes(), 0);
  auto blank = cl->DecodeAt(first_file_end, true, nullptr);
  EXPECT_EQ(blank.status, message::RecordStatus::kBlank);
  ASSERT_TRUE(cl->WriteDeferred().ok());
  EXPECT_EQ(Bodies(*cl), expected);
}

TEST_F(CommitLogDeferredTest, TooManyDeferredBytesAreWrittenByThePut) {
  StoreConfig config = SmallConfig("/big");
  config.flush_disk_type = "SYNC_FLUSH";
  config.mapped_file_size_commit_log = 16 << 20;
  CommitLog cl(env_.get(), config, &clock_, nullptr);
  ASSERT_TRUE(cl.Load().ok());
  TestMessage m("T", 0, std::string(64 << 10, 'y'));
  int64_t most = 0;
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(cl.Append(m.fields, WriteMode::kWithNextFlush).status, PutStatus::kPutOk);
    most = std::max(most, cl.DeferredBytes());
  }
  EXPECT_LE(most, CommitLog::kMaxDeferredBytes + (65 << 10));
  EXPECT_GT(cl.MaxOffset(), 0);  // written by puts, no flush asked
  ASSERT_TRUE(cl.WriteDeferred().ok());
  EXPECT_EQ(Bodies(cl).size(), 100u);
}

TEST_F(CommitLogDeferredTest, AFailedDeferredWriteStopsTheLog) {
  env::FaultInjectionEnv faults(env_.get());
  auto cl = Open(&faults);
  TestMessage a("T", 0, "a");
  ASSERT_EQ(cl->Append(a.fields).status, PutStatus::kPutOk);
  const int64_t end = cl->MaxOffset();
  ASSERT_EQ(cl->Append(a.fields, WriteMode::kWithNextFlush).status, PutStatus::kPutOk);
  faults.FailNext(env::FaultPoint::kWrite, 1);
  Status s = cl->WriteDeferred();
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(cl->MaxOffset(), end);  // nothing of the failed chunk is published
  faults.ClearFault(env::FaultPoint::kWrite);
  // Sticky: the lost record's queue offset was handed out, so no later put may follow it.
  EXPECT_FALSE(cl->WriteDeferred().ok());
  EXPECT_EQ(cl->Append(a.fields).status, PutStatus::kUnknownError);
  EXPECT_EQ(cl->Append(a.fields, WriteMode::kWithNextFlush).status, PutStatus::kUnknownError);
  EXPECT_EQ(cl->MaxOffset(), end);
  EXPECT_EQ(Bodies(*cl), (std::vector<std::string>{"a"}));
}

// Puts from two threads (deferred and written now, across file rolls) while a third writes the
// deferred records in a loop, as the group commit does: every record lands once, each
// thread's in its put order, and each queue's offsets match the log order.
TEST_F(CommitLogDeferredTest, ConcurrentPutsAndWritersKeepTheLogInPutOrder) {
  auto cl = Open(env_.get());
  constexpr int kPerThread = 400;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    while (!done.load()) ASSERT_TRUE(cl->WriteDeferred().ok());
  });
  auto put = [&](int thread) {
    for (int i = 0; i < kPerThread; ++i) {
      TestMessage m("T", thread,
                    std::to_string(thread) + ":" + std::to_string(i) +
                        std::string(static_cast<size_t>(i % 7) * 300, 'z'));
      const WriteMode mode = i % 5 == 0 ? WriteMode::kNow : WriteMode::kWithNextFlush;
      ASSERT_EQ(cl->Append(m.fields, mode).status, PutStatus::kPutOk);
    }
  };
  std::thread t0(put, 0), t1(put, 1);
  t0.join();
  t1.join();
  done = true;
  writer.join();
  ASSERT_TRUE(cl->WriteDeferred().ok());
  std::vector<int> next(2, 0);
  int64_t offset = 0;
  int seen = 0;
  while (offset < cl->MaxOffset()) {
    auto d = cl->DecodeAt(offset, true, nullptr);
    if (d.status == message::RecordStatus::kBlank) {
      offset = cl->RollNextFile(offset);
      continue;
    }
    ASSERT_EQ(d.status, message::RecordStatus::kMessage) << d.reason;
    const int thread = d.record.queue_id;
    const std::string body(d.record.body);
    EXPECT_EQ(body.substr(0, body.find('z')),  // npos: the whole body
              std::to_string(thread) + ":" + std::to_string(next[thread]));
    EXPECT_EQ(d.record.queue_offset, next[thread]);
    ++next[thread];
    ++seen;
    offset += static_cast<int64_t>(d.size);
  }
  EXPECT_EQ(seen, 2 * kPerThread);
}

}  // namespace
}  // namespace apogee::store
