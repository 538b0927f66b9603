#include "store/index_service.h"

#include <gtest/gtest.h>

#include <climits>

#include "env/mem_env.h"
#include "message/message_format.h"
#include "store/store_checkpoint.h"

namespace apogee::store {
namespace {

class IndexServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto cp = StoreCheckpoint::Open(env_.get(), "/root/checkpoint");
    ASSERT_TRUE(cp.ok());
    checkpoint_ = std::move(*cp);
  }
  std::unique_ptr<IndexService> Make(int32_t index_num = 100) {
    return std::make_unique<IndexService>(env_.get(), "/root/index", 64, index_num,
                                          checkpoint_.get(), &clock_);
  }
  static DispatchRequest Req(int64_t phy, std::string_view uniq, std::string_view keys,
                             int64_t ts = 1700000000000) {
    DispatchRequest r;
    r.topic = "T";
    r.phy_offset = phy;
    r.size = 100;
    r.store_timestamp = ts;
    r.uniq_key = uniq;
    r.keys = keys;
    return r;
  }
  std::vector<int64_t> Query(const IndexService& s, std::string_view key) {
    return s.QueryOffsets("T", key, 100, 0, INT64_MAX);
  }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  ManualClock clock_;
  std::unique_ptr<StoreCheckpoint> checkpoint_;
};

TEST_F(IndexServiceTest, IndexesUniqKeyAndEveryKeysToken) {
  auto s = Make();
  ASSERT_TRUE(s->Load(true).ok());
  ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "a  b")).ok());
  ASSERT_TRUE(s->BuildIndex(Req(100, "U1", "b")).ok());
  EXPECT_EQ(Query(*s, "U0"), (std::vector<int64_t>{0}));
  EXPECT_EQ(Query(*s, "a"), (std::vector<int64_t>{0}));
  EXPECT_EQ(Query(*s, "b"), (std::vector<int64_t>{100, 0}));
  EXPECT_TRUE(Query(*s, "").empty());
  EXPECT_TRUE(s->QueryOffsets("Other", "b", 10, 0, INT64_MAX).empty());
  EXPECT_EQ(s->IndexedUpTo(), 100);
}

TEST_F(IndexServiceTest, RedispatchDoesNotDuplicate) {
  auto s = Make();
  ASSERT_TRUE(s->Load(true).ok());
  ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "")).ok());
  ASSERT_TRUE(s->BuildIndex(Req(100, "U1", "")).ok());
  ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "")).ok());
  ASSERT_TRUE(s->BuildIndex(Req(100, "U1", "")).ok());
  EXPECT_EQ(Query(*s, "U0").size(), 1u);
  EXPECT_EQ(Query(*s, "U1").size(), 1u);
}

TEST_F(IndexServiceTest, RollbackRecordsAreNotIndexed) {
  auto s = Make();
  ASSERT_TRUE(s->Load(true).ok());
  DispatchRequest r = Req(0, "U0", "k");
  r.sys_flag = message::kTransactionRollbackType;
  ASSERT_TRUE(s->BuildIndex(r).ok());
  EXPECT_TRUE(Query(*s, "k").empty());
}

TEST_F(IndexServiceTest, RollsToNewFileAndCheckpointsTheFullOne) {
  auto s = Make(/*index_num=*/4);  // 3 entries per file
  ASSERT_TRUE(s->Load(true).ok());
  for (int i = 0; i < 7; ++i) {
    clock_.Advance(1);
    ASSERT_TRUE(s->BuildIndex(Req(i * 100, "U" + std::to_string(i), "", 1700000000000 + i * 1000))
                    .ok());
  }
  EXPECT_EQ(s->file_count(), 3u);
  EXPECT_EQ(checkpoint_->index_msg_timestamp(), 1700000005000);
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(Query(*s, "U" + std::to_string(i)), (std::vector<int64_t>{i * 100})) << i;
  }
  auto deleted = s->DeleteExpiredFiles(300);
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(*deleted, 1);
  EXPECT_TRUE(Query(*s, "U0").empty());
}

TEST_F(IndexServiceTest, CrashDropsUncheckpointedFilesAndTruncate) {
  {
    auto s = Make();
    ASSERT_TRUE(s->Load(true).ok());
    ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "")).ok());
    ASSERT_TRUE(s->BuildIndex(Req(100, "U1", "")).ok());
  }
  {
    auto s = Make();
    ASSERT_TRUE(s->Load(/*last_exit_ok=*/true).ok());
    EXPECT_EQ(s->file_count(), 1u);
    ASSERT_TRUE(s->TruncateFrom(200).ok());
    EXPECT_EQ(s->file_count(), 1u);
    ASSERT_TRUE(s->TruncateFrom(100).ok());  // the file holds an entry at 100
    EXPECT_EQ(s->file_count(), 0u);
    EXPECT_EQ(s->IndexedUpTo(), -1);
  }
  {
    auto s = Make();
    ASSERT_TRUE(s->Load(true).ok());
    ASSERT_TRUE(s->BuildIndex(Req(0, "U0", "")).ok());
  }
  auto s = Make();
  ASSERT_TRUE(s->Load(/*last_exit_ok=*/false).ok());  // checkpoint index ts is 0
  EXPECT_EQ(s->file_count(), 0u);
}

}  // namespace
}  // namespace apogee::store
