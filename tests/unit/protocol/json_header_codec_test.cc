#include "protocol/json_header_codec.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <fstream>
#include <string>
#include <vector>
#include "testutil/test_paths.h"

namespace apogee::protocol {
namespace {

Result<RemotingCommand> Decode(std::string_view json) {
  RemotingCommand command;
  Status status = DecodeJsonHeader(json, 0, &command);
  if (!status.ok()) return status;
  return command;
}

TEST(JsonHeaderCodecTest, CoercesScalarExtFieldsToJavaStrings) {
  auto decoded = Decode(
      R"({"code":11,"extFields":{"queueId":0,"maxMsgNums":32,"big":1795947434518,)"
      R"("neg":-5,"k":false,"t":true,"s":"x","d":1.5,"gone":null},"language":"CPP","opaque":5})");
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const ExtFields& f = decoded->ext_fields;
  EXPECT_EQ(f.Get("queueId"), "0");
  EXPECT_EQ(f.Get("maxMsgNums"), "32");
  EXPECT_EQ(f.Get("big"), "1795947434518");
  EXPECT_EQ(f.Get("neg"), "-5");
  EXPECT_EQ(f.Get("k"), "false");
  EXPECT_EQ(f.Get("t"), "true");
  EXPECT_EQ(f.Get("s"), "x");
  EXPECT_EQ(f.Get("d"), "1.5");
  EXPECT_FALSE(f.Has("gone"));
  EXPECT_EQ(f.size(), 8u);
  EXPECT_EQ(decoded->language, LanguageCode::kCpp);
  EXPECT_TRUE(decoded->has_ext_fields);
}

TEST(JsonHeaderCodecTest, AcceptsMissingOptionalMembersAndUnknownKeys) {
  auto decoded =
      Decode(R"({"code":34,"language":"KLINGON","opaque":2,"x":{"y":[1,{"z":2}]},"w":[]})");
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->code, 34);
  EXPECT_EQ(decoded->opaque, 2);
  EXPECT_EQ(decoded->flag, 0);
  EXPECT_EQ(decoded->version, 0);
  EXPECT_EQ(decoded->language, LanguageCode::kOther);
  EXPECT_FALSE(decoded->remark.has_value());
  EXPECT_FALSE(decoded->has_ext_fields);
  EXPECT_TRUE(decoded->ext_fields.empty());
}

TEST(JsonHeaderCodecTest, NullRemarkAndExtFieldsAreAbsent) {
  auto decoded = Decode(R"({"code":1,"remark":null,"extFields":null,"flag":null})");
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_FALSE(decoded->remark.has_value());
  EXPECT_FALSE(decoded->has_ext_fields);
}

TEST(JsonHeaderCodecTest, EmptyRemarkAndEmptyExtFieldsArePresent) {
  auto decoded = Decode(R"({"code":1,"remark":"","extFields":{}})");
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->remark, "");
  EXPECT_TRUE(decoded->has_ext_fields);
}

TEST(JsonHeaderCodecTest, AcceptsQuotedNumbersAndLanguageOrdinals) {
  auto decoded = Decode(R"({"code":"105","opaque":"-3","language":9,"version":"317"})");
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->code, 105);
  EXPECT_EQ(decoded->opaque, -3);
  EXPECT_EQ(decoded->language, LanguageCode::kGo);
  EXPECT_EQ(decoded->version, 317);
}

TEST(JsonHeaderCodecTest, RejectsBadShapesWithAReason) {
  struct Case {
    std::string_view json;
    std::string_view reason;
  };
  const std::vector<Case> cases = {
      {"", "unparsable JSON header"},
      {"[1]", "array"},
      {"12", "scalar"},
      {R"({"code":"abc"})", "code is not an int32: abc"},
      {R"({"code":4294967296})", "code is not an int32"},
      {R"({"opaque":1.5})", "opaque is not an int32"},
      {R"({"flag":true})", "flag is not an int32"},
      {R"({"code":{}})", "code is an object"},
      {R"({"extFields":[]})", "extFields is an array"},
      {R"({"extFields":"a"})", "extFields is a scalar"},
      {R"({"extFields":{"a":{}}})", "value of a is an object"},
      {R"({"extFields":{"a":[1]}})", "value of a is an array"},
      {R"({"code":1} x)", "unparsable JSON header"},
      {std::string_view("{\"code\":1}\0x", 12), "NUL byte"},
      {R"({"code":1)", "unparsable JSON header"},
  };
  for (const Case& c : cases) {
    auto decoded = Decode(c.json);
    ASSERT_FALSE(decoded.ok()) << c.json;
    EXPECT_TRUE(decoded.status().IsCorruption());
    EXPECT_NE(decoded.status().message().find(c.reason), std::string::npos)
        << c.json << " -> " << decoded.status().message();
  }
}

