#include "protocol/lock_batch_body.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(LockBatchBodyTest, DecodesCppClientRequest) {
  // The C++ client sends only these three keys.
  Result<LockBatchRequestBody> body = DecodeLockBatchRequestBody(
      R"({"consumerGroup":"G1","clientId":"1314-127.0.0.1@c","mqSet":[)"
      R"({"topic":"T","brokerName":"b","queueId":1},{"topic":"T","brokerName":"b","queueId":"0"}]})");
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(body->consumer_group, "G1");
  EXPECT_EQ(body->client_id, "1314-127.0.0.1@c");
  EXPECT_FALSE(body->only_this_broker);
  ASSERT_EQ(body->mq_set.size(), 2u);
  EXPECT_EQ(body->mq_set.begin()->queue_id, 0);  // ordered like MessageQueue.compareTo
}

TEST(LockBatchBodyTest, RequestRoundTrip) {
  LockBatchRequestBody body;
  body.consumer_group = "G";
  body.client_id = "c";
  body.only_this_broker = true;
  body.mq_set = {{"T", "b", 3}, {"A", "b", 0}};
  const std::string json = EncodeLockBatchRequestBody(body);
  EXPECT_EQ(
      json,
      R"({"clientId":"c","consumerGroup":"G","mqSet":[{"brokerName":"b","queueId":0,"topic":"A"},)"
      R"({"brokerName":"b","queueId":3,"topic":"T"}],"onlyThisBroker":true})");
  Result<LockBatchRequestBody> back = DecodeLockBatchRequestBody(json);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, body);
}

TEST(LockBatchBodyTest, ResponseRoundTrip) {
  LockBatchResponseBody body;
  body.lock_ok_mq_set = {{"T", "b", 1}};
  const std::string json = EncodeLockBatchResponseBody(body);
  EXPECT_EQ(json, R"({"lockOKMQSet":[{"brokerName":"b","queueId":1,"topic":"T"}]})");
  Result<LockBatchResponseBody> back = DecodeLockBatchResponseBody(json);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, body);
  Result<LockBatchResponseBody> empty = DecodeLockBatchResponseBody("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->lock_ok_mq_set.empty());
}

TEST(LockBatchBodyTest, RejectsBadQueues) {
  Result<LockBatchRequestBody> no_queue_id =
      DecodeLockBatchRequestBody(R"({"mqSet":[{"topic":"T","brokerName":"b"}]})");
  ASSERT_FALSE(no_queue_id.ok());
  EXPECT_NE(no_queue_id.status().message().find("mqSet[0].queueId is missing"), std::string::npos)
      << no_queue_id.status().ToString();
  EXPECT_FALSE(DecodeLockBatchRequestBody(R"({"mqSet":["T"]})").ok());
  EXPECT_FALSE(DecodeLockBatchRequestBody("").ok());
}

TEST(LockBatchBodyTest, MessageQueueHelpers) {
  const MessageQueue mq{"T", "b", 2};
  EXPECT_EQ(ToString(mq), "MessageQueue [topic=T, brokerName=b, queueId=2]");
  Result<MessageQueue> back = DecodeMessageQueue(EncodeMessageQueue(mq));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, mq);
  EXPECT_LT((MessageQueue{"T", "a", 9}), (MessageQueue{"T", "b", 0}));
}

}  // namespace
}  // namespace apogee::protocol
