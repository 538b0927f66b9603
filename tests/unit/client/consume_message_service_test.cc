#include "client/consume_message_service.h"

#include <gtest/gtest.h>

#include "message/message_format.h"

namespace apogee::client {
namespace {

TEST(ConsumeMessageServiceTest, ResetRetryTopicRestoresTheOriginalTopic) {
  MessageExt msg;
  msg.set_topic("%RETRY%G");
  msg.PutProperty(message::kPropertyRetryTopic, "Orders");
  ResetRetryTopic("G", msg);
  EXPECT_EQ(msg.topic(), "Orders");

  MessageExt other;  // another group's retry topic is left alone
  other.set_topic("%RETRY%H");
  other.PutProperty(message::kPropertyRetryTopic, "Orders");
  ResetRetryTopic("G", other);
  EXPECT_EQ(other.topic(), "%RETRY%H");
}

TEST(ConsumeMessageServiceTest, ConsumeDirectlyResultJsonAsFastjson) {
  ConsumeDirectlyResult r;
  r.order = false;
  r.auto_commit = true;
  r.consume_result = "CR_SUCCESS";
  r.remark = "say \"hi\"";
  r.spent_time_millis = 3;
  EXPECT_EQ(
      EncodeConsumeDirectlyResult(r),
      R"({"autoCommit":true,"consumeResult":"CR_SUCCESS","order":false,"remark":"say \"hi\"","spentTimeMills":3})");
}

}  // namespace
}  // namespace apogee::client
