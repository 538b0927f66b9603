#include "client/push_consumer_impl.h"

#include <gtest/gtest.h>

#include <ctime>

namespace apogee::client {
namespace {

TEST(ParseConsumeTimestampTest, LocalTimeAsJavaSimpleDateFormat) {
  std::tm tm{};
  tm.tm_year = 2024 - 1900;
  tm.tm_mon = 0;
  tm.tm_mday = 2;
  tm.tm_hour = 3;
  tm.tm_min = 4;
  tm.tm_sec = 5;
  tm.tm_isdst = -1;
  const int64_t expected = static_cast<int64_t>(std::mktime(&tm)) * 1000;
  auto parsed = ParseConsumeTimestamp("20240102030405");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, expected);
}

TEST(ParseConsumeTimestampTest, RejectsOtherShapes) {
  for (const char* bad :
       {"", "2024010203040", "2024-01-02 03:04", "20241302030405", "2024010203046x"}) {
    auto r = ParseConsumeTimestamp(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("consume_timestamp"), std::string::npos);
  }
}

TEST(PushConsumerImplTest, StartChecksTheConfig) {
  PushConsumerConfig config;
  config.client.namesrv_addr = "127.0.0.1:1";
  auto no_group = std::make_shared<PushConsumerImpl>(config);
  Status s = no_group->Start();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("group"), std::string::npos);

  config.group = "G";
  auto no_listener = std::make_shared<PushConsumerImpl>(config);
  s = no_listener->Start();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("listener"), std::string::npos);

  config.pull_batch_size = 0;
  auto bad_batch = std::make_shared<PushConsumerImpl>(config);
  bad_batch->RegisterMessageListener(
      [](const std::vector<MessageExt>&, ConsumeConcurrentlyContext&) {
        return ConsumeConcurrentlyStatus::kConsumeSuccess;
      });
  s = bad_batch->Start();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("pullBatchSize"), std::string::npos);
}

TEST(PushConsumerImplTest, SubscribeRejectsBadExpressionsBeforeStart) {
  PushConsumerConfig config;
  config.group = "G";
  auto consumer = std::make_shared<PushConsumerImpl>(config);
  EXPECT_TRUE(consumer->Subscribe("T", "a || b").ok());
  EXPECT_FALSE(consumer->Subscribe("", "*").ok());
  EXPECT_FALSE(consumer->Subscribe("T", "||").ok());
  EXPECT_TRUE(consumer->AssignedQueues().empty());
}

}  // namespace
}  // namespace apogee::client
