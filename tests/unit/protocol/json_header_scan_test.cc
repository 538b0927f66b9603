#include "protocol/json_header_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "protocol/json_header_codec.h"
#include "unit/protocol/expect_same_header.h"

namespace apogee::protocol {
namespace {

// What a Java 4.9 producer sends (SEND_MESSAGE_V2, one-letter keys) and what a broker answers.
constexpr std::string_view kJavaSendRequest =
    R"({"code":310,"extFields":{"a":"please_rename_unique_group_name","b":"BenchmarkTest",)"
    R"("c":"TBW102","d":"4","e":"3","f":"0","g":"1764720000000","h":"0",)"
    R"("i":"UNIQ_KEY\u0001C0A8000100002A9F0000000000000001\u0002WAIT\u0001true\u0002",)"
    R"("j":"0","k":"false","m":"false"},"flag":0,"language":"JAVA","opaque":42,)"
    R"("serializeTypeCurrentRPC":"JSON","version":401})";
constexpr std::string_view kSendAnswer =
    R"({"code":0,"extFields":{"MSG_REGION":"DefaultRegion","TRACE_ON":"true",)"
    R"("msgId":"C000020200005D670000000015081E6A","queueId":"101","queueOffset":"289",)"
    R"("transactionId":"C0000202772AFC5805850B2096210000"},"flag":1,"language":"JAVA",)"
    R"("opaque":1,"serializeTypeCurrentRPC":"JSON","version":401})";

struct Decoded {
  Status status;
  RemotingCommand command;
};

Decoded Fully(std::string_view json, uint32_t max_ext_fields) {
  Decoded d;
  d.status = DecodeJsonHeaderFully(json, max_ext_fields, &d.command);
  return d;
}

Decoded WithScan(std::string_view json, uint32_t max_ext_fields) {
  Decoded d;
  d.status = DecodeJsonHeader(json, max_ext_fields, &d.command);
  return d;
}

// The scan must change nothing but the cost: same status (its message too) and, when the
// header decodes, the same command.
void ExpectSameAsFullParser(std::string_view json, uint32_t max_ext_fields = 0) {
  SCOPED_TRACE(testing::Message() << "header: " << testing::PrintToString(std::string(json)));
  Decoded full = Fully(json, max_ext_fields);
  Decoded scanned = WithScan(json, max_ext_fields);
  EXPECT_EQ(scanned.status.ToString(), full.status.ToString());
  if (!full.status.ok()) return;
  ExpectSameHeader(scanned.command, full.command);
}

bool Scans(std::string_view json, uint32_t max_ext_fields = 0) {
  RemotingCommand command;
  return TryDecodeFlatJsonHeader(json, max_ext_fields, &command);
}

TEST(JsonHeaderScanTest, ScansWhatPeersWrite) {
  EXPECT_TRUE(Scans(kSendAnswer));
  ExpectSameAsFullParser(kSendAnswer);
  // A send request's properties are escaped (\u0001, \u0002): decoded by the scan too.
  EXPECT_TRUE(Scans(kJavaSendRequest));
  ExpectSameAsFullParser(kJavaSendRequest);
  RemotingCommand request;
  ASSERT_TRUE(TryDecodeFlatJsonHeader(kJavaSendRequest, 0, &request));
  EXPECT_EQ(request.ext_fields.Get("i"),
            "UNIQ_KEY\x01" "C0A8000100002A9F0000000000000001\x02WAIT\x01true\x02");
  EXPECT_EQ(request.ext_fields.Get("b"), "BenchmarkTest");
  RemotingCommand answer;
  ASSERT_TRUE(TryDecodeFlatJsonHeader(kSendAnswer, 0, &answer));
  EXPECT_EQ(answer.code, 0);
  EXPECT_EQ(answer.flag, 1);
  EXPECT_EQ(answer.opaque, 1);
  EXPECT_EQ(answer.version, 401);
  EXPECT_EQ(answer.language, LanguageCode::kJava);
  EXPECT_EQ(answer.ext_fields.Get("queueOffset"), "289");
  EXPECT_EQ(answer.ext_fields.Get("msgId"), "C000020200005D670000000015081E6A");
  EXPECT_EQ(answer.ext_fields.size(), 6u);
}

TEST(JsonHeaderScanTest, ScansScalarFormsLikeTheFullParser) {
  const std::vector<std::string_view> headers = {
      "{}",
      R"({"code":-7,"opaque":"12","flag":null,"version":0})",
      R"({"code":1,"remark":"no route","language":"GO","x":true,"y":false,"z":null,"w":-0})",
      R"({"code":1,"remark":null,"extFields":null})",
      R"({"code":1,"extFields":{}})",
      R"({"code":1,"extFields":{"a":"1","a":"2","b":null,"c":17,"d":true,"e":false}})",
      R"({"code":1,"extFields":{"a":"1"},"extFields":{"b":"2"},"extFields":null})",
      R"({"code":1,"extFields":{"a":"1"},"extFields":{"a":null}})",
      "{\"code\":1,\"remark\":\"caf\xC3\xA9 \xFF raw bytes\"}",
      R"({"code":1,"language":"KLINGON","opaque":2147483647})",
      // Escapes: two-letter ones, \u of every width of UTF-8, a surrogate pair, NUL, and
      // escaped member names.
      R"({"code":1,"remark":"a\"b\\c\/d\be\ff\ng\rh\ti"})",
      R"({"code":1,"remark":"a\u0001b\u0000c\u007F\u0080\u07ff\u0800\uFFFF\ud83d\ude00"})",
      R"({"code":1,"extFields":{"k\u0001":"v\u0002","plain":"\"","\u0061":"x","a":"y"}})",
      R"({"co\u0064e":5,"remark":"\u00e9t\u00E9"})",
  };
  for (std::string_view json : headers) {
    EXPECT_TRUE(Scans(json)) << json;
    ExpectSameAsFullParser(json);
  }
}

