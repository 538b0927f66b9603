#include "protocol/client_headers.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(ClientHeadersTest, ResetOffsetAlwaysSendsItsPrimitives) {
  ResetOffsetRequestHeader h;
  h.group = "G";
  h.topic = "T";
  h.timestamp = 1700000000000;
  ExtFields f;
  HeaderToExtFields(h, &f);
  EXPECT_EQ(f.Get("queueId"), "-1");
  EXPECT_EQ(f.Get("isForce"), "false");
  EXPECT_EQ(f.Get("timestamp"), "1700000000000");
  EXPECT_FALSE(f.Has("offset"));
  auto back = HeaderFromExtFields<ResetOffsetRequestHeader>(f);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->queue_id, -1);
  f.Erase("isForce");
  EXPECT_EQ(HeaderFromExtFields<ResetOffsetRequestHeader>(f).status().message(),
            "the custom field isForce is null");
}

TEST(ClientHeadersTest, CheckTransactionStateAndNotify) {
  CheckTransactionStateRequestHeader h;
  h.tran_state_table_offset = 3;
  h.commit_log_offset = 4;
  h.msg_id = "U";
  ExtFields f;
  HeaderToExtFields(h, &f);
  EXPECT_EQ(f.size(), 3u);
  auto back = HeaderFromExtFields<CheckTransactionStateRequestHeader>(f);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->commit_log_offset, 4);
  EXPECT_EQ(back->msg_id, "U");

  ExtFields n;
  HeaderToExtFields(NotifyConsumerIdsChangedRequestHeader{"G1"}, &n);
  EXPECT_EQ(n.Get("consumerGroup"), "G1");
}

TEST(ClientHeadersTest, AdminToClientHeaders) {
  ExtFields f;
  f.Set("consumerGroup", "G");
  f.Set("clientId", "127.0.0.1@1");
  f.Set("jstackEnable", "true");
  auto info = HeaderFromExtFields<GetConsumerRunningInfoRequestHeader>(f);
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->jstack_enable);
  auto direct = HeaderFromExtFields<ConsumeMessageDirectlyResultRequestHeader>(f);
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(direct->client_id, "127.0.0.1@1");
  EXPECT_EQ(HeaderFromExtFields<GetConsumerStatusRequestHeader>(f).status().message(),
            "the custom field topic is null");
}

}  // namespace
}  // namespace apogee::protocol
