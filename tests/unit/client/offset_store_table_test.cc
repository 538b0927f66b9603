#include "client/offset_store_table.h"

#include <gtest/gtest.h>

namespace apogee::client {
namespace {

const protocol::MessageQueue kA{"T", "b", 0};
const protocol::MessageQueue kB{"T", "b", 1};
const protocol::MessageQueue kOther{"U", "b", 0};

TEST(OffsetTableTest, IncreaseOnlyIgnoresSmallerOffsets) {
  OffsetTable t;
  t.Update(kA, 10, true);
  EXPECT_EQ(t.Get(kA), 10);
  t.Update(kA, 5, true);
  EXPECT_EQ(t.Get(kA), 10);
  t.Update(kA, 12, true);
  EXPECT_EQ(t.Get(kA), 12);
  t.Update(kA, 3, false);
  EXPECT_EQ(t.Get(kA), 3);
  EXPECT_FALSE(t.Get(kB).has_value());
}

TEST(OffsetTableTest, CloneFiltersByTopic) {
  OffsetTable t;
  t.Update(kA, 1, false);
  t.Update(kB, 2, false);
  t.Update(kOther, 3, false);
  EXPECT_EQ(t.Clone("T").size(), 2u);
  EXPECT_EQ(t.Clone("U").at(kOther), 3);
  EXPECT_EQ(t.Clone("").size(), 3u);
  t.Remove(kB);
  EXPECT_EQ(t.Clone("T").size(), 1u);
}

TEST(OffsetTableTest, SelectKeepsOrDropsTheRest) {
  OffsetTable t;
  t.PutAll({{kA, 1}, {kB, 2}, {kOther, 3}});
  auto kept = t.Select({kA}, /*drop_others=*/false);
  EXPECT_EQ(kept.size(), 1u);
  EXPECT_EQ(t.Clone("").size(), 3u);
  kept = t.Select({kA, kB}, /*drop_others=*/true);
  EXPECT_EQ(kept.size(), 2u);
  EXPECT_EQ(t.Clone("").size(), 2u);
  EXPECT_FALSE(t.Get(kOther).has_value());
}

}  // namespace
}  // namespace apogee::client
