#include "client/pull_api_wrapper.h"

#include <gtest/gtest.h>

#include "client/consumer_subscription.h"
#include "message/message_format.h"
#include "message/message_record.h"
#include "protocol/response_code.h"

namespace apogee::client {
namespace {

const protocol::MessageQueue kMq{"T", "broker-a", 1};

std::string Record(int64_t queue_offset, const std::string& tags, const std::string& body) {
  message::MessageProperties props;
  if (!tags.empty()) {
    EXPECT_TRUE(props.Set(message::kPropertyTags, tags).ok());
  }
  const std::string encoded = props.Encode();
  message::RecordFields f;
  f.queue_id = 1;
  f.queue_offset = queue_offset;
  f.physical_offset = 1000 + queue_offset;
  f.body = body;
  f.topic = "T";
  f.properties = encoded;
  f.born_host = message::HostAddress::IPv4(127, 0, 0, 1, 1);
  f.store_host = message::HostAddress::IPv4(127, 0, 0, 1, 10911);
  auto r = message::EncodeRecordToString(f);
  EXPECT_TRUE(r.ok());
  return *r;
}

PullResponse Found(std::string body) {
  PullResponse r;
  r.code = protocol::response_code::kSuccess;
  r.header.next_begin_offset = 9;
  r.header.min_offset = 0;
  r.header.max_offset = 9;
  r.body = std::move(body);
  return r;
}

TEST(PullApiWrapperTest, FoundDecodesAndFiltersByExactTag) {
  auto sub = BuildSubscriptionData("T", "TagA", 1);
  ASSERT_TRUE(sub.ok());
  auto result = ProcessPullResponse(
      Found(Record(6, "TagA", "a") + Record(7, "TagB", "b") + Record(8, "", "untagged")), kMq,
      *sub);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->status, PullStatus::kFound);
  EXPECT_EQ(result->next_begin_offset, 9);
  ASSERT_EQ(result->msgs.size(), 1u);
  EXPECT_EQ(result->msgs[0].body(), "a");
  EXPECT_EQ(result->msgs[0].queue_offset(), 6);
  EXPECT_EQ(result->msgs[0].broker_name(), "broker-a");
  EXPECT_EQ(result->msgs[0].GetProperty(message::kPropertyMaxOffset), "9");
}

TEST(PullApiWrapperTest, StarKeepsEverything) {
  auto sub = BuildSubscriptionData("T", "*", 1);
  auto result = ProcessPullResponse(Found(Record(0, "x", "a") + Record(1, "", "b")), kMq, *sub);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->msgs.size(), 2u);
}

TEST(PullApiWrapperTest, OtherCodes) {
  auto sub = BuildSubscriptionData("T", "*", 1);
  PullResponse r;
  r.header.next_begin_offset = 42;
  r.code = protocol::response_code::kPullNotFound;
  EXPECT_EQ(ProcessPullResponse(r, kMq, *sub)->status, PullStatus::kNoNewMsg);
  r.code = protocol::response_code::kPullRetryImmediately;
  EXPECT_EQ(ProcessPullResponse(r, kMq, *sub)->status, PullStatus::kNoMatchedMsg);
  r.code = protocol::response_code::kPullOffsetMoved;
  auto moved = ProcessPullResponse(r, kMq, *sub);
  EXPECT_EQ(moved->status, PullStatus::kOffsetIllegal);
  EXPECT_EQ(moved->next_begin_offset, 42);
  r.code = 1;
  EXPECT_FALSE(ProcessPullResponse(r, kMq, *sub).ok());
}

TEST(PullApiWrapperTest, GarbageBodyIsCorruptionNamingTheQueue) {
  auto sub = BuildSubscriptionData("T", "*", 1);
  auto result = ProcessPullResponse(Found("garbage-bytes-not-a-record"), kMq, *sub);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("queueId=1"), std::string::npos)
      << result.status().ToString();
}

}  // namespace
}  // namespace apogee::client
