#include "store/commit_log.h"

#include <gtest/gtest.h>

#include <cstring>

#include "base/crc32.h"
#include "env/fault_injection_env.h"
#include "env/mem_env.h"
#include "message/message_format.h"
#include "store_test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;

class CommitLogTest : public ::testing::Test {
 protected:
  std::unique_ptr<CommitLog> Open() {
    auto cl = std::make_unique<CommitLog>(env_.get(), config_, &clock_, nullptr);
    EXPECT_TRUE(cl->Load().ok());
    return cl;
  }
  message::RecordDecodeResult Decode(const CommitLog& cl, int64_t offset) {
    return cl.DecodeAt(offset, true, nullptr);
  }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  StoreConfig config_ = SmallConfig("/store");
  ManualClock clock_;
};

TEST_F(CommitLogTest, AppendAssignsOffsetsAndEncodesInPlace) {
  auto cl = Open();
  TestMessage a("T", 0, "body-a", "TagA");
  TestMessage b("T", 1, "body-b");
  PutResult r0 = cl->Append(a.fields);
  clock_.Advance(5);
  PutResult r1 = cl->Append(b.fields);
  PutResult r2 = cl->Append(a.fields);
  ASSERT_EQ(r0.status, PutStatus::kPutOk);
  EXPECT_EQ(r0.wrote_offset.value(), 0);
  EXPECT_EQ(r1.wrote_offset.value(), r0.wrote_bytes);
  EXPECT_EQ(r0.queue_offset.value(), 0);
  EXPECT_EQ(r1.queue_offset.value(), 0);  // another queue
  EXPECT_EQ(r2.queue_offset.value(), 1);
  EXPECT_EQ(cl->MaxOffset(), r2.wrote_offset.value() + r2.wrote_bytes);
  EXPECT_EQ(cl->GetQueueOffset("T", 0), 2);

  auto d = Decode(*cl, r1.wrote_offset.value());
  ASSERT_EQ(d.status, message::RecordStatus::kMessage) << d.reason;
  EXPECT_EQ(d.record.physical_offset, r1.wrote_offset.value());
  EXPECT_EQ(d.record.queue_id, 1);
  EXPECT_EQ(d.record.store_timestamp, clock_.NowMillis());
  EXPECT_EQ(d.record.body, "body-b");
  EXPECT_EQ(static_cast<uint32_t>(d.record.body_crc), Crc32Masked("body-b"));
}

TEST_F(CommitLogTest, PreparedAndRollbackDoNotTakeQueueOffsets) {
  auto cl = Open();
  TestMessage m("T", 0, "x");
  m.fields.sys_flag = message::kTransactionPreparedType;
  EXPECT_EQ(cl->Append(m.fields).queue_offset.value(), 0);
  EXPECT_EQ(cl->Append(m.fields).queue_offset.value(), 0);
  m.fields.sys_flag = message::kTransactionCommitType;
  EXPECT_EQ(cl->Append(m.fields).queue_offset.value(), 0);
  EXPECT_EQ(cl->Append(m.fields).queue_offset.value(), 1);
}

TEST_F(CommitLogTest, SizeLimits) {
  config_.max_message_size = 100;
  auto cl = Open();
  TestMessage big("T", 0, std::string(101, 'x'));
  EXPECT_EQ(cl->Append(big.fields).status, PutStatus::kMessageIllegal);
  TestMessage props("T", 0, "x");
  props.properties = std::string(40000, 'p');
  props.Rebind();
  EXPECT_EQ(cl->Append(props.fields).status, PutStatus::kPropertiesSizeExceeded);
  TestMessage topic(std::string(128, 't'), 0, "x");
  EXPECT_EQ(cl->Append(topic.fields).status, PutStatus::kMessageIllegal);
  TestMessage ok("T", 0, std::string(100, 'x'));
  EXPECT_EQ(cl->Append(ok.fields).status, PutStatus::kPutOk);
  // Refused puts wrote nothing: the second record follows the first directly.
  int64_t end = cl->MaxOffset();
  EXPECT_EQ(cl->Append(ok.fields).wrote_offset.value(), end);
}

