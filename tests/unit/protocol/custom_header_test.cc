#include "protocol/custom_header.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace apogee::protocol {
namespace {

// One field of every supported kind.
struct SampleHeader {
  std::string name;
  int32_t count = 0;
  int64_t offset = 0;
  bool flag = false;
  int32_t primitive = 7;
  std::optional<std::string> note;
  std::optional<int32_t> maybe_int;
  std::optional<int64_t> maybe_long;
  std::optional<bool> maybe_bool;

  static constexpr auto Fields() {
    using H = SampleHeader;
    return std::make_tuple(
        Required("name", &H::name), Required("count", &H::count), Required("offset", &H::offset),
        Required("flag", &H::flag), Optional("primitive", &H::primitive),
        Optional("note", &H::note), Optional("maybeInt", &H::maybe_int),
        Optional("maybeLong", &H::maybe_long), Optional("maybeBool", &H::maybe_bool));
  }
};

ExtFields Complete() {
  ExtFields f;
  f.Set("name", "n");
  f.Set("count", "-3");
  f.Set("offset", "9223372036854775807");
  f.Set("flag", "TRUE");
  return f;
}

TEST(CustomHeaderTest, ReadsEveryType) {
  ExtFields f = Complete();
  f.Set("primitive", "+12");
  f.Set("note", "");
  f.Set("maybeInt", "5");
  f.Set("maybeLong", "-9223372036854775808");
  f.Set("maybeBool", "false");
  f.Set("unknown", "ignored");
  Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(f);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->name, "n");
  EXPECT_EQ(h->count, -3);
  EXPECT_EQ(h->offset, std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(h->flag);
  EXPECT_EQ(h->primitive, 12);
  EXPECT_EQ(h->note, "");
  EXPECT_EQ(h->maybe_int, 5);
  EXPECT_EQ(h->maybe_long, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(h->maybe_bool, false);
}

TEST(CustomHeaderTest, AbsentOptionalsKeepDefaults) {
  Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(Complete());
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->primitive, 7);
  EXPECT_FALSE(h->note.has_value());
  EXPECT_FALSE(h->maybe_int.has_value());
  EXPECT_FALSE(h->maybe_bool.has_value());
}

TEST(CustomHeaderTest, MissingRequiredFieldGivesJavasMessage) {
  for (const char* key : {"name", "count", "offset", "flag"}) {
    ExtFields f = Complete();
    f.Erase(key);
    Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(f);
    ASSERT_FALSE(h.ok()) << key;
    EXPECT_EQ(h.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(h.status().message(), std::string("the custom field ") + key + " is null");
  }
}

TEST(CustomHeaderTest, UnparsableNumberIsAbsent) {
  ExtFields f = Complete();
  f.Set("maybeInt", "12x");
  f.Set("maybeLong", " 1");
  f.Set("primitive", "2147483648");  // overflows int
  Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(f);
  ASSERT_TRUE(h.ok());
  EXPECT_FALSE(h->maybe_int.has_value());
  EXPECT_FALSE(h->maybe_long.has_value());
  EXPECT_EQ(h->primitive, 7);

  // ... and then the required check applies.
  for (const char* bad : {"", "1.0", "abc", "99999999999", "+-1", "-"}) {
    f = Complete();
    f.Set("count", bad);
    Result<SampleHeader> r = HeaderFromExtFields<SampleHeader>(f);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().message(), "the custom field count is null");
  }
}

TEST(CustomHeaderTest, BooleansFollowBooleanParseBoolean) {
  for (const auto& [text, expected] :
       {std::pair{"true", true}, {"True", true}, {"false", false}, {"yes", false}, {"1", false}}) {
    ExtFields f = Complete();
    f.Set("maybeBool", text);
    Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(f);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->maybe_bool, expected) << text;
  }
}

TEST(CustomHeaderTest, WritesJavaToStringAndSkipsNulls) {
  SampleHeader h;
  h.name = "n";
  h.count = -1;
  h.offset = 1795947434518;
  h.flag = true;
  h.maybe_bool = false;
  ExtFields f;
  HeaderToExtFields(h, &f);
  EXPECT_EQ(f.Get("name"), "n");
  EXPECT_EQ(f.Get("count"), "-1");
  EXPECT_EQ(f.Get("offset"), "1795947434518");
  EXPECT_EQ(f.Get("flag"), "true");
  EXPECT_EQ(f.Get("primitive"), "7");  // primitives are always sent
  EXPECT_EQ(f.Get("maybeBool"), "false");
  EXPECT_FALSE(f.Has("note"));
  EXPECT_FALSE(f.Has("maybeInt"));
  EXPECT_EQ(f.size(), 6u);
}

TEST(CustomHeaderTest, RoundTripsThroughACommand) {
  SampleHeader h;
  h.name = "x";
  h.count = 2;
  h.offset = -5;
  h.note = "text";
  h.maybe_long = 0;
  RemotingCommand command = RemotingCommand::MakeRequest(10);
  EncodeCustomHeader(h, &command);
  EXPECT_TRUE(command.has_ext_fields);
  Result<SampleHeader> back = DecodeCustomHeader<SampleHeader>(command);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->name, "x");
  EXPECT_EQ(back->count, 2);
  EXPECT_EQ(back->offset, -5);
  EXPECT_FALSE(back->flag);
  EXPECT_EQ(back->note, "text");
  EXPECT_EQ(back->maybe_long, 0);
  EXPECT_FALSE(back->maybe_int.has_value());
}

TEST(CustomHeaderTest, CommandWithoutExtFieldsSkipsRequiredChecks) {
  RemotingCommand command = RemotingCommand::MakeRequest(21);
  Result<SampleHeader> h = DecodeCustomHeader<SampleHeader>(command);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->name, "");
  // An empty but present extFields object does not.
  command.has_ext_fields = true;
  EXPECT_FALSE(DecodeCustomHeader<SampleHeader>(command).ok());
}

TEST(CustomHeaderTest, JavaIntegerParsing) {
  EXPECT_EQ(ParseJavaInt("0"), 0);
  EXPECT_EQ(ParseJavaInt("-2147483648"), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(ParseJavaInt("+7"), 7);
  EXPECT_EQ(ParseJavaInt("007"), 7);
  EXPECT_FALSE(ParseJavaInt("2147483648").has_value());
  EXPECT_FALSE(ParseJavaInt("").has_value());
  EXPECT_FALSE(ParseJavaInt("+").has_value());
  EXPECT_FALSE(ParseJavaInt("1 ").has_value());
  EXPECT_FALSE(ParseJavaInt("0x10").has_value());
  EXPECT_EQ(ParseJavaLong("1795947434518"), 1795947434518);
  EXPECT_FALSE(ParseJavaLong("9223372036854775808").has_value());
}

}  // namespace
}  // namespace apogee::protocol
