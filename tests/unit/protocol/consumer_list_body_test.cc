#include "protocol/consumer_list_body.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(ConsumerListBodyTest, EncodesJavaShape) {
  GetConsumerListByGroupResponseBody body;
  body.consumer_id_list = {"10.0.0.1@a", "10.0.0.2@b"};
  EXPECT_EQ(EncodeConsumerListBody(body), R"({"consumerIdList":["10.0.0.1@a","10.0.0.2@b"]})");
  Result<GetConsumerListByGroupResponseBody> back =
      DecodeConsumerListBody(EncodeConsumerListBody(body));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, body);
}

TEST(ConsumerListBodyTest, MissingListIsEmptyAndBadIdsFail) {
  Result<GetConsumerListByGroupResponseBody> empty = DecodeConsumerListBody("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->consumer_id_list.empty());
  Result<GetConsumerListByGroupResponseBody> bad =
      DecodeConsumerListBody(R"({"consumerIdList":[{}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("consumerIdList[0]"), std::string::npos);
  EXPECT_FALSE(DecodeConsumerListBody(R"({"consumerIdList":"a"})").ok());
}

}  // namespace
}  // namespace apogee::protocol