TEST_F(CommitLogTest, BlankFillerEndsAFileAndRecordsNeverSplit) {
  auto cl = Open();
  TestMessage m("T", 0, std::string(1000, 'b'));
  int64_t file_size = config_.mapped_file_size_commit_log;
  PutResult last;
  int n = 0;
  do {
    last = cl->Append(m.fields);
    ASSERT_EQ(last.status, PutStatus::kPutOk);
    ++n;
  } while (last.wrote_offset.value() < file_size);
  EXPECT_EQ(last.wrote_offset.value(), file_size);  // first record of the second file
  EXPECT_EQ(last.queue_offset.value(), n - 1);
  // The BLANK sits right after the last record of the first file.
  int64_t blank_at = (n - 1) * static_cast<int64_t>(last.wrote_bytes);
  auto d = Decode(*cl, blank_at);
  EXPECT_EQ(d.status, message::RecordStatus::kBlank);
  EXPECT_EQ(static_cast<int64_t>(d.size), file_size - blank_at);
  EXPECT_EQ(cl->RollNextFile(blank_at), file_size);
  EXPECT_EQ(cl->files().file_count(), 2u);
}

TEST_F(CommitLogTest, RecoverFindsEndAndCutsTornTail) {
  std::vector<PutResult> puts;
  {
    auto cl = Open();
    TestMessage m("T", 0, std::string(3000, 'r'));
    for (int i = 0; i < 40; ++i) puts.push_back(cl->Append(m.fields));
    // Tear the last record: zero its second half.
    PutResult& torn = puts.back();
    auto file = cl->files().FindFileByOffset(torn.wrote_offset.value());
    int64_t pos = torn.wrote_offset.value() - file->start_offset();
    std::memset(file->data() + pos + torn.wrote_bytes / 2, 0, torn.wrote_bytes / 2);
  }
  auto cl = Open();
  int records = 0;
  auto scan = cl->Recover(0, [&](const message::RecordView&, int64_t) {
    ++records;
    return Status::OK();
  });
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  EXPECT_EQ(records, 39);
  EXPECT_EQ(scan->end_offset, puts.back().wrote_offset.value());
  EXPECT_EQ(cl->MaxOffset(), puts.back().wrote_offset.value());
  EXPECT_NE(scan->stop_reason.find("offset"), std::string::npos);
  // The torn record's bytes are zeroed on disk: a reader (mqstore verify) finds the end of
  // the log there, not half a record.
  {
    auto file = cl->files().FindFileByOffset(scan->end_offset);
    const int64_t pos = scan->end_offset - file->start_offset();
    for (int64_t i = pos; i < pos + puts.back().wrote_bytes; ++i) {
      ASSERT_EQ(file->data()[i], 0) << "byte " << i;
    }
    EXPECT_EQ(Decode(*cl, scan->end_offset).status, message::RecordStatus::kEndOfData);
  }
  // Appending continues exactly at the cut.
  TestMessage m("T", 0, "after");
  cl->SetQueueOffset("T", 0, 39);
  PutResult r = cl->Append(m.fields);
  EXPECT_EQ(r.wrote_offset.value(), puts.back().wrote_offset.value());
  EXPECT_EQ(r.queue_offset.value(), 39);
}

TEST_F(CommitLogTest, RecoverDetectsBodyCrcMismatch) {
  PutResult second;
  {
    auto cl = Open();
    TestMessage m("T", 0, "payload");
    cl->Append(m.fields);
    second = cl->Append(m.fields);
    cl->Append(m.fields);
    auto file = cl->files().FindFileByOffset(second.wrote_offset.value());
    file->data()[second.wrote_offset.value() + 88] ^= 0xFF;  // first body byte
  }
  auto cl = Open();
  auto scan = cl->Recover(0, [](const message::RecordView&, int64_t) { return Status::OK(); });
  ASSERT_TRUE(scan.ok());
  EXPECT_EQ(scan->records, 1);
  EXPECT_EQ(scan->end_offset, second.wrote_offset.value());
}

TEST_F(CommitLogTest, RecoveryStartFiles) {
  std::vector<PutResult> puts;
  auto cl = Open();
  TestMessage m("T", 0, std::string(10000, 'r'));
  for (int i = 0; i < 20; ++i) {
    clock_.Advance(1000);
    puts.push_back(cl->Append(m.fields));
  }
  int64_t fs = config_.mapped_file_size_commit_log;
  EXPECT_EQ(cl->NormalRecoveryStart(fs + 5), fs);
  EXPECT_EQ(cl->NormalRecoveryStart(-1), 0);
  // Files start with records stored at t0+1s, t0+7s, t0+13s, t0+19s (6 records per file).
  int64_t t0 = clock_.NowMillis() - 20000;
  EXPECT_EQ(cl->AbnormalRecoveryStart(t0 + 8000), fs);
  EXPECT_EQ(cl->AbnormalRecoveryStart(t0 + 100000), 3 * fs);
  EXPECT_EQ(cl->AbnormalRecoveryStart(0), 0);
}

