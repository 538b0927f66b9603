#include "protocol/json_util.h"

#include <gtest/gtest.h>

#include <string>

namespace apogee::protocol::json {
namespace {

TEST(JsonUtilTest, QuoteBareKeysQuotesOnlyKeys) {
  EXPECT_EQ(QuoteBareKeys(R"({0:"10.0.0.5:10911",1:"a,b:{c}"})"),
            R"({"0":"10.0.0.5:10911","1":"a,b:{c}"})");
  EXPECT_EQ(QuoteBareKeys(R"({"a":[{x:1},{ y : -2}],"b":{}})"),
            R"({"a":[{"x":1},{ "y" : -2}],"b":{}})");
  // Array elements and values are never keys; escapes inside strings are kept.
  EXPECT_EQ(QuoteBareKeys(R"({"k":[1,2,true],"s":"q\"{0:1}"})"),
            R"({"k":[1,2,true],"s":"q\"{0:1}"})");
  EXPECT_EQ(QuoteBareKeys("[1,{2:3}]"), R"([1,{"2":3}])");
}

TEST(JsonUtilTest, ParseObjectAcceptsFastjsonFormsAndNamesErrors) {
  Document doc;
  ASSERT_TRUE(ParseObject(R"( {0:"a", "n": 12} )", "X", &doc).ok());
  ASSERT_TRUE(doc.HasMember("0"));
  EXPECT_TRUE(doc["n"].IsString());  // numbers are kept as text

  Status s = ParseObject("[1]", "TopicList", &doc);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.message(), "TopicList is not a JSON object");
  s = ParseObject("{\"a\":", "KVTable", &doc);
  EXPECT_NE(s.message().find("KVTable is not JSON"), std::string::npos);
  s = ParseObject("{} x", "KVTable", &doc);
  EXPECT_NE(s.message().find("trailing"), std::string::npos);
}

TEST(JsonUtilTest, ReadersCoerceLikeFastjson) {
  Document doc;
  ASSERT_TRUE(
      ParseObject(R"({"i":"12","j":7,"s":5,"b":"TRUE","c":0,"n":null,"bad":"x","o":{}})", "T", &doc)
          .ok());
  int32_t i = 0;
  ASSERT_TRUE(ReadInt32(doc, "i", "T", &i).ok());
  EXPECT_EQ(i, 12);
  int64_t j = 0;
  ASSERT_TRUE(ReadInt64(doc, "j", "T", &j).ok());
  EXPECT_EQ(j, 7);
  std::string s;
  ASSERT_TRUE(ReadString(doc, "s", "T", &s).ok());
  EXPECT_EQ(s, "5");
  bool b = false;
  ASSERT_TRUE(ReadBool(doc, "b", "T", &b).ok());
  EXPECT_TRUE(b);
  b = true;
  ASSERT_TRUE(ReadBool(doc, "c", "T", &b).ok());
  EXPECT_FALSE(b);
  i = 99;
  ASSERT_TRUE(ReadInt32(doc, "n", "T", &i).ok());  // null = absent
  EXPECT_EQ(i, 99);
  EXPECT_EQ(ReadInt32(doc, "missing", "T", &i, /*required=*/true).message(),
            "T.missing is missing");
  EXPECT_EQ(ReadInt32(doc, "bad", "T", &i).message(),
            "T.bad: expected a 32-bit integer, got \"x\"");
  EXPECT_EQ(ReadString(doc, "o", "T", &s).message(), "T.o: expected a string, got an object");
  EXPECT_FALSE(FindArray(doc, "o", "T").ok());
}

TEST(JsonUtilTest, NumericKeysBareOrQuoted) {
  for (bool quoted : {false, true}) {
    std::string out;
    StringAppendStream stream(&out);
    Writer w(stream);
    w.StartObject();
    NumericKey(w, 0, quoted);
    String(w, "a");
    NumericKey(w, 1, quoted);
    String(w, "b");
    w.EndObject();
    EXPECT_EQ(out, quoted ? R"({"0":"a","1":"b"})" : R"({0:"a",1:"b"})");
  }
}

}  // namespace
}  // namespace apogee::protocol::json
