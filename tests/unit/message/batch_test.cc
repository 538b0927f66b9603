#include "message/batch.h"

#include <gtest/gtest.h>

#include "base/coding.h"
#include "message/message_format.h"

namespace apogee::message {
namespace {

std::vector<Message> TwoMessages() {
  Message a;
  a.flag = 1;
  a.body = "first";
  a.properties = MessageProperties{{"UNIQ_KEY", "AAAA"}, {"TAGS", "x"}};
  Message b;
  b.body = "second body";
  b.properties = MessageProperties{{"UNIQ_KEY", "BBBB"}};
  return {a, b};
}

TEST(BatchBodyTest, EncodesTheJavaLayout) {
  auto body = EncodeBatchBody(TwoMessages());
  ASSERT_TRUE(body.ok());
  const auto* p = reinterpret_cast<const uint8_t*>(body->data());
  const size_t first_props = std::string(
                                 "UNIQ_KEY\x01"
                                 "AAAA\x02TAGS\x01x\x02")
                                 .size();
  EXPECT_EQ(DecodeFixed32(p), kBatchEntryFixedSize + 5 + first_props);
  EXPECT_EQ(DecodeFixed32(p + 4), 0u);   // magic
  EXPECT_EQ(DecodeFixed32(p + 8), 0u);   // crc
  EXPECT_EQ(DecodeFixed32(p + 12), 1u);  // flag
  EXPECT_EQ(DecodeFixed32(p + 16), 5u);
  EXPECT_EQ(body->substr(20, 5), "first");
  EXPECT_EQ(DecodeFixed16(p + 25), first_props);
}

TEST(BatchBodyTest, RoundTrips) {
  auto body = EncodeBatchBody(TwoMessages());
  auto entries = DecodeBatchBody(*body);
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].flag, 1);
  EXPECT_EQ((*entries)[0].body, "first");
  EXPECT_EQ(MessageProperties::Decode((*entries)[0].properties).Get("TAGS"), "x");
  EXPECT_EQ((*entries)[1].body, "second body");
  EXPECT_EQ(FindProperty((*entries)[1].properties, "UNIQ_KEY"), "BBBB");
}

TEST(BatchBodyTest, BadBodiesNameTheEntry) {
  std::string body = *EncodeBatchBody(TwoMessages());
  EXPECT_TRUE(DecodeBatchBody("").status().Is(StatusCode::kInvalidArgument));
  auto cut = DecodeBatchBody(std::string_view(body).substr(0, body.size() - 2));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("batch message 1"), std::string::npos)
      << cut.status().ToString();
  std::string wrong_size = body;
  EncodeFixed32(reinterpret_cast<uint8_t*>(wrong_size.data()), 999);
  auto sized = DecodeBatchBody(wrong_size);
  ASSERT_FALSE(sized.ok());
  EXPECT_NE(sized.status().message().find("TOTALSIZE 999"), std::string::npos);
  std::string negative = body;
  EncodeFixed32(reinterpret_cast<uint8_t*>(negative.data()) + 16, 0xFFFFFFFF);
  EXPECT_NE(DecodeBatchBody(negative).status().message().find("negative body length"),
            std::string::npos);
  EXPECT_FALSE(DecodeBatchBody(std::string(10, '\0')).ok());
}

TEST(BatchBodyTest, MergeAppendsBatchPropertiesExceptUniqKey) {
  MessageProperties batch{{"UNIQ_KEY", "BATCH"}, {"CLUSTER", "DefaultCluster"}};
  const std::string merged = MergeBatchProperties(
      "UNIQ_KEY\x01"
      "OWN\x02",
      batch);
  EXPECT_EQ(merged,
            "UNIQ_KEY\x01"
            "OWN\x02"
            "CLUSTER\x01"
            "DefaultCluster\x02");
  // A string without the trailing separator gets one first.
  EXPECT_EQ(MergeBatchProperties("TAGS\x01t", batch),
            "TAGS\x01t\x02"
            "CLUSTER\x01"
            "DefaultCluster\x02");
  EXPECT_EQ(MergeBatchProperties("", batch),
            "CLUSTER\x01"
            "DefaultCluster\x02");
  EXPECT_EQ(MergeBatchProperties("TAGS\x01t", MessageProperties{}), "TAGS\x01t");
}

}  // namespace
}  // namespace apogee::message