TEST_F(CommitLogTest, RawAppendAndRead) {
  auto master = Open();
  TestMessage m("T", 0, std::string(5000, 'h'));
  for (int i = 0; i < 30; ++i) master->Append(m.fields);
  config_.store_path_root_dir = "/slave";
  auto slave = Open();
  int64_t offset = 0;
  while (offset < master->MaxOffset()) {
    auto data = master->GetData(offset);
    ASSERT_TRUE(data.ok());
    size_t n = std::min<size_t>(data->size, 7000);
    ASSERT_TRUE(slave->AppendRaw(offset, data->view().substr(0, n)).ok());
    offset += static_cast<int64_t>(n);
  }
  EXPECT_EQ(slave->MaxOffset(), master->MaxOffset());
  EXPECT_FALSE(slave->AppendRaw(5, "x").ok());
  // The slave's bytes decode like the master's, BLANK fillers included.
  auto blank_master = master->GetData(0);
  auto blank_slave = slave->GetData(0);
  ASSERT_TRUE(blank_master.ok() && blank_slave.ok());
  EXPECT_EQ(blank_master->view(), blank_slave->view());
  auto first = Decode(*slave, config_.mapped_file_size_commit_log);
  EXPECT_EQ(first.status, message::RecordStatus::kMessage);
}

TEST_F(CommitLogTest, DeleteExpiredFilesKeepsTheNewest) {
  auto cl = Open();
  TestMessage m("T", 0, std::string(20000, 'e'));
  for (int i = 0; i < 9; ++i) {  // 3 records per file -> 3 files
    clock_.Advance(3600 * 1000);
    cl->Append(m.fields);
  }
  ASSERT_EQ(cl->files().file_count(), 3u);
  auto none = cl->DeleteExpiredFiles(0, 10, false);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, 0);
  auto one = cl->DeleteExpiredFiles(clock_.NowMillis() - 4 * 3600 * 1000, 10, false);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, 1);
  EXPECT_EQ(cl->MinOffset(), config_.mapped_file_size_commit_log);
  auto forced = cl->DeleteExpiredFiles(0, 10, true);
  ASSERT_TRUE(forced.ok());
  EXPECT_EQ(*forced, 1);
  EXPECT_EQ(cl->files().file_count(), 1u);
}

}  // namespace
}  // namespace apogee::store

