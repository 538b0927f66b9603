#include "message/properties.h"

#include <gtest/gtest.h>

#include "message/message_format.h"

namespace apogee::message {
namespace {

TEST(MessagePropertiesTest, EncodesEveryPairWithTrailingSeparator) {
  MessageProperties props{{"TAGS", "TagA"}, {"KEYS", "k1 k2"}};
  EXPECT_EQ(props.Encode(), "TAGS\x01TagA\x02KEYS\x01k1 k2\x02");
  EXPECT_EQ(props.EncodedSize(), props.Encode().size());
  EXPECT_EQ(MessageProperties().Encode(), "");
}

TEST(MessagePropertiesTest, DecodesWhatRealClientsSend) {
  // SEND_MESSAGE_V2 header field "i" from ali-ons, and "properties" from the C++ client.
  auto ons = MessageProperties::Decode("TAGS\x01TagA\x02KEYS\x01key-mx1oqdcl-0 smoke\x02");
  EXPECT_EQ(ons.size(), 2u);
  EXPECT_EQ(ons.Get("KEYS"), "key-mx1oqdcl-0 smoke");
  auto cpp = MessageProperties::Decode(
      "KEYS\x01key-mx1qdl49-0\x02TAGS\x01TagA\x02UNIQ_KEY\x01"
      "0100007F000090370000E2BFEE970100\x02WAIT\x01true\x02");
  EXPECT_EQ(cpp.size(), 4u);
  EXPECT_EQ(cpp.Get("UNIQ_KEY"), "0100007F000090370000E2BFEE970100");
  EXPECT_EQ(cpp.Get("WAIT"), "true");
  // Re-encoding keeps the order, so the bytes come back unchanged.
  EXPECT_EQ(cpp.Encode(),
            "KEYS\x01key-mx1qdl49-0\x02TAGS\x01TagA\x02UNIQ_KEY\x01"
            "0100007F000090370000E2BFEE970100\x02WAIT\x01true\x02");
}

TEST(MessagePropertiesTest, DecodeIsLoose) {
  // No trailing separator, empty pieces, short pieces, empty key or value, no \x01 at all,
  // and a value containing a second \x01 (split at the first).
  auto props = MessageProperties::Decode(
      "\x02\x02"
      "a\x01"
      "\x02"
      "\x01v\x02"
      "ab\x02"
      "noseparator\x02"
      "k\x01v\x01w\x02"
      "x\x01y");
  ASSERT_EQ(props.size(), 2u);
  EXPECT_EQ(props.Get("k"), "v\x01w");
  EXPECT_EQ(props.Get("x"), "y");
  EXPECT_FALSE(props.Has("a"));
}

TEST(MessagePropertiesTest, LaterDuplicateWinsInPlace) {
  auto props = MessageProperties::Decode(
      "UNIQ_KEY\x01"
      "A\x02TAGS\x01t\x02UNIQ_KEY\x01"
      "B\x02");
  ASSERT_EQ(props.size(), 2u);
  EXPECT_EQ(props.Get("UNIQ_KEY"), "B");
  EXPECT_EQ(props.entries()[0].first, "UNIQ_KEY");
  EXPECT_EQ(FindProperty("UNIQ_KEY\x01"
                         "A\x02TAGS\x01t\x02UNIQ_KEY\x01"
                         "B\x02",
                         "UNIQ_KEY"),
            "B");
  EXPECT_EQ(FindProperty("TAGS\x01t\x02", "KEYS"), std::nullopt);
}

TEST(MessagePropertiesTest, SetRejectsWhatCannotRoundTrip) {
  MessageProperties props;
  EXPECT_TRUE(props.Set("k", "v").ok());
  EXPECT_TRUE(props.Set("k", "v2").ok());
  EXPECT_EQ(props.size(), 1u);
  EXPECT_EQ(props.Get("k"), "v2");
  EXPECT_TRUE(props.Set("", "v").Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(props.Set("k", "").Is(StatusCode::kInvalidArgument));
  Status s = props.Set("bad\x02key", "v");
  EXPECT_TRUE(s.Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(props.Set("k", "v\x01").Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(props.Erase("k"));
  EXPECT_FALSE(props.Erase("k"));
  EXPECT_TRUE(props.empty());
}

TEST(MessagePropertiesTest, Utf8PassesThrough) {
  MessageProperties props;
  ASSERT_TRUE(props.Set("TAGS", "标签").ok());
  auto back = MessageProperties::Decode(props.Encode());
  EXPECT_EQ(back.Get("TAGS"), "标签");
}

TEST(MessagePropertiesTest, ManyPairsDecodeInLinearTimeKeepingOrderAndLastDuplicate) {
  std::string text;
  for (int i = 0; i < 8000; ++i) text += "k" + std::to_string(i) + "\x01v\x02";
  text += "k7\x01last\x02";
  MessageProperties props = MessageProperties::Decode(text);
  ASSERT_EQ(props.size(), 8000u);
  EXPECT_EQ(props.Get("k7"), "last");
  EXPECT_EQ(props.Get("k7999"), "v");
  EXPECT_EQ(props.entries()[7].first, "k7");
  EXPECT_TRUE(props.Erase("k0"));
  EXPECT_EQ(props.Get("k1"), "v");
  EXPECT_FALSE(props.Has("k0"));
}

TEST(MessagePropertiesTest, CheckPropertiesLengthNamesTheLimit) {
  EXPECT_TRUE(CheckPropertiesLength(std::string(kMaxPropertiesLength, 'a')).ok());
  Status st = CheckPropertiesLength(std::string(kMaxPropertiesLength + 1, 'a'));
  EXPECT_TRUE(st.Is(StatusCode::kInvalidArgument));
  EXPECT_NE(st.message().find("limit of 32767 bytes"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace apogee::message
