#include "store/dispatch_request.h"

#include <gtest/gtest.h>

#include "message/message_format.h"
#include "store_test_util.h"

namespace apogee::store {
namespace {

TEST(DispatchRequestTest, TagCodeIsSignExtendedJavaHash) {
  EXPECT_EQ(TagCodeOf(""), 0);
  EXPECT_EQ(TagCodeOf("TagA"), 2598919);
  // A tag whose Java hash is negative keeps its sign in the int64 slot.
  int64_t code = TagCodeOf("negative-hash-tag-zz");
  EXPECT_EQ(code, static_cast<int64_t>(static_cast<int32_t>(code)));
  EXPECT_EQ(TagCodeOf("\xE4\xB8\xAD"), 0x4E2D);  // U+4E2D hashes as one UTF-16 unit
}

TEST(DispatchRequestTest, BuiltFromARecord) {
  testing::TestMessage m("Topic", 5, "body", "TagA", "k1 k2", "UNIQ");
  m.fields.queue_offset = 42;
  m.fields.physical_offset = 1000;
  m.fields.store_timestamp = 1700000001234;
  auto bytes = message::EncodeRecordToString(m.fields);
  ASSERT_TRUE(bytes.ok());
  auto d = message::DecodeRecord(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size());
  ASSERT_EQ(d.status, message::RecordStatus::kMessage);
  DispatchRequest r = MakeDispatchRequest(d.record, 1000, static_cast<int32_t>(d.size));
  EXPECT_EQ(r.topic, "Topic");
  EXPECT_EQ(r.queue_id, 5);
  EXPECT_EQ(r.queue_offset, 42);
  EXPECT_EQ(r.phy_offset, 1000);
  EXPECT_EQ(r.size, static_cast<int32_t>(bytes->size()));
  EXPECT_EQ(r.tag_code, 2598919);
  EXPECT_EQ(r.keys, "k1 k2");
  EXPECT_EQ(r.uniq_key, "UNIQ");
  EXPECT_EQ(r.store_timestamp, 1700000001234);
}

TEST(DispatchRequestTest, OnlyPlainAndCommitRecordsGetQueueEntries) {
  EXPECT_TRUE(ShouldDispatchToConsumeQueue(0));
  EXPECT_TRUE(ShouldDispatchToConsumeQueue(message::kTransactionCommitType));
  EXPECT_TRUE(ShouldDispatchToConsumeQueue(message::kCompressedFlag));
  EXPECT_FALSE(ShouldDispatchToConsumeQueue(message::kTransactionPreparedType));
  EXPECT_FALSE(ShouldDispatchToConsumeQueue(message::kTransactionRollbackType));
}

}  // namespace
}  // namespace apogee::store