TEST(JsonHeaderCodecTest, DeepNestingInUnknownMemberDoesNotOverflowTheStack) {
  std::string json =
      R"({"code":1,"deep":)" + std::string(100000, '[') + std::string(100000, ']') + "}";
  auto decoded = Decode(json);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->code, 1);
}

// Headers are parsed recursively up to a depth and parsed again iteratively past it: on both
// sides of that depth, with members before and after the deep one, the result is the same.
TEST(JsonHeaderCodecTest, NestingAroundTheRecursionLimitDecodesTheSame) {
  ExtFields expected;
  expected.Set("i", "p");
  expected.Set("a", "x");
  for (int depth : {1, 2, 30, 31, 32, 33, 34, 100, 5000}) {
    const std::string deep = std::string(depth, '[') + std::string(depth, ']');
    const std::string json = R"({"code":7,"extFields":{"i":"p","a":"y","a":"x"},"remark":"r","deep":)" +
                             deep + R"(,"opaque":5,"flag":1,"language":"GO"})";
    auto decoded = Decode(json);
    ASSERT_TRUE(decoded.ok()) << "depth " << depth << ": " << decoded.status().ToString();
    EXPECT_EQ(decoded->code, 7);
    EXPECT_EQ(decoded->opaque, 5);
    EXPECT_EQ(decoded->flag, 1);
    EXPECT_EQ(decoded->language, LanguageCode::kGo);
    EXPECT_EQ(decoded->remark, "r");
    EXPECT_TRUE(decoded->has_ext_fields);
    EXPECT_EQ(decoded->ext_fields, expected) << "depth " << depth;
    // Broken past the depth: the iterative parse reports it.
    auto broken = Decode(R"({"code":7,"deep":)" + std::string(depth, '[') + "}");
    ASSERT_FALSE(broken.ok()) << "depth " << depth;
    EXPECT_NE(broken.status().message().find("unparsable JSON header"), std::string::npos);
  }
}

// A command that already holds ext fields keeps them (and takes the header's), as before.
TEST(JsonHeaderCodecTest, DecodingIntoACommandWithExtFieldsAddsToThem) {
  for (int depth : {1, 40}) {
    RemotingCommand command;
    command.ext_fields.Set("z", "kept");
    const std::string json = R"({"code":3,"extFields":{"a":"1"},"deep":)" +
                             std::string(depth, '[') + std::string(depth, ']') + "}";
    ASSERT_TRUE(DecodeJsonHeader(json, kDefaultMaxExtFields, &command).ok());
    EXPECT_EQ(command.code, 3);
    EXPECT_EQ(command.ext_fields.Get("z"), "kept");
    EXPECT_EQ(command.ext_fields.Get("a"), "1");
  }
}

TEST(JsonHeaderCodecTest, EncodesCompactSortedWithStringValues) {
  RemotingCommand command;
  command.code = 19;
  command.flag = kFlagResponse;
  command.opaque = 1234;
  command.version = 479;
  command.remark = "OFFSET_OVERFLOW_ONE";
  command.ext_fields.Set("maxOffset", "42");
  command.ext_fields.Set("quote\"\n", "\x01\x02");
  std::string out;
  EncodeJsonHeader(command, &out);
  EXPECT_EQ(out, R"({"code":19,"extFields":{"maxOffset":"42","quote\"\n":"\u0001\u0002"},"flag":1,)"
                 R"("language":"JAVA","opaque":1234,"remark":"OFFSET_OVERFLOW_ONE",)"
                 R"("serializeTypeCurrentRPC":"JSON","version":479})");
}

