#include "protocol/pop_headers.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(PopHeadersTest, PopRequestAsThe5xProxySendsIt) {
  ExtFields f;
  for (const auto& [k, v] : {std::pair{"consumerGroup", "G"},
                             {"topic", "T"},
                             {"queueId", "-1"},
                             {"maxMsgNums", "32"},
                             {"invisibleTime", "60000"},
                             {"pollTime", "15000"},
                             {"bornTime", "1700000000000"},
                             {"initMode", "0"},
                             {"expType", "TAG"},
                             {"exp", "*"},
                             {"order", "false"}}) {
    f.Set(k, v);
  }
  auto h = HeaderFromExtFields<PopMessageRequestHeader>(f);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->queue_id, -1);
  EXPECT_EQ(h->invisible_time, 60000);
  EXPECT_EQ(h->order, false);
  EXPECT_FALSE(h->attempt_id.has_value());
  f.Erase("initMode");
  EXPECT_EQ(HeaderFromExtFields<PopMessageRequestHeader>(f).status().message(),
            "the custom field initMode is null");
}

TEST(PopHeadersTest, AckAndChangeInvisibleTimeCarryTheReceiptHandle) {
  ExtFields f;
  f.Set("consumerGroup", "G");
  f.Set("topic", "T");
  f.Set("queueId", "0");
  f.Set("extraInfo", "0 1700000000000 60000 0 0 broker-a 0 5");
  f.Set("offset", "5");
  auto ack = HeaderFromExtFields<AckMessageRequestHeader>(f);
  ASSERT_TRUE(ack.ok());
  EXPECT_EQ(ack->extra_info, "0 1700000000000 60000 0 0 broker-a 0 5");
  EXPECT_EQ(HeaderFromExtFields<ChangeInvisibleTimeRequestHeader>(f).status().message(),
            "the custom field invisibleTime is null");
}

TEST(PopHeadersTest, ResponsesAlwaysCarryTheirPrimitives) {
  ExtFields f;
  HeaderToExtFields(NotificationResponseHeader{true, false}, &f);
  EXPECT_EQ(f.Get("hasMsg"), "true");
  EXPECT_EQ(f.Get("pollingFull"), "false");
  ExtFields p;
  PopMessageResponseHeader pop;
  pop.rest_num = 3;
  HeaderToExtFields(pop, &p);
  EXPECT_EQ(p.size(), 4u);
  EXPECT_EQ(p.Get("restNum"), "3");
}

}  // namespace
}  // namespace apogee::protocol
