#include "protocol/rocketmq_header_codec.h"

#include <gtest/gtest.h>

#include <string>

#include "base/coding.h"

namespace apogee::protocol {
namespace {

Result<RemotingCommand> Decode(std::string_view header) {
  RemotingCommand command;
  Status status = DecodeRocketMQHeader(header, 0, &command);
  if (!status.ok()) return status;
  return command;
}

// A header built field by field, so each test can break exactly one length.
std::string Header(int32_t remark_length, std::string_view remark, int32_t map_length,
                   std::string_view map) {
  std::string out;
  ByteWriter w(&out);
  w.PutI16(-2);   // code
  w.PutU8(9);     // GO
  w.PutI16(317);  // version
  w.PutI32(99);   // opaque
  w.PutI32(3);    // flag
  w.PutI32(remark_length);
  w.PutBytes(remark);
  w.PutI32(map_length);
  w.PutBytes(map);
  return out;
}

std::string Entry(std::string_view key, std::string_view value) {
  std::string out;
  ByteWriter w(&out);
  w.PutU16(static_cast<uint16_t>(key.size()));
  w.PutBytes(key);
  w.PutU32(static_cast<uint32_t>(value.size()));
  w.PutBytes(value);
  return out;
}

TEST(RocketMQHeaderCodecTest, DecodesEveryField) {
  const std::string map = Entry("a", "1") + Entry("bb", "") + Entry("a", "2");
  auto decoded = Decode(Header(2, "ok", static_cast<int32_t>(map.size()), map));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->code, -2);
  EXPECT_EQ(decoded->language, LanguageCode::kGo);
  EXPECT_EQ(decoded->version, 317);
  EXPECT_EQ(decoded->opaque, 99);
  EXPECT_EQ(decoded->flag, 3);
  EXPECT_EQ(decoded->remark, "ok");
  EXPECT_TRUE(decoded->has_ext_fields);
  EXPECT_EQ(decoded->ext_fields.size(), 2u);
  EXPECT_EQ(decoded->ext_fields.Get("a"), "2");
  EXPECT_EQ(decoded->ext_fields.Get("bb"), "");
}

TEST(RocketMQHeaderCodecTest, ZeroLengthsMeanNullRemarkAndNoExtFields) {
  auto decoded = Decode(Header(0, "", 0, ""));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_FALSE(decoded->remark.has_value());
  EXPECT_FALSE(decoded->has_ext_fields);
}

TEST(RocketMQHeaderCodecTest, IgnoresBytesAfterTheMapBlock) {
  auto decoded = Decode(Header(0, "", 0, "") + "junk");
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
}

TEST(RocketMQHeaderCodecTest, RejectsEveryBadLength) {
  struct Case {
    std::string header;
    std::string_view reason;
  };
  const std::string entry = Entry("key", "value");
  const std::vector<Case> cases = {
      {Header(0, "", 0, "").substr(0, 12), "shorter than its fixed part"},
      {Header(0, "", 0, "").substr(0, 15), "truncated in remark length"},
      {Header(5, "ab", 0, "").substr(0, 19), "remark length 5 exceeds"},
      {Header(-1, "", 0, ""), "remark length -1"},
      {Header(0, "", 0, "").substr(0, 19), "truncated in extFields length"},
      {Header(0, "", 100, entry), "extFields length 100 exceeds"},
      {Header(0, "", -4, ""), "extFields length -4"},
      {Header(0, "", 1, "x"), "truncated in extFields key length"},
      {Header(0, "", 4,
              std::string("\x00\x09"
                          "ab",
                          4)),
       "key length 9 exceeds the map block"},
      {Header(0, "", 4,
              std::string("\xff\xff"
                          "xx",
                          4)),
       "key length -1"},
      {Header(0, "", static_cast<int32_t>(entry.size() - 1), entry.substr(0, entry.size() - 1)),
       "extFields value length 5 exceeds"},
  };
  for (const Case& c : cases) {
    auto decoded = Decode(c.header);
    ASSERT_FALSE(decoded.ok()) << c.reason;
    EXPECT_TRUE(decoded.status().IsCorruption());
    EXPECT_NE(decoded.status().message().find(c.reason), std::string::npos)
        << decoded.status().message();
  }
}

TEST(RocketMQHeaderCodecTest, EncodeDecodeRoundTrip) {
  RemotingCommand command;
  command.code = 310;
  command.language = LanguageCode::kRust;
  command.version = 401;
  command.opaque = -1;
  command.flag = kFlagResponse;
  command.remark = "r";
  command.has_ext_fields = true;
  command.ext_fields.Set("k", std::string("\x00v", 2));
  command.ext_fields.Set("", "empty key");
  std::string out;
  EncodeRocketMQHeader(command, &out);
  EXPECT_EQ(out.size(), 21 + 1 + (2 + 1 + 4 + 2) + (2 + 0 + 4 + 9));
  auto decoded = Decode(out);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->code, 310);
  EXPECT_EQ(decoded->language, LanguageCode::kRust);
  EXPECT_EQ(decoded->version, 401);
  EXPECT_EQ(decoded->opaque, -1);
  EXPECT_EQ(decoded->flag, kFlagResponse);
  EXPECT_EQ(decoded->remark, "r");
  EXPECT_EQ(decoded->ext_fields, command.ext_fields);
}

TEST(RocketMQHeaderCodecTest, CodeIsCutToInt16AsJavaDoes) {
  RemotingCommand command;
  command.code = 200050;  // POP_MESSAGE
  std::string out;
  EncodeRocketMQHeader(command, &out);
  auto decoded = Decode(out);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->code, 3442);
}

}  // namespace
}  // namespace apogee::protocol
