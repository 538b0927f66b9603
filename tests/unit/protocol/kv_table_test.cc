#include "protocol/kv_table.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(KVTableTest, GoldenAndRoundTrip) {
  KVTable table;
  table.table["TopicB"] = "broker-a:4;broker-b:4";
  table.table["TopicA"] = "broker-a:8";
  const std::string text = EncodeKVTable(table);
  EXPECT_EQ(text, R"({"table":{"TopicA":"broker-a:8","TopicB":"broker-a:4;broker-b:4"}})");
  Result<KVTable> back = DecodeKVTable(text);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, table);
  EXPECT_EQ(EncodeKVTable(KVTable{}), R"({"table":{}})");
}

TEST(KVTableTest, DecodesLenientValues) {
  Result<KVTable> t = DecodeKVTable(R"({"table":{"n":12,"b":true,"z":null}})");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->table.at("n"), "12");
  EXPECT_EQ(t->table.at("b"), "true");
  EXPECT_FALSE(t->table.contains("z"));
  EXPECT_EQ(DecodeKVTable(R"({"table":[]})").status().message(),
            "KVTable.table: expected an object, got an array");
}

}  // namespace
}  // namespace apogee::protocol
