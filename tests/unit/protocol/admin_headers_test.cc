#include "protocol/admin_headers.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(AdminHeadersTest, CreateTopicAsMqadminSendsIt) {
  ExtFields f;
  for (const auto& [k, v] : {std::pair{"topic", "T"},
                             {"defaultTopic", "TBW102"},
                             {"readQueueNums", "8"},
                             {"writeQueueNums", "8"},
                             {"perm", "6"},
                             {"topicFilterType", "SINGLE_TAG"},
                             {"topicSysFlag", "0"},
                             {"order", "false"},
                             {"bname", "broker-a"}}) {
    f.Set(k, v);
  }
  auto h = HeaderFromExtFields<CreateTopicRequestHeader>(f);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->read_queue_nums, 8);
  EXPECT_EQ(h->perm, 6);
  EXPECT_EQ(h->topic_filter_type, "SINGLE_TAG");
  EXPECT_EQ(h->topic_sys_flag, 0);
  EXPECT_FALSE(h->order);
  EXPECT_FALSE(h->force);
  f.Erase("order");
  EXPECT_EQ(HeaderFromExtFields<CreateTopicRequestHeader>(f).status().message(),
            "the custom field order is null");
}

TEST(AdminHeadersTest, OldGetAllTopicConfigWithoutExtFieldsIsAccepted) {
  RemotingCommand request = RemotingCommand::MakeRequest(21);
  auto h = DecodeCustomHeader<GetAllTopicConfigRequestHeader>(request);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->topic_seq, 0);
  request.has_ext_fields = true;
  request.ext_fields.Set("dataVersion", "x");
  EXPECT_EQ(DecodeCustomHeader<GetAllTopicConfigRequestHeader>(request).status().message(),
            "the custom field topicSeq is null");
}

TEST(AdminHeadersTest, DeleteSubscriptionGroupReadsBothSpellings) {
  ExtFields old_style;
  old_style.Set("groupName", "G");
  old_style.Set("removeOffset", "true");
  auto h = HeaderFromExtFields<DeleteSubscriptionGroupRequestHeader>(old_style);
  ASSERT_TRUE(h.ok());
  EXPECT_FALSE(h->clean_offset);
  EXPECT_EQ(h->remove_offset, true);
  ExtFields new_style;
  new_style.Set("groupName", "G");
  new_style.Set("cleanOffset", "true");
  h = HeaderFromExtFields<DeleteSubscriptionGroupRequestHeader>(new_style);
  ASSERT_TRUE(h.ok());
  EXPECT_TRUE(h->clean_offset);
  EXPECT_FALSE(h->remove_offset.has_value());
}

TEST(AdminHeadersTest, StatsAndQueueHeaders) {
  ExtFields f;
  f.Set("consumerGroup", "G");
  auto stats = HeaderFromExtFields<GetConsumeStatsRequestHeader>(f);
  ASSERT_TRUE(stats.ok());
  EXPECT_FALSE(stats->topic.has_value());
  ASSERT_TRUE(HeaderFromExtFields<GetConsumerConnectionListRequestHeader>(f).ok());
  auto cq = HeaderFromExtFields<QueryConsumeQueueRequestHeader>(f);
  ASSERT_TRUE(cq.ok());
  EXPECT_EQ(cq->consumer_group, "G");
  ExtFields out;
  HeaderToExtFields(*cq, &out);
  EXPECT_EQ(out.Get("queueId"), "0");
  EXPECT_EQ(out.Get("index"), "0");
  EXPECT_EQ(out.Get("count"), "0");
  EXPECT_FALSE(out.Has("topic"));

  ExtFields clone;
  clone.Set("srcGroup", "A");
  clone.Set("destGroup", "B");
  clone.Set("offline", "true");
  auto c = HeaderFromExtFields<CloneGroupOffsetRequestHeader>(clone);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->offline);
  EXPECT_EQ(HeaderFromExtFields<ViewBrokerStatsDataRequestHeader>(clone).status().message(),
            "the custom field statsName is null");
}

TEST(AdminHeadersTest, RedriveDlqNeedsOnlyTheGroupAndAnswersCounts) {
  ExtFields f;
  f.Set("consumerGroup", "G");
  auto h = HeaderFromExtFields<RedriveDlqMessageRequestHeader>(f);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->consumer_group, "G");
  EXPECT_FALSE(h->max_count.has_value());
  EXPECT_FALSE(h->topic.has_value());
  f.Set("maxCount", "50");
  f.Set("topic", "T");
  h = HeaderFromExtFields<RedriveDlqMessageRequestHeader>(f);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->max_count, 50);
  EXPECT_EQ(h->topic, "T");
  EXPECT_EQ(HeaderFromExtFields<RedriveDlqMessageRequestHeader>(ExtFields{}).status().message(),
            "the custom field consumerGroup is null");

  RedriveDlqMessageResponseHeader r;
  r.redriven = 3;
  r.failed = 1;
  r.skipped = 2;
  r.next_offset = 6;
  ExtFields out;
  HeaderToExtFields(r, &out);
  EXPECT_EQ(out.Get("redriven"), "3");
  EXPECT_EQ(out.Get("nextOffset"), "6");
  auto back = HeaderFromExtFields<RedriveDlqMessageResponseHeader>(out);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->failed, 1);
  EXPECT_EQ(back->skipped, 2);
}

}  // namespace
}  // namespace apogee::protocol