// What RapidJSON 1.1's writer (default flags) makes of the header: the encoder writes it by
// hand and must give the same bytes.
std::string RapidJsonHeader(const RemotingCommand& command) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  auto str = [&](std::string_view s) {
    writer.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  };
  auto key = [&](std::string_view s) {
    writer.Key(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  };
  writer.StartObject();
  key("code");
  writer.Int(command.code);
  if (command.has_ext_fields || !command.ext_fields.empty()) {
    key("extFields");
    writer.StartObject();
    for (const auto& [k, v] : command.ext_fields) {
      key(k);
      str(v);
    }
    writer.EndObject();
  }
  key("flag");
  writer.Int(command.flag);
  key("language");
  str(LanguageName(command.language));
  key("opaque");
  writer.Int(command.opaque);
  if (command.remark) {
    key("remark");
    str(*command.remark);
  }
  key("serializeTypeCurrentRPC");
  str("JSON");
  key("version");
  writer.Int(command.version);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

TEST(JsonHeaderCodecTest, EncodesEveryByteAsRapidJsonDoes) {
  RemotingCommand command;
  command.code = -2147483647 - 1;
  command.opaque = 2147483647;
  command.version = -1;
  std::string every_byte;
  for (int b = 0; b < 256; ++b) {
    const std::string value = "a" + std::string(1, static_cast<char>(b)) + "z";
    command.ext_fields.Set(value, value + value);
    every_byte.push_back(static_cast<char>(b));
  }
  command.ext_fields.Set("all", every_byte);
  command.ext_fields.Set("utf8 and broken utf8", "r\xC3\xA9mark \xC3 \xFF\xFE");
  command.remark = every_byte + every_byte;
  std::string out;
  EncodeJsonHeader(command, &out);
  EXPECT_EQ(out, RapidJsonHeader(command));
  // And what it writes reads back.
  auto decoded = Decode(out);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->ext_fields.Get("a\"z"), "a\"za\"z");
}

// The encoder skips 8 bytes at a time: a byte that needs an escape must be found at every
// position of a word, in strings of every length around that size, and read back unchanged.
TEST(JsonHeaderCodecTest, EscapesAtEveryPositionOfAWordRoundTrip) {
  const std::string specials = std::string("\0\x01\x02\x1f\"\\\x7f\x80\xff \t", 11);
  for (size_t length = 1; length <= 40; ++length) {
    for (size_t at = 0; at < length; ++at) {
      for (char special : specials) {
        RemotingCommand command;
        command.has_ext_fields = true;
        std::string value(length, 'x');
        value[at] = special;
        command.ext_fields.Set("k", value);
        command.remark = value;
        std::string out;
        EncodeJsonHeader(command, &out);
        ASSERT_EQ(out, RapidJsonHeader(command)) << "length " << length << " at " << at;
        auto decoded = Decode(out);
        ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
        ASSERT_EQ(decoded->ext_fields.Get("k"), value) << "length " << length << " at " << at;
        ASSERT_EQ(decoded->remark, value);
      }
    }
  }
}

// A raw control character in a string is refused wherever it falls, and an unterminated string
// ends at the header's end whatever its length.
TEST(JsonHeaderCodecTest, RawControlCharactersAreRefusedAtEveryPosition) {
  for (size_t length = 1; length <= 40; ++length) {
    for (size_t at = 0; at < length; ++at) {
      for (char raw : {'\x01', '\x19', '\x1a', '\x1f'}) {
        std::string value(length, 'x');
        value[at] = raw;
        for (const std::string& header :
             {R"({"code":1,"remark":")" + value + R"("})",
              R"({"code":1,"extFields":{"k":")" + value + R"("}})"}) {
          auto decoded = Decode(header);
          ASSERT_FALSE(decoded.ok()) << "length " << length << " at " << at << " byte " << int(raw);
        }
      }
    }
  }
}

TEST(JsonHeaderCodecTest, UnterminatedStringsOfEveryLengthAreRejected) {
  for (size_t length = 0; length <= 64; ++length) {
    const std::string header = R"({"code":1,"remark":")" + std::string(length, 'r');
    auto decoded = Decode(header);
    ASSERT_FALSE(decoded.ok()) << "length " << length;
    EXPECT_NE(decoded.status().message().find("unparsable JSON header"), std::string::npos)
        << decoded.status().ToString();
  }
}

TEST(JsonHeaderCodecTest, OmitsNullRemarkAndAbsentExtFields) {
  RemotingCommand command;
  command.code = 0;
  command.language = LanguageCode::kGo;
  std::string out;
  EncodeJsonHeader(command, &out);
  EXPECT_EQ(
      out,
      R"({"code":0,"flag":0,"language":"GO","opaque":0,"serializeTypeCurrentRPC":"JSON","version":0})");
  command.has_ext_fields = true;
  out.clear();
  EncodeJsonHeader(command, &out);
  EXPECT_NE(out.find(R"("extFields":{})"), std::string::npos);
}

