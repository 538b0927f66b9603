#include "dashboard/api_request.h"

#include <gtest/gtest.h>

namespace apogee::dashboard {
namespace {

TEST(ApiRequestTest, PercentDecodeHandlesEscapesPlusAndRejectsBrokenEscapes) {
  EXPECT_EQ(PercentDecode("a%20b+c%2Fd"), std::optional<std::string>("a b c/d"));
  EXPECT_EQ(PercentDecode("%25RETRY%25G"), std::optional<std::string>("%RETRY%G"));
  EXPECT_EQ(PercentDecode(""), std::optional<std::string>(""));
  EXPECT_EQ(PercentDecode("%"), std::nullopt);
  EXPECT_EQ(PercentDecode("%2"), std::nullopt);
  EXPECT_EQ(PercentDecode("abc%4"), std::nullopt);
  EXPECT_EQ(PercentDecode("%zz"), std::nullopt);
}

TEST(ApiRequestTest, ParseTargetSplitsPathAndParams) {
  ApiRequest r;
  ASSERT_TRUE(ParseTarget("/api/topic?topic=%25DLQ%25G&x=1&flag&=v&&y=a%3Db", &r).ok());
  EXPECT_EQ(r.path, "/api/topic");
  EXPECT_EQ(r.Get("topic"), "%DLQ%G");
  EXPECT_EQ(r.Get("x"), "1");
  EXPECT_EQ(r.Get("y"), "a=b");
  EXPECT_TRUE(r.params.count("flag"));
  EXPECT_FALSE(r.Has("flag"));  // present but empty
  EXPECT_FALSE(ParseTarget("/api/x?a=%G0", &r).ok());
  EXPECT_FALSE(ParseTarget("/api/%", &r).ok());
}

TEST(ApiRequestTest, TypedAccessorsNameTheParameter) {
  ApiRequest r;
  r.params = {{"n", "12"}, {"big", "99999999999"}, {"bad", "1x"}, {"b", "true"}, {"nb", "yes"}};
  EXPECT_EQ(*r.Int32("n"), 12);
  EXPECT_EQ(*r.Int64("big"), 99999999999);
  EXPECT_EQ(*r.Int32("missing", 7), 7);
  auto big = r.Int32("big");
  ASSERT_FALSE(big.ok());
  EXPECT_TRUE(big.status().Is(StatusCode::kInvalidArgument));
  EXPECT_NE(big.status().message().find("big"), std::string::npos);
  EXPECT_FALSE(r.Int64("bad").ok());
  auto missing = r.Int64("missing");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "missing parameter missing");
  EXPECT_TRUE(*r.Bool("b", false));
  EXPECT_FALSE(*r.Bool("absent", false));
  EXPECT_FALSE(r.Bool("nb", false).ok());
  EXPECT_FALSE(r.Required("absent").ok());
}

TEST(ApiRequestTest, JsonBodyFlattensScalarsAndRefusesNesting) {
  ApiRequest r;
  ASSERT_TRUE(ParseJsonBody(R"({"topic":"T","readQueueNums":8,"order":false,"x":null})", &r).ok());
  EXPECT_EQ(r.Get("topic"), "T");
  EXPECT_EQ(r.Get("readQueueNums"), "8");
  EXPECT_EQ(r.Get("order"), "false");
  EXPECT_FALSE(r.params.count("x"));
  ASSERT_TRUE(ParseJsonBody("  ", &r).ok());
  auto nested = ParseJsonBody(R"({"a":{"b":1}})", &r);
  EXPECT_TRUE(nested.Is(StatusCode::kInvalidArgument)) << nested.ToString();
  EXPECT_TRUE(ParseJsonBody(R"({"a":[1]})", &r).Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(ParseJsonBody("[1,2]", &r).Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(ParseJsonBody("{\"a\":", &r).Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(ParseJsonBody("topic=T", &r).Is(StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace apogee::dashboard
