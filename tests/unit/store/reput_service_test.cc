#include "store/reput_service.h"

#include <gtest/gtest.h>

#include "env/mem_env.h"
#include "message/message_record.h"
#include "store/commit_log.h"
#include "store/consume_queue_table.h"
#include "store_test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;

TEST(ReputServiceTest, DispatchesEveryRecordUpToTheLimitAcrossBlanks) {
  auto env = env::NewMemEnv();
  ManualClock clock;
  StoreConfig config = SmallConfig("/r");
  CommitLog cl(env.get(), config, &clock, nullptr);
  ASSERT_TRUE(cl.Load().ok());
  std::vector<PutResult> puts;
  for (int i = 0; i < 40; ++i) {
    puts.push_back(cl.Append(TestMessage("T", i % 2, std::string(5000, 'd'), "TagA").fields));
  }
  ASSERT_GT(cl.files().file_count(), 1u);  // at least one BLANK to skip
  int64_t limit = puts[9].wrote_offset.value();  // records 0..8 readable
  std::vector<DispatchRequest> seen;
  int batches = 0;
  ReputService reput(
      &cl, [&] { return limit; },
      [&](const DispatchRequest& r) {
        seen.push_back(r);
        return Status::OK();
      },
      [&] { ++batches; });
  ASSERT_TRUE(reput.DoReput().ok());
  EXPECT_EQ(seen.size(), 9u);
  EXPECT_EQ(reput.reput_from(), limit);
  EXPECT_EQ(batches, 1);
  limit = cl.MaxOffset();
  ASSERT_TRUE(reput.DoReput().ok());
  ASSERT_EQ(seen.size(), 40u);
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].phy_offset, puts[i].wrote_offset.value());
    EXPECT_EQ(seen[i].queue_offset, static_cast<int64_t>(i / 2));
  }
  EXPECT_EQ(reput.DispatchBehindBytes(), 0);
}

TEST(ReputServiceTest, StopsAtADispatchErrorAndRetriesFromThere) {
  auto env = env::NewMemEnv();
  ManualClock clock;
  CommitLog cl(env.get(), SmallConfig("/r"), &clock, nullptr);
  ASSERT_TRUE(cl.Load().ok());
  for (int i = 0; i < 5; ++i) cl.Append(TestMessage("T", 0, "m").fields);
  int calls = 0;
  bool fail = true;
  ReputService reput(
      &cl, [&] { return cl.MaxOffset(); },
      [&](const DispatchRequest&) {
        ++calls;
        if (fail && calls == 3) return Status::IOError("disk");
        return Status::OK();
      },
      nullptr);
  Status s = reput.DoReput();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("dispatching CommitLog offset"), std::string::npos);
  int64_t stuck = reput.reput_from();
  EXPECT_GT(stuck, 0);
  fail = false;
  ASSERT_TRUE(reput.DoReput().ok());
  EXPECT_EQ(reput.reput_from(), cl.MaxOffset());
  EXPECT_EQ(calls, 6);  // the failed record was dispatched again
}

// A record no ConsumeQueue can hold (here "a/b", which only a replica or an older version
// could have written) is counted and skipped; every later record is still dispatched.
TEST(ReputServiceTest, SkipsARecordItCannotIndexAndGoesOn) {
  auto env = env::NewMemEnv();
  ManualClock clock;
  CommitLog cl(env.get(), SmallConfig("/r"), &clock, nullptr);
  ASSERT_TRUE(cl.Load().ok());
  ASSERT_EQ(cl.Append(TestMessage("T", 0, "before").fields).status, PutStatus::kPutOk);
  TestMessage bad("a/b", 0, "bad");
  EXPECT_EQ(cl.Append(bad.fields).status, PutStatus::kMessageIllegal);  // refused when written
  const int64_t bad_offset = cl.MaxOffset();
  bad.fields.physical_offset = bad_offset;
  Result<std::string> raw = message::EncodeRecordToString(bad.fields);
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(cl.AppendRaw(bad_offset, *raw).ok());
  for (int i = 0; i < 3; ++i) cl.Append(TestMessage("T", 0, "after").fields);
  std::vector<int64_t> dispatched;
  ReputService reput(
      &cl, [&] { return cl.MaxOffset(); },
      [&](const DispatchRequest& r) {
        if (!IsIndexableQueue(r.topic, r.queue_id)) return Status::InvalidArgument("no queue");
        dispatched.push_back(r.phy_offset);
        return Status::OK();
      },
      nullptr);
  ASSERT_TRUE(reput.DoReput().ok());
  EXPECT_EQ(dispatched.size(), 4u);
  EXPECT_EQ(reput.reput_from(), cl.MaxOffset());
  EXPECT_EQ(reput.skipped_records(), 1);
  EXPECT_EQ(reput.last_skipped_offset(), bad_offset);
}

// Recovery's first pass wants a ConsumeQueue gap (Corruption) reported, so it can rebuild.
TEST(ReputServiceTest, CorruptionStopsOnlyWhenSkippingIsOff) {
  auto env = env::NewMemEnv();
  ManualClock clock;
  CommitLog cl(env.get(), SmallConfig("/r"), &clock, nullptr);
  ASSERT_TRUE(cl.Load().ok());
  for (int i = 0; i < 3; ++i) cl.Append(TestMessage("T", 0, "m").fields);
  int calls = 0;
  ReputService reput(
      &cl, [&] { return cl.MaxOffset(); },
      [&](const DispatchRequest&) {
        return ++calls == 2 ? Status::Corruption("gap") : Status::OK();
      },
      nullptr);
  reput.set_skip_corrupt(false);
  EXPECT_TRUE(reput.DoReput().Is(StatusCode::kCorruption));
  EXPECT_EQ(reput.skipped_records(), 0);
  reput.set_skip_corrupt(true);
  calls = 1;  // the same record fails again
  ASSERT_TRUE(reput.DoReput().ok());
  EXPECT_EQ(reput.skipped_records(), 1);
  EXPECT_EQ(reput.reput_from(), cl.MaxOffset());
}

}  // namespace
}  // namespace apogee::store
