#include "base/key_index.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace apogee {
namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

void Add(Entries* entries, KeyIndex* index, std::string key) {
  entries->emplace_back(std::move(key), "v");
  index->Added(*entries);
}

TEST(KeyIndexTest, FindsInSmallAndIndexedMaps) {
  Entries entries;
  KeyIndex index;
  EXPECT_EQ(index.Find(entries, "a"), KeyIndex::npos);
  for (int i = 0; i < 1000; ++i) {
    Add(&entries, &index, "k" + std::to_string(i));
    // Every key added so far is found at its position, before and after indexing.
    if (i % 97 == 0 || i < 40) {
      for (int j = 0; j <= i; ++j) ASSERT_EQ(index.Find(entries, "k" + std::to_string(j)), size_t(j));
    }
  }
  EXPECT_EQ(index.Find(entries, "k1000"), KeyIndex::npos);
  EXPECT_EQ(index.Find(entries, ""), KeyIndex::npos);
}

TEST(KeyIndexTest, RebuildAfterEraseAndClear) {
  Entries entries;
  KeyIndex index;
  for (int i = 0; i < 100; ++i) Add(&entries, &index, "k" + std::to_string(i));
  entries.erase(entries.begin() + 10);
  index.Rebuild(entries);
  EXPECT_EQ(index.Find(entries, "k10"), KeyIndex::npos);
  EXPECT_EQ(index.Find(entries, "k11"), 10u);
  EXPECT_EQ(index.Find(entries, "k99"), 98u);
  entries.resize(3);
  index.Rebuild(entries);  // back to a small map: linear again
  EXPECT_EQ(index.Find(entries, "k2"), 2u);
  EXPECT_EQ(index.Find(entries, "k50"), KeyIndex::npos);
  entries.clear();
  index.Clear();
  EXPECT_EQ(index.Find(entries, "k0"), KeyIndex::npos);
}

TEST(KeyIndexTest, SurvivesVectorReallocation) {
  // Short keys live inside the std::string (SSO) and move with the vector.
  Entries entries;
  KeyIndex index;
  for (int i = 0; i < 5000; ++i) Add(&entries, &index, std::to_string(i));
  entries.shrink_to_fit();
  for (int i = 0; i < 5000; i += 7) EXPECT_EQ(index.Find(entries, std::to_string(i)), size_t(i));
}

}  // namespace
}  // namespace apogee
