#include "broker/processors/plain_properties.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "message/message_format.h"
#include "message/properties.h"

namespace apogee::broker {
namespace {

// What the decoding path stores and answers for `text`: decode, set CLUSTER, encode.
struct Decoded {
  std::string stored;
  std::optional<std::string> uniq_key;
  std::optional<std::string> wait;
};
Decoded DecodeSetEncode(std::string_view text, std::string_view cluster) {
  message::MessageProperties props = message::MessageProperties::Decode(text);
  (void)props.Set(message::kPropertyCluster, cluster);
  Decoded out;
  out.stored = props.Encode();
  if (auto key = props.Get(message::kPropertyUniqClientMessageIdKeyIdx)) out.uniq_key = *key;
  if (auto wait = props.Get(message::kPropertyWaitStoreMsgOk)) out.wait = *wait;
  return out;
}

// When the plain path accepts `text`, it must store and answer exactly what decoding would.
void ExpectSameAsDecoding(std::string_view text, std::string_view cluster) {
  std::optional<PlainProperties> plain = ReadPlainProperties(text, cluster);
  if (!plain) return;
  const Decoded decoded = DecodeSetEncode(text, cluster);
  EXPECT_EQ(std::string(text) + std::string(ClusterPiece(cluster).view()), decoded.stored)
      << "text: " << ::testing::PrintToString(std::string(text));
  ASSERT_TRUE(decoded.uniq_key.has_value());
  EXPECT_EQ(plain->uniq_key, *decoded.uniq_key);
  EXPECT_EQ(plain->wait.has_value(), decoded.wait.has_value());
  if (plain->wait && decoded.wait) {
    EXPECT_EQ(*plain->wait, *decoded.wait);
  }
}

std::string Props(std::initializer_list<std::pair<std::string_view, std::string_view>> pairs) {
  std::string out;
  for (const auto& [key, value] : pairs) {
    out.append(key).push_back('\x01');
    out.append(value).push_back('\x02');
  }
  return out;
}

TEST(PlainPropertiesTest, AUsualSendIsPlain) {
  const std::string text = Props({{"KEYS", "order-1"},
                                  {"UNIQ_KEY", "7F0000010B7A1B6D0B0C4B8A3F9E0001"},
                                  {"WAIT", "true"},
                                  {"TAGS", "TagA"}});
  std::optional<PlainProperties> plain = ReadPlainProperties(text, "DefaultCluster");
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->uniq_key, "7F0000010B7A1B6D0B0C4B8A3F9E0001");
  EXPECT_EQ(plain->wait, "true");
  EXPECT_EQ(ClusterPiece("DefaultCluster").view(), "CLUSTER\x01" "DefaultCluster\x02");
  ExpectSameAsDecoding(text, "DefaultCluster");
}

TEST(PlainPropertiesTest, WhatTheSendPathActsOnOrCannotReproduceIsDecoded) {
  const std::string uniq = "UNIQ_KEY\x01" "ABC\x02";
  const std::vector<std::string> decoded = {
      "",                                             // no UNIQ_KEY: the broker sets one
      Props({{"TAGS", "a"}}),                         // the same
      uniq + Props({{"DELAY", "3"}}),                 // may be parked for delivery later
      uniq + Props({{"TIMER_DELAY_SEC", "10"}}),      // a timer message
      uniq + Props({{"TIMER_DELAY_MS", "10"}}),
      uniq + Props({{"TIMER_DELIVER_MS", "10"}}),
      uniq + Props({{"TIMER_OUT_MS", "10"}}),
      uniq + Props({{"__STARTDELIVERTIME", "10"}}),   // ali-ons' timer property
      uniq + Props({{"CLUSTER", "Other"}}),           // replaced in place, not appended
      uniq + Props({{"TAGS", "a"}, {"TAGS", "b"}}),   // a repeated key keeps the last value
      uniq + "TAGS\x01" "a",                          // no final separator
      uniq + "T\x01\x02",                             // a piece the decoder drops
      uniq + "\x02",                                  // an empty piece
      uniq + "\x01" "v\x02",                          // an empty key
      uniq + "\x02" "TAGS\x01" "a",                   // an empty piece, no final separator
  };
  for (const std::string& text : decoded) {
    EXPECT_FALSE(ReadPlainProperties(text, "DefaultCluster").has_value())
        << ::testing::PrintToString(text);
  }
  EXPECT_FALSE(ReadPlainProperties(uniq, "").has_value());
  EXPECT_FALSE(ReadPlainProperties(uniq, "bad\x01name").has_value());
  EXPECT_FALSE(ReadPlainProperties(uniq, std::string(kMaxPlainClusterName + 1, 'c')).has_value());
  EXPECT_TRUE(ReadPlainProperties(uniq, std::string(kMaxPlainClusterName, 'c')).has_value());
  ExpectSameAsDecoding(uniq, std::string(kMaxPlainClusterName, 'c'));

  std::string many = uniq;
  for (int i = 0; i < 40; ++i) many += Props({{"k" + std::to_string(i), "v"}});
  EXPECT_FALSE(ReadPlainProperties(many, "C").has_value());  // past the repeat check's bound
}

TEST(PlainPropertiesTest, AValueWithANameSeparatorIsKeptAsTheDecoderKeepsIt) {
  const std::string text = "UNIQ_KEY\x01" "A\x01" "B\x02" "TAGS\x01x\x02";
  ASSERT_TRUE(ReadPlainProperties(text, "C").has_value());
  ExpectSameAsDecoding(text, "C");
}

// Random property texts over the separators and a few keys: whenever the plain path takes
// one, it stores and answers what decoding would.
TEST(PlainPropertiesTest, RandomTextsTakenPlainMatchTheDecodingPath) {
  std::mt19937 rng(20261203);
  const std::vector<std::string> pieces = {
      "UNIQ_KEY", "WAIT", "TAGS", "KEYS", "DELAY", "CLUSTER", "a", "b", "true",
      "\x01",     "\x02", "\x01", "\x02", "x",     "UNIQ_KEY\x01u1\x02", "WAIT\x01" "false\x02"};
  int plain = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const int n = static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) text += pieces[rng() % pieces.size()];
    if (ReadPlainProperties(text, "DefaultCluster")) ++plain;
    ExpectSameAsDecoding(text, "DefaultCluster");
    if (HasFailure()) return;
  }
  EXPECT_GT(plain, 100);  // the generator does reach the plain path
}

}  // namespace
}  // namespace apogee::broker
