#include "broker/schedule/delay_offset_table.h"

#include <gtest/gtest.h>

#include "env/env.h"
#include "env/mem_env.h"

namespace apogee::broker {
namespace {

TEST(DelayOffsetTableTest, EncodesJavasFastjsonForm) {
  auto env = env::NewMemEnv();
  DelayOffsetTable t(env.get(), "/c/delayOffset.json");
  EXPECT_EQ(t.Encode(), "{\"offsetTable\":{}}");
  t.Update(3, 17);
  t.Update(1, 5);
  EXPECT_EQ(t.Encode(), "{\"offsetTable\":{1:5,3:17}}");
  EXPECT_EQ(t.Get(3), 17);
  EXPECT_EQ(t.Get(2), 0);
}

TEST(DelayOffsetTableTest, DecodesBareAndQuotedKeys) {
  auto env = env::NewMemEnv();
  DelayOffsetTable t(env.get(), "/c/delayOffset.json");
  ASSERT_TRUE(t.Decode("{\"offsetTable\":{1:12,\"2\":\"7\"}}").ok());
  EXPECT_EQ(t.Get(1), 12);
  EXPECT_EQ(t.Get(2), 7);
  ASSERT_TRUE(t.Decode("{}").ok());
  EXPECT_TRUE(t.Snapshot().empty());
}

TEST(DelayOffsetTableTest, RejectsNonLevelsAndNegativeOffsets) {
  auto env = env::NewMemEnv();
  DelayOffsetTable t(env.get(), "/c/delayOffset.json");
  Status s = t.Decode("{\"offsetTable\":{\"x\":1}}");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("offsetTable.x"), std::string::npos) << s.ToString();
  s = t.Decode("{\"offsetTable\":{0:1}}");
  EXPECT_FALSE(s.ok());
  s = t.Decode("{\"offsetTable\":{2:-4}}");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("negative"), std::string::npos);
  EXPECT_FALSE(t.Decode("not json").ok());
}

TEST(DelayOffsetTableTest, PersistsAndLoadsBack) {
  auto env = env::NewMemEnv();
  ASSERT_TRUE(env->CreateDirs("/c").ok());
  {
    DelayOffsetTable t(env.get(), "/c/delayOffset.json");
    ASSERT_TRUE(t.Load().ok());  // fresh start
    t.Update(2, 40);
    ASSERT_TRUE(t.PersistIfChanged().ok());
  }
  auto content = env::ReadFileToString(env.get(), "/c/delayOffset.json");
  ASSERT_TRUE(content.ok());
  EXPECT_EQ(*content, "{\"offsetTable\":{2:40}}");
  DelayOffsetTable again(env.get(), "/c/delayOffset.json");
  ASSERT_TRUE(again.Load().ok());
  EXPECT_EQ(again.Get(2), 40);
}

}  // namespace
}  // namespace apogee::broker