namespace apogee::store {
namespace {

TEST_F(CommitLogTest, BatchIsOneUnitWithConsecutiveOffsets) {
  auto cl = Open();
  TestMessage first("T", 2, "single");
  cl->Append(first.fields);
  std::vector<TestMessage> owners;
  for (int i = 0; i < 5; ++i) owners.emplace_back("T", 2, "b" + std::to_string(i));
  std::vector<message::RecordFields> batch;
  for (auto& m : owners) batch.push_back(m.fields);
  PutResult r = cl->AppendBatch(batch);
  ASSERT_EQ(r.status, PutStatus::kPutOk);
  EXPECT_EQ(r.msg_num, 5);
  EXPECT_EQ(r.queue_offset.value(), 1);
  EXPECT_EQ(cl->GetQueueOffset("T", 2), 6);
  int64_t offset = r.wrote_offset.value();
  for (int i = 0; i < 5; ++i) {
    auto d = Decode(*cl, offset);
    ASSERT_EQ(d.status, message::RecordStatus::kMessage);
    EXPECT_EQ(d.record.queue_offset, 1 + i);
    EXPECT_EQ(d.record.body, "b" + std::to_string(i));
    offset += static_cast<int64_t>(d.size);
  }
  EXPECT_EQ(offset, r.wrote_offset.value() + r.wrote_bytes);
  // Mixed queues and oversized batches are refused whole.
  batch[3].queue_id = 1;
  EXPECT_EQ(cl->AppendBatch(batch).status, PutStatus::kMessageIllegal);
  EXPECT_EQ(cl->MaxOffset(), offset);
}

// SYNC_FLUSH writes records with pwrite (RandomRWFile::Write), ASYNC_FLUSH stores them into
// the mapping: a failing write refuses a SYNC_FLUSH put or batch and publishes nothing, the
// next put lands in the same place, and both paths store the same bytes.
TEST_F(CommitLogTest, SyncFlushWritesRecordsThroughTheFileAndAFailedWritePublishesNothing) {
  env::FaultInjectionEnv faults(env_.get());
  StoreConfig sync_config = SmallConfig("/sync");
  sync_config.flush_disk_type = "SYNC_FLUSH";
  CommitLog sync_log(&faults, sync_config, &clock_, nullptr);
  ASSERT_TRUE(sync_log.Load().ok());
  StoreConfig async_config = SmallConfig("/async");
  async_config.write_commit_log_through_file_on_async_flush = false;  // stores into the mapping
  CommitLog async_log(&faults, async_config, &clock_, nullptr);
  ASSERT_TRUE(async_log.Load().ok());

  TestMessage first("T", 0, "first", "TagA");
  ASSERT_EQ(sync_log.Append(first.fields).status, PutStatus::kPutOk);
  ASSERT_EQ(async_log.Append(first.fields).status, PutStatus::kPutOk);
  const int64_t end = sync_log.MaxOffset();
  ASSERT_EQ(async_log.MaxOffset(), end);

  TestMessage lost("T", 0, "lost");
  faults.FailNext(env::FaultPoint::kWrite, 1);
  EXPECT_EQ(sync_log.Append(lost.fields).status, PutStatus::kUnknownError);
  EXPECT_EQ(sync_log.MaxOffset(), end);
  EXPECT_EQ(sync_log.GetQueueOffset("T", 0), 1);
  std::vector<TestMessage> owners;
  for (int i = 0; i < 3; ++i) owners.emplace_back("T", 0, "b" + std::to_string(i));
  std::vector<message::RecordFields> batch;
  for (auto& m : owners) batch.push_back(m.fields);
  faults.FailNext(env::FaultPoint::kWrite, 1);
  EXPECT_EQ(sync_log.AppendBatch(batch).status, PutStatus::kUnknownError);
  EXPECT_EQ(sync_log.MaxOffset(), end);
  EXPECT_EQ(sync_log.GetQueueOffset("T", 0), 1);
  // The mapping path never calls Write: the same armed failure does not touch it.
  faults.FailNext(env::FaultPoint::kWrite, 1);
  EXPECT_EQ(async_log.Append(lost.fields).status, PutStatus::kPutOk);
  faults.ClearFault(env::FaultPoint::kWrite);

  TestMessage second("T", 0, "second");
  PutResult put = sync_log.Append(second.fields);
  ASSERT_EQ(put.status, PutStatus::kPutOk);
  EXPECT_EQ(put.wrote_offset.value(), end);
  EXPECT_EQ(put.queue_offset.value(), 1);
  PutResult batched = sync_log.AppendBatch(batch);
  ASSERT_EQ(batched.status, PutStatus::kPutOk);
  EXPECT_EQ(batched.queue_offset.value(), 2);
  auto d = sync_log.DecodeAt(end, true, nullptr);
  ASSERT_EQ(d.status, message::RecordStatus::kMessage) << d.reason;
  EXPECT_EQ(d.record.body, "second");
  int64_t offset = batched.wrote_offset.value();
  for (int i = 0; i < 3; ++i) {
    auto b = sync_log.DecodeAt(offset, true, nullptr);
    ASSERT_EQ(b.status, message::RecordStatus::kMessage) << b.reason;
    EXPECT_EQ(b.record.body, "b" + std::to_string(i));
    EXPECT_EQ(b.record.queue_offset, 2 + i);
    offset += static_cast<int64_t>(b.size);
  }
  // The first record is byte for byte the same on both paths.
  auto from_sync = sync_log.GetRecord(0, static_cast<int32_t>(end));
  auto from_async = async_log.GetRecord(0, static_cast<int32_t>(end));
  ASSERT_TRUE(from_sync.ok() && from_async.ok());
  EXPECT_EQ(from_sync->view(), from_async->view());
}

TEST_F(CommitLogTest, BatchThatDoesNotFitMovesWholeToTheNextFile) {
  auto cl = Open();
  TestMessage filler("T", 0, std::string(60000, 'f'));
  cl->Append(filler.fields);
  std::vector<TestMessage> owners;
  for (int i = 0; i < 4; ++i) owners.emplace_back("T", 0, std::string(2000, 'b'));
  std::vector<message::RecordFields> batch;
  for (auto& m : owners) batch.push_back(m.fields);
  PutResult r = cl->AppendBatch(batch);
  ASSERT_EQ(r.status, PutStatus::kPutOk);
  EXPECT_EQ(r.wrote_offset.value(), config_.mapped_file_size_commit_log);
}

}  // namespace
}  // namespace apogee::store
