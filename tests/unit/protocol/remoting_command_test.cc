#include "protocol/remoting_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/coding.h"
#include "unit/protocol/expect_same_header.h"

namespace apogee::protocol {
namespace {

// docs/protocol/remoting.md §2.1 worked example: GET_ROUTEINFO_BY_TOPIC, topic TopicTest,
// opaque 7, version 479, as Java 5.3.3 writes it.
constexpr std::string_view kGoldenJsonHeader =
    R"({"code":105,"extFields":{"topic":"TopicTest"},"flag":0,"language":"JAVA","opaque":7,)"
    R"("serializeTypeCurrentRPC":"JSON","version":479})";

std::string GoldenJsonFrame() {
  std::string frame("\x00\x00\x00\x87\x00\x00\x00\x83", 8);
  frame.append(kGoldenJsonHeader);
  return frame;
}

std::string GoldenBinaryFrame() {
  const unsigned char bytes[] = {
      0x00, 0x00, 0x00, 0x2d, 0x01, 0x00, 0x00, 0x29,  // L = 45, type 1, header 41
      0x00, 0x69,                                      // code 105
      0x00,                                            // JAVA
      0x01, 0xdf,                                      // version 479
      0x00, 0x00, 0x00, 0x07,                          // opaque
      0x00, 0x00, 0x00, 0x00,                          // flag
      0x00, 0x00, 0x00, 0x00,                          // no remark
      0x00, 0x00, 0x00, 0x14,                          // map block 20 bytes
      0x00, 0x05, 't',  'o',  'p',  'i',  'c',  0x00, 0x00, 0x00,
      0x09, 'T',  'o',  'p',  'i',  'c',  'T',  'e',  's',  't',
  };
  return std::string(reinterpret_cast<const char*>(bytes), sizeof(bytes));
}

RemotingCommand GoldenCommand(SerializeType type) {
  RemotingCommand command;
  command.code = 105;
  command.language = LanguageCode::kJava;
  command.version = 479;
  command.opaque = 7;
  command.has_ext_fields = true;
  command.ext_fields.Set("topic", "TopicTest");
  command.serialize_type = type;
  return command;
}

TEST(RemotingCommandTest, EncodesGoldenJsonFrame) {
  std::string out;
  EncodeCommand(GoldenCommand(SerializeType::kJson), &out);
  EXPECT_EQ(out, GoldenJsonFrame());
}

TEST(RemotingCommandTest, EncodesGoldenBinaryFrame) {
  std::string out;
  EncodeCommand(GoldenCommand(SerializeType::kRocketMQ), &out);
  EXPECT_EQ(out, GoldenBinaryFrame());
}

TEST(RemotingCommandTest, DecodesGoldenFramesOfBothSerializations) {
  for (const auto& [frame, type] : {std::pair{GoldenJsonFrame(), SerializeType::kJson},
                                    std::pair{GoldenBinaryFrame(), SerializeType::kRocketMQ}}) {
    Result<RemotingCommand> decoded = DecodeCommand(std::string_view(frame).substr(4));
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    ExpectSameHeader(*decoded, GoldenCommand(type));
    EXPECT_TRUE(decoded->body.empty());
    EXPECT_FALSE(decoded->IsResponse());
  }
}

TEST(RemotingCommandTest, EncodeAppendsAndCarriesBody) {
  RemotingCommand command = GoldenCommand(SerializeType::kJson);
  command.body = "hello";
  std::string out = "prefix";
  EncodeCommand(command, &out);
  ASSERT_EQ(out.substr(0, 6), "prefix");
  std::string_view frame = std::string_view(out).substr(6);
  EXPECT_EQ(frame.size(), 4 + 4 + kGoldenJsonHeader.size() + 5);
  Result<RemotingCommand> decoded = DecodeCommand(frame.substr(4));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->body, "hello");
}

TEST(RemotingCommandTest, FrameLengthCountsBodySegmentsButDoesNotCopyThem) {
  RemotingCommand command = GoldenCommand(SerializeType::kJson);
  command.body = "ab";
  auto storage = std::make_shared<std::string>("cdef");
  command.body_segments.segments = {std::string_view(*storage).substr(0, 1),
                                    std::string_view(*storage).substr(1)};
  command.body_segments.keepalive = storage;
  EXPECT_EQ(command.BodySize(), 6u);
  std::string out;
  EncodeCommand(command, &out);
  EXPECT_EQ(out.size(), 8 + kGoldenJsonHeader.size() + 2);
  const uint32_t length =
      (uint32_t{static_cast<uint8_t>(out[2])} << 8) | static_cast<uint8_t>(out[3]);
  EXPECT_EQ(length, 4 + kGoldenJsonHeader.size() + 6);
  // The receiver sees the owned body followed by the segments.
  std::string received = out + "cdef";
  Result<RemotingCommand> decoded = DecodeCommand(std::string_view(received).substr(4));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->body, "abcdef");
}

