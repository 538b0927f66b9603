#include "store/consume_queue_table.h"

#include <gtest/gtest.h>

#include "env/mem_env.h"

namespace apogee::store {
namespace {

TEST(ConsumeQueueTableTest, CreateFindLoadDelete) {
  auto env = env::NewMemEnv();
  {
    ConsumeQueueTable table(env.get(), "/cq", 200);
    ASSERT_TRUE(table.Load().ok());
    EXPECT_EQ(table.Find("T", 0), nullptr);
    auto cq = table.FindOrCreate("T", 3);
    ASSERT_TRUE(cq.ok());
    ASSERT_TRUE((*cq)->PutEntry(CqEntry{0, 100, 0}, 0).ok());
    EXPECT_EQ(table.Find("T", 3), *cq);
    ASSERT_TRUE(table.FindOrCreate("U", 0).ok());
    EXPECT_EQ(table.All().size(), 2u);
    EXPECT_FALSE(table.FindOrCreate("../x", 0).ok());
    EXPECT_FALSE(table.FindOrCreate("T", -1).ok());
  }
  ASSERT_TRUE(env->CreateDirs("/cq/T/not-a-queue").ok());
  ConsumeQueueTable table(env.get(), "/cq", 200);
  ASSERT_TRUE(table.Load().ok());
  EXPECT_EQ(table.All().size(), 2u);
  auto cq = table.Find("T", 3);
  ASSERT_NE(cq, nullptr);
  ASSERT_TRUE(cq->Recover().ok());
  EXPECT_EQ(cq->MaxOffset(), 1);
  ASSERT_TRUE(table.DeleteTopic("T").ok());
  EXPECT_EQ(table.Find("T", 3), nullptr);
  EXPECT_FALSE(env->FileExists("/cq/T"));
  EXPECT_TRUE(table.DeleteTopic("absent").ok());
}

}  // namespace
}  // namespace apogee::store
