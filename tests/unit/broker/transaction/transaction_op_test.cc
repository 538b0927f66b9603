#include "broker/transaction/transaction_op.h"

#include <gtest/gtest.h>

namespace apogee::broker {
namespace {

TEST(TransactionOpTest, WritesTheJava49Form) {
  EXPECT_EQ(EncodeTransOpBody(0), "0");
  EXPECT_EQ(EncodeTransOpBody(1234567890123), "1234567890123");
}

TEST(TransactionOpTest, ReadsBothJavaForms) {
  auto one = DecodeTransOpBody("17");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, std::vector<int64_t>{17});
  auto many = DecodeTransOpBody("17,18,20,");
  ASSERT_TRUE(many.ok());
  EXPECT_EQ(*many, (std::vector<int64_t>{17, 18, 20}));
  auto round_trip = DecodeTransOpBody(EncodeTransOpBody(99));
  ASSERT_TRUE(round_trip.ok());
  EXPECT_EQ(round_trip->front(), 99);
}

TEST(TransactionOpTest, RejectsBodiesThatNameNoOffset) {
  EXPECT_EQ(DecodeTransOpBody("").status().message(),
            "transaction op body '' names no half queue offset");
  EXPECT_EQ(DecodeTransOpBody(",").status().message(),
            "transaction op body ',' names no half queue offset");
  EXPECT_EQ(DecodeTransOpBody("17,x,").status().message(),
            "transaction op body '17,x,': 'x' is not a queue offset");
  EXPECT_FALSE(DecodeTransOpBody("-3").ok());
}

}  // namespace
}  // namespace apogee::broker