// A borrowed body is copied into the frame after the owned one: the frame is byte for byte
// the one an owned body of both gives, in both serializations, and the bytes are the
// sender's no longer once encoded.
TEST(RemotingCommandTest, BorrowedBodyEncodesAsTheOwnedOne) {
  for (SerializeType type : {SerializeType::kJson, SerializeType::kRocketMQ}) {
    for (std::string_view owned : {std::string_view(), std::string_view("ab")}) {
      RemotingCommand by_copy = GoldenCommand(type);
      by_copy.body = std::string(owned) + std::string(1024, 'x');
      RemotingCommand borrowing = GoldenCommand(type);
      borrowing.body = std::string(owned);
      auto borrowed = std::make_unique<std::string>(1024, 'x');
      borrowing.borrowed_body = *borrowed;
      EXPECT_EQ(borrowing.BodySize(), by_copy.BodySize());
      std::string expected;
      std::string actual;
      EncodeCommand(by_copy, &expected);
      EncodeCommand(borrowing, &actual);
      borrowed.reset();
      EXPECT_EQ(actual, expected);
      Result<RemotingCommand> decoded = DecodeCommand(std::string_view(actual).substr(4));
      ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
      EXPECT_EQ(decoded->body, by_copy.body);
      EXPECT_TRUE(decoded->borrowed_body.empty());
    }
  }
}

TEST(RemotingCommandTest, EncodeHeaderHasNoFramePrefix) {
  EXPECT_EQ(EncodeHeader(GoldenCommand(SerializeType::kRocketMQ), SerializeType::kJson),
            kGoldenJsonHeader);
  EXPECT_EQ(EncodeHeader(GoldenCommand(SerializeType::kJson), SerializeType::kRocketMQ),
            GoldenBinaryFrame().substr(8));
}

TEST(RemotingCommandTest, MakeRequestUsesJavaLanguageAndApogeeVersion) {
  RemotingCommand request = RemotingCommand::MakeRequest(105);
  EXPECT_EQ(request.code, 105);
  EXPECT_EQ(request.language, LanguageCode::kJava);
  EXPECT_EQ(request.version, kApogeeVersion);
  EXPECT_EQ(request.flag, 0);
  EXPECT_FALSE(request.IsResponse());
  EXPECT_EQ(request.serialize_type, SerializeType::kJson);
}

TEST(RemotingCommandTest, MakeResponseMirrorsOpaqueAndSerialization) {
  RemotingCommand request = GoldenCommand(SerializeType::kRocketMQ);
  request.flag = kFlagOneway;
  RemotingCommand response = RemotingCommand::MakeResponse(request, 17, "topic not exist");
  EXPECT_EQ(response.code, 17);
  EXPECT_EQ(response.opaque, 7);
  EXPECT_TRUE(response.IsResponse());
  EXPECT_FALSE(response.IsOneway());
  EXPECT_EQ(response.remark, "topic not exist");
  EXPECT_EQ(response.serialize_type, SerializeType::kRocketMQ);
  EXPECT_EQ(response.version, kApogeeVersion);
  EXPECT_FALSE(response.has_ext_fields);
}

TEST(RemotingCommandTest, RejectsFrameWithoutHeaderWord) {
  Result<RemotingCommand> decoded = DecodeCommand(std::string_view("\x00\x00", 2));
  ASSERT_FALSE(decoded.ok());
  EXPECT_TRUE(decoded.status().IsCorruption());
  EXPECT_NE(decoded.status().message().find("no header length word"), std::string::npos);
}

TEST(RemotingCommandTest, RejectsHeaderLengthPastFrameEnd) {
  std::string frame = GoldenJsonFrame().substr(4);
  frame.pop_back();
  Result<RemotingCommand> decoded = DecodeCommand(frame);
  ASSERT_FALSE(decoded.ok());
  EXPECT_TRUE(decoded.status().IsCorruption());
  EXPECT_NE(decoded.status().message().find("past the frame end"), std::string::npos);
}

