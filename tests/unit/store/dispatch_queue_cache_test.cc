#include "store/dispatch_queue_cache.h"

#include <gtest/gtest.h>

#include "env/mem_env.h"

namespace apogee::store {
namespace {

class DispatchQueueCacheTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(table_.Load().ok()); }

  std::unique_ptr<env::Env> env_ = env::NewMemEnv();
  ConsumeQueueTable table_{env_.get(), "/cq", 200};
  DispatchQueueCache cache_{&table_};
};

TEST_F(DispatchQueueCacheTest, ReturnsTheTablesQueueForEveryTopicAndId) {
  // Round-robin over queues and two topics whose ids share cache slots (0 and 64).
  for (int pass = 0; pass < 3; ++pass) {
    for (const char* topic : {"T", "U"}) {
      for (int32_t id : {0, 1, 7, 64, 65}) {
        auto got = cache_.Get(topic, id);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        EXPECT_EQ(*got, table_.Find(topic, id).get()) << topic << " " << id;
        EXPECT_EQ((*got)->topic(), topic);
        EXPECT_EQ((*got)->queue_id(), id);
      }
    }
  }
  EXPECT_EQ(table_.All().size(), 10u);
}

TEST_F(DispatchQueueCacheTest, ADeletedTopicIsLookedUpAgain) {
  auto first = cache_.Get("T", 3);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE((*first)->PutEntry(CqEntry{0, 100, 0}, 0).ok());
  ASSERT_TRUE(table_.DeleteTopic("T").ok());
  auto again = cache_.Get("T", 3);
  ASSERT_TRUE(again.ok());
  // A fresh queue in the table, not the deleted one the cache held.
  EXPECT_EQ(*again, table_.Find("T", 3).get());
  EXPECT_EQ((*again)->MaxOffset(), 0);
}

TEST_F(DispatchQueueCacheTest, RefusesWhatTheTableRefuses) {
  EXPECT_FALSE(cache_.Get("T", -1).ok());
  EXPECT_FALSE(cache_.Get("../x", 0).ok());
  auto ok = cache_.Get("T", 0);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, table_.Find("T", 0).get());
}

}  // namespace
}  // namespace apogee::store