TEST(JsonHeaderScanTest, LeavesEverythingElseToTheFullParser) {
  const std::vector<std::string_view> headers = {
      "",
      " {}",
      "{} ",
      R"({"code": 1})",
      // Escapes the full parser must judge: unknown, short, lone or unpaired surrogates.
      R"({"code":1,"remark":"a\xb"})",
      R"({"code":1,"remark":"a\u00"})",
      R"({"code":1,"remark":"a\u00G1"})",
      R"({"code":1,"remark":"a\udc00b"})",
      R"({"code":1,"remark":"a\ud800b"})",
      R"({"code":1,"remark":"a\ud800\u0041"})",
      R"({"code":1,"remark":"a\ud800\ud800"})",
      R"({"code":1,"remark":"a\)",
      "{\"code\":1,\"remark\":\"\\u0041\x01\"}",
      R"({"code":1.5})",
      R"({"code":1e3})",
      R"({"code":01})",
      R"({"code":2147483648})",
      R"({"code":true})",
      R"({"code":1,"language":3})",
      R"({"code":1,"remark":5})",
      R"({"code":1,"extFields":"x"})",
      R"({"code":1,"extFields":{"a":{"b":"c"}}})",
      R"({"code":1,"extFields":{"a":[1]}})",
      R"({"code":1,"extFields":{"a":1.25}})",
      R"({"code":1,"x":{"y":[1,{"z":2}]}})",
      R"({"code":1,"x":[]})",
      R"({"code":1,})",
      R"({"code":1}})",
      R"({"code":1}x)",
      R"({"code":1)",
      R"({"code")",
      R"({"code":tru})",
      R"({"code":nul})",
      R"([1])",
      R"("x")",
      std::string_view("{\"code\":1,\"remark\":\"a\0b\"}", 24),
      std::string_view("{\"code\":1}\0", 11),
      "{\"code\":1,\"remark\":\"a\x1f\"}",
  };
  for (std::string_view json : headers) {
    EXPECT_FALSE(Scans(json)) << testing::PrintToString(std::string(json));
    ExpectSameAsFullParser(json);
  }
}

TEST(JsonHeaderScanTest, TheExtFieldsLimitCountsEveryMember) {
  constexpr std::string_view json = R"({"code":1,"extFields":{"a":"1","b":null},"extFields":{"c":"3"}})";
  EXPECT_TRUE(Scans(json, 3));
  EXPECT_FALSE(Scans(json, 2));
  for (uint32_t limit : {0u, 1u, 2u, 3u}) ExpectSameAsFullParser(json, limit);
  Decoded over = WithScan(json, 2);
  EXPECT_TRUE(over.status.Is(StatusCode::kInvalidArgument)) << over.status.ToString();
  EXPECT_EQ(over.command.code, 1);  // still known, so the request can be answered
}

// A header of many short escaped values keeps its memory near its size: each value's room is
// capped, not the rest of the header (1024 members of a 512 KiB header held ~256 MiB).
TEST(JsonHeaderScanTest, EscapedValuesHoldLittleMoreThanTheirText) {
  std::string json = R"({"code":10,"extFields":{)";
  for (int i = 0; i < 1000; ++i) {
    if (i > 0) json += ',';
    json += "\"k" + std::to_string(i) + "\":\"\\u0001" + std::string(100, 'x') + "\"";
  }
  json += R"(},"flag":0})";
  RemotingCommand command;
  ASSERT_TRUE(TryDecodeFlatJsonHeader(json, 0, &command));
  ASSERT_EQ(command.ext_fields.size(), 1000u);
  size_t held = 0;
  for (const auto& [key, value] : command.ext_fields) {
    EXPECT_EQ(value.size(), 101u);
    held += value.capacity();
  }
  EXPECT_LT(held, 2 * json.size());
}

TEST(JsonHeaderScanTest, EveryTruncationDecodesAsTheFullParserDoes) {
  for (std::string_view json : {kJavaSendRequest, kSendAnswer}) {
    for (size_t n = 0; n < json.size(); ++n) ExpectSameAsFullParser(json.substr(0, n));
  }
}

// Mutations of real headers with the bytes that matter to JSON: a bad answer or request must
// end in the full parser's error (or the same command), never in a crash or a different result.
TEST(JsonHeaderScanTest, MutatedHeadersDecodeAsTheFullParserDoes) {
  using std::literals::string_view_literals::operator""sv;
  constexpr std::string_view kBytes = "{}[]\":,\\ -0123456789.eEtrufalsn\x01\x1f\x7f\xff\0x"sv;
  std::mt19937 rng(20261203);
  for (std::string_view seed : {kJavaSendRequest, kSendAnswer}) {
    for (int round = 0; round < 4000; ++round) {
      std::string json(seed);
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        const size_t at = rng() % (json.size() + 1);
        const char byte = kBytes[rng() % kBytes.size()];
        switch (rng() % 3) {
          case 0:
            json.insert(json.begin() + static_cast<std::ptrdiff_t>(at), byte);
            break;
          case 1:
            if (at < json.size()) json.erase(at, 1);
            break;
          default:
            if (at < json.size()) json[at] = byte;
        }
      }
      ExpectSameAsFullParser(json, round % 2 == 0 ? 0 : 8);
      if (testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace apogee::protocol