TEST(RemotingCommandTest, RejectsUnknownSerializeType) {
  std::string frame = GoldenJsonFrame().substr(4);
  frame[0] = 2;
  Result<RemotingCommand> decoded = DecodeCommand(frame);
  ASSERT_FALSE(decoded.ok());
  EXPECT_TRUE(decoded.status().IsCorruption());
  EXPECT_NE(decoded.status().message().find("serialize type 2"), std::string::npos);
}

TEST(RemotingCommandTest, RejectsUnparsableHeader) {
  std::string frame("\x00\x00\x00\x05{code", 9);
  Result<RemotingCommand> decoded = DecodeCommand(frame);
  ASSERT_FALSE(decoded.ok());
  EXPECT_TRUE(decoded.status().IsCorruption());
  EXPECT_NE(decoded.status().message().find("JSON header"), std::string::npos);
}

TEST(RemotingCommandTest, LanguageNamesRoundTrip) {
  for (uint8_t code = 0; code <= 13; ++code) {
    const LanguageCode language = LanguageFromCode(code);
    EXPECT_EQ(static_cast<uint8_t>(language), code);
    EXPECT_EQ(LanguageFromName(LanguageName(language)), language);
  }
  EXPECT_EQ(LanguageName(LanguageCode::kNodeJs), "NODE_JS");
  EXPECT_EQ(LanguageName(LanguageCode::kCpp), "CPP");
  EXPECT_EQ(LanguageFromName("COBOL"), LanguageCode::kOther);
  EXPECT_EQ(LanguageFromName("java"), LanguageCode::kOther);  // enum names are case-sensitive
  EXPECT_EQ(LanguageFromCode(99), LanguageCode::kOther);
}

TEST(ExtFieldsTest, SetReplacesGetFindsEraseRemoves) {
  ExtFields fields;
  EXPECT_TRUE(fields.empty());
  fields.Set("a", "1");
  fields.Set("b", "2");
  fields.Set("a", "3");
  EXPECT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields.Get("a"), "3");
  EXPECT_TRUE(fields.Has("b"));
  EXPECT_FALSE(fields.Get("c").has_value());
  EXPECT_TRUE(fields.Erase("a"));
  EXPECT_FALSE(fields.Erase("a"));
  EXPECT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields.begin()->first, "b");
  fields.clear();
  EXPECT_TRUE(fields.empty());
}

TEST(ExtFieldsTest, ManyKeysStayLinearAndOrdered) {
  // 100k distinct keys: quadratic lookups took seconds here (issue 12).
  ExtFields fields;
  for (int i = 0; i < 100000; ++i) fields.Set("key" + std::to_string(i), std::to_string(i));
  fields.Set("key5", "again");  // replaces in place
  ASSERT_EQ(fields.size(), 100000u);
  EXPECT_EQ(fields.Get("key99999"), "99999");
  EXPECT_EQ(fields.Get("key5"), "again");
  EXPECT_EQ(fields.begin()->first, "key0");
  EXPECT_TRUE(fields.Erase("key0"));
  EXPECT_FALSE(fields.Has("key0"));
  EXPECT_EQ(fields.Get("key1"), "1");
  EXPECT_EQ(fields.begin()->first, "key1");
}

// The key filter skips comparisons only where no held key could match: a model map must agree
// on every Set, Get, FindNear and Erase, over keys that share lengths and first and last bytes.
TEST(ExtFieldsTest, TheKeyFilterNeverHidesAKey) {
  const std::vector<std::string> keys = {"",      "a",     "b",     "n",       "aa",          "ab",
                                         "ba",    "topic", "tapic", "queueId", "queueOffset", "qd",
                                         "bname", "batch"};
  std::mt19937 rng(13);
  for (int round = 0; round < 200; ++round) {
    ExtFields fields;
    std::vector<std::pair<std::string, std::string>> model;
    for (int op = 0; op < 40; ++op) {
      const std::string& key = keys[rng() % keys.size()];
      auto held =
          std::find_if(model.begin(), model.end(), [&](const auto& e) { return e.first == key; });
      switch (rng() % 3) {
        case 0: {
          const std::string value = std::to_string(op);
          fields.Set(key, value);
          if (held != model.end()) {
            held->second = value;
          } else {
            model.emplace_back(key, value);
          }
          break;
        }
        case 1:
          EXPECT_EQ(fields.Erase(key), held != model.end()) << key;
          if (held != model.end()) model.erase(held);
          break;
        default: {
          size_t hint = rng() % 8;
          const size_t at = fields.FindNear(key, &hint);
          if (held == model.end()) {
            EXPECT_FALSE(fields.Get(key).has_value()) << key;
            EXPECT_EQ(at, ExtFields::npos) << key;
          } else {
            EXPECT_EQ(fields.Get(key), held->second) << key;
            ASSERT_NE(at, ExtFields::npos) << key;
            EXPECT_EQ(fields.value_at(at), held->second) << key;
            EXPECT_EQ(hint, at + 1);
          }
          break;
        }
      }
      ASSERT_EQ(fields.size(), model.size());
    }
  }
}

