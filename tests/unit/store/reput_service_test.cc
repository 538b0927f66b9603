#include "store/reput_service.h"

#include <gtest/gtest.h>

#include "env/mem_env.h"
#include "store/commit_log.h"
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

}  // namespace
}  // namespace apogee::store
