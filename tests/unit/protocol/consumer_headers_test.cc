#include "protocol/consumer_headers.h"

#include <gtest/gtest.h>

#include "client_request_fixtures.h"
#include "protocol/request_code.h"

namespace apogee::protocol {
namespace {

template <typename H>
void ExpectDecodes(const testing::FixtureRequest& r) {
  Result<H> h = DecodeCustomHeader<H>(r.command);
  EXPECT_TRUE(h.ok()) << r.source << ": " << h.status().ToString();
}

TEST(ConsumerHeadersTest, EveryConsumerRequestRealClientsMadeDecodes) {
  int pulls = 0;
  int others = 0;
  for (const auto& r : testing::LoadClientRequests()) {
    switch (r.command.code) {
      case request_code::kPullMessage: {
        ++pulls;
        Result<PullMessageRequestHeader> h =
            DecodeCustomHeader<PullMessageRequestHeader>(r.command);
        ASSERT_TRUE(h.ok()) << r.source << ": " << h.status().ToString();
        EXPECT_EQ(h->consumer_group, "G1") << r.source;
        EXPECT_EQ(h->topic, "TopicTest") << r.source;
        EXPECT_EQ(h->max_msg_nums, 32) << r.source;
        EXPECT_GT(h->suspend_timeout_millis, 0) << r.source;
        EXPECT_GE(h->queue_offset, 0) << r.source;
        break;
      }
      case request_code::kQueryConsumerOffset:
        ++others;
        ExpectDecodes<QueryConsumerOffsetRequestHeader>(r);
        break;
      case request_code::kUpdateConsumerOffset:
        ++others;
        ExpectDecodes<UpdateConsumerOffsetRequestHeader>(r);
        break;
      case request_code::kGetConsumerListByGroup:
        ++others;
        ExpectDecodes<GetConsumerListByGroupRequestHeader>(r);
        break;
      case request_code::kUnregisterClient:
        ++others;
        ExpectDecodes<UnregisterClientRequestHeader>(r);
        break;
      default:
        break;
    }
  }
  EXPECT_GT(pulls, 0);
  EXPECT_GT(others, 4);
}

TEST(ConsumerHeadersTest, PullResponseHeaderAsTheFactSheetShowsIt) {
  PullMessageResponseHeader h;
  h.next_begin_offset = 42;
  h.max_offset = 42;
  h.topic_sys_flag = 0;
  h.group_sys_flag = 0;
  ExtFields f;
  HeaderToExtFields(h, &f);
  EXPECT_EQ(f.Get("suggestWhichBrokerId"), "0");
  EXPECT_EQ(f.Get("nextBeginOffset"), "42");
  EXPECT_EQ(f.Get("minOffset"), "0");
  EXPECT_EQ(f.Get("maxOffset"), "42");
  EXPECT_EQ(f.Get("topicSysFlag"), "0");
  EXPECT_FALSE(f.Has("offsetDelta"));
  EXPECT_EQ(f.size(), 6u);
}

TEST(ConsumerHeadersTest, PullRequestFromGoWithEmptySubscription) {
  ExtFields f;
  for (const auto& [k, v] : {std::pair{"consumerGroup", "G"},
                             {"topic", "T"},
                             {"queueId", "1"},
                             {"queueOffset", "0"},
                             {"maxMsgNums", "32"},
                             {"sysFlag", "2"},
                             {"commitOffset", "0"},
                             {"suspendTimeoutMillis", "20000"},
                             {"subscription", ""},
                             {"subVersion", "0"},
                             {"expressionType", "TAG"},
                             {"bname", ""}}) {
    f.Set(k, v);
  }
  auto h = HeaderFromExtFields<PullMessageRequestHeader>(f);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->subscription, "");
  EXPECT_EQ(h->expression_type, "TAG");
  EXPECT_EQ(h->suspend_timeout_millis, 20000);
  f.Erase("subVersion");
  EXPECT_EQ(HeaderFromExtFields<PullMessageRequestHeader>(f).status().message(),
            "the custom field subVersion is null");
}

TEST(ConsumerHeadersTest, OffsetQueriesAndAnswers) {
  ExtFields f;
  f.Set("topic", "T");
  f.Set("queueId", "3");
  f.Set("timestamp", "1700000000000");
  auto search = HeaderFromExtFields<SearchOffsetRequestHeader>(f);
  ASSERT_TRUE(search.ok());
  EXPECT_EQ(search->timestamp, 1700000000000);
  EXPECT_FALSE(search->boundary_type.has_value());
  auto max = HeaderFromExtFields<GetMaxOffsetRequestHeader>(f);
  ASSERT_TRUE(max.ok());
  EXPECT_TRUE(max->committed);  // Java's default when absent
  auto min = HeaderFromExtFields<GetMinOffsetRequestHeader>(f);
  ASSERT_TRUE(min.ok());
  EXPECT_EQ(min->queue_id, 3);
  ASSERT_TRUE(HeaderFromExtFields<GetEarliestMsgStoretimeRequestHeader>(f).ok());

  ExtFields out;
  HeaderToExtFields(GetMaxOffsetResponseHeader{77}, &out);
  HeaderToExtFields(GetEarliestMsgStoretimeResponseHeader{1234}, &out);
  HeaderToExtFields(QueryMessageResponseHeader{5, 6}, &out);
  EXPECT_EQ(out.Get("offset"), "77");
  EXPECT_EQ(out.Get("timestamp"), "1234");
  EXPECT_EQ(out.Get("indexLastUpdateTimestamp"), "5");
  EXPECT_EQ(out.Get("indexLastUpdatePhyoffset"), "6");
}

TEST(ConsumerHeadersTest, ViewAndQueryMessage) {
  ExtFields f;
  f.Set("offset", "4096");
  auto view = HeaderFromExtFields<ViewMessageRequestHeader>(f);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->offset, 4096);
  EXPECT_FALSE(view->topic.has_value());
  ExtFields q;
  q.Set("topic", "T");
  q.Set("key", "k");
  q.Set("maxNum", "64");
  q.Set("beginTimestamp", "0");
  EXPECT_EQ(HeaderFromExtFields<QueryMessageRequestHeader>(q).status().message(),
            "the custom field endTimestamp is null");
}

}  // namespace
}  // namespace apogee::protocol