// A header read in the order its keys were written finds each at the first place looked;
// any other order, a hint past the end and an indexed (large) map still find every key.
TEST(ExtFieldsTest, FindNearSearchesFromTheHintAndRound) {
  ExtFields fields;
  for (const char* key : {"a", "b", "c", "d"}) fields.Set(key, std::string("v") + key);
  size_t hint = 0;
  for (const char* key : {"a", "b", "c", "d"}) {
    const size_t at = fields.FindNear(key, &hint);
    ASSERT_NE(at, ExtFields::npos);
    EXPECT_EQ(fields.value_at(at), std::string("v") + key);
  }
  EXPECT_EQ(hint, 4u);
  EXPECT_EQ(fields.value_at(fields.FindNear("a", &hint)), "va");  // round from the end
  EXPECT_EQ(hint, 1u);
  hint = 99;
  EXPECT_EQ(fields.value_at(fields.FindNear("c", &hint)), "vc");
  EXPECT_EQ(fields.FindNear("e", &hint), ExtFields::npos);

  ExtFields many;
  for (int i = 0; i < 40; ++i) many.Set("k" + std::to_string(i), std::to_string(i));
  hint = 7;
  EXPECT_EQ(many.value_at(many.FindNear("k3", &hint)), "3");
  EXPECT_EQ(many.FindNear("k40", &hint), ExtFields::npos);
}

std::string FrameWithFields(SerializeType type, int fields) {
  RemotingCommand command = RemotingCommand::MakeRequest(10);
  command.serialize_type = type;
  command.opaque = 42;
  for (int i = 0; i < fields; ++i) command.ext_fields.Set("f" + std::to_string(i), "v");
  std::string frame;
  EncodeCommand(command, &frame);
  return frame.substr(4);
}

TEST(RemotingCommandLimitsTest, TooManyExtFieldsIsInvalidArgumentWithCodeAndOpaque) {
  for (SerializeType type : {SerializeType::kJson, SerializeType::kRocketMQ}) {
    DecodeLimits limits;
    limits.max_ext_fields = 50;
    EXPECT_TRUE(DecodeCommand(FrameWithFields(type, 50), limits).ok());
    RemotingCommand command;
    Status st = DecodeCommandInto(FrameWithFields(type, 51), limits, &command);
    EXPECT_TRUE(st.Is(StatusCode::kInvalidArgument)) << st.ToString();
    EXPECT_NE(st.message().find("limit of 50"), std::string::npos) << st.message();
    EXPECT_EQ(command.code, 10);
    EXPECT_EQ(command.opaque, 42);
    EXPECT_LE(command.ext_fields.size(), 50u);
  }
}

TEST(RemotingCommandLimitsTest, JsonDuplicatesAndNullsCountAsMembers) {
  std::string header = "{\"code\":10,\"extFields\":{";
  for (int i = 0; i < 40; ++i) header += "\"a\":\"1\",\"a\":null,";
  header += "\"b\":\"2\"},\"opaque\":7}";
  std::string frame(4, '\0');
  EncodeFixed32(reinterpret_cast<uint8_t*>(frame.data()), static_cast<uint32_t>(header.size()));
  frame += header;
  DecodeLimits limits;
  limits.max_ext_fields = 50;
  EXPECT_TRUE(DecodeCommand(frame, limits).status().Is(StatusCode::kInvalidArgument));
  limits.max_ext_fields = 81;
  auto decoded = DecodeCommand(frame, limits);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->ext_fields.size(), 1u);
}

TEST(RemotingCommandLimitsTest, OversizedHeaderIsCorruptionBeforeParsing) {
  DecodeLimits limits;
  limits.max_header_length = 64;
  std::string frame = FrameWithFields(SerializeType::kJson, 20);
  Result<RemotingCommand> decoded = DecodeCommand(frame, limits);
  EXPECT_TRUE(decoded.status().Is(StatusCode::kCorruption));
  EXPECT_NE(decoded.status().message().find("limit of 64 bytes"), std::string::npos);
  limits.max_header_length = 0;
  EXPECT_TRUE(DecodeCommand(frame, limits).ok());
}

}  // namespace
}  // namespace apogee::protocol