TEST(JsonHeaderCodecTest, RoundTripsThroughEncodeAndDecode) {
  RemotingCommand command;
  command.code = -7;
  command.language = LanguageCode::kNodeJs;
  command.version = 121;
  command.opaque = -2147483647 - 1;
  command.flag = kFlagOneway;
  command.remark = "r\xC3\xA9mark";
  command.has_ext_fields = true;
  command.ext_fields.Set("i", "TAGS\x01TagA\x02KEYS\x01k\x02");
  command.ext_fields.Set("", "");
  std::string out;
  EncodeJsonHeader(command, &out);
  auto decoded = Decode(out);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->code, command.code);
  EXPECT_EQ(decoded->language, command.language);
  EXPECT_EQ(decoded->version, command.version);
  EXPECT_EQ(decoded->opaque, command.opaque);
  EXPECT_EQ(decoded->flag, command.flag);
  EXPECT_EQ(decoded->remark, command.remark);
  EXPECT_EQ(decoded->ext_fields, command.ext_fields);
}

// Every request ali-ons 3.12 and the official C++ client 1.2 sent in a real run: rebuild
// the header with each extField's JSON type as captured, decode it, and check every value
// comes out in its Java toString form.
class ClientRequestFixtureTest : public ::testing::TestWithParam<std::string> {};

std::string JavaString(const rapidjson::Value& v) {
  if (v.IsString()) return std::string(v.GetString(), v.GetStringLength());
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  ADD_FAILURE() << "fixture value of unexpected type " << v.GetType();
  return "";
}

std::string_view JsonTypeName(const rapidjson::Value& v) {
  if (v.IsString()) return "string";
  if (v.IsBool()) return "boolean";
  if (v.IsNumber()) return "number";
  return "other";
}

TEST_P(ClientRequestFixtureTest, EveryExtFieldDecodesToItsJavaString) {
  const std::string path =
      ::apogee::testing::FixturesDir() + "/client-requests/" + GetParam();
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  int requests = 0;
  int non_string_values = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    rapidjson::Document record;
    record.Parse(line.data(), line.size());
    ASSERT_FALSE(record.HasParseError()) << line;
    ++requests;

    // The header as the client put it on the wire (values keep their JSON types).
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    writer.StartObject();
    for (const char* key : {"code", "flag", "opaque", "version"}) {
      writer.Key(key);
      writer.Int(record[key].GetInt());
    }
    writer.Key("language");
    writer.String(record["language"].GetString());
    writer.Key("extFields");
    record["extFields"].Accept(writer);
    writer.EndObject();

    auto decoded = Decode(std::string_view(buffer.GetString(), buffer.GetSize()));
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString() << " in " << line;
    EXPECT_EQ(decoded->code, record["code"].GetInt());
    EXPECT_EQ(decoded->opaque, record["opaque"].GetInt());
    EXPECT_EQ(decoded->version, record["version"].GetInt());
    EXPECT_EQ(LanguageName(decoded->language), record["language"].GetString());
    const rapidjson::Value& ext = record["extFields"];
    const rapidjson::Value& types = record["extFieldTypes"];
    EXPECT_EQ(decoded->ext_fields.size(), ext.MemberCount()) << line;
    for (auto it = ext.MemberBegin(); it != ext.MemberEnd(); ++it) {
      const std::string key = it->name.GetString();
      ASSERT_TRUE(types.HasMember(key.c_str()));
      EXPECT_EQ(JsonTypeName(it->value), types[key.c_str()].GetString()) << key;
      if (!it->value.IsString()) ++non_string_values;
      EXPECT_EQ(decoded->ext_fields.Get(key), JavaString(it->value)) << key << " in " << line;
    }
  }
  EXPECT_GT(requests, 40);
  EXPECT_GT(non_string_values, 0);  // the point of these fixtures
}

INSTANTIATE_TEST_SUITE_P(Clients, ClientRequestFixtureTest,
                         ::testing::Values("ali-ons-3.12.0.jsonl",
                                           "rocketmq-client-cpp-1.2.jsonl"));

}  // namespace
}  // namespace apogee::protocol
