// MixAll names and builders.
#include "protocol/mix_all.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(MixAllTest, RetryAndDlqTopics) {
  EXPECT_EQ(RetryTopic("G1"), "%RETRY%G1");
  EXPECT_EQ(DlqTopic("G1"), "%DLQ%G1");
  EXPECT_TRUE(IsRetryTopic("%RETRY%G1"));
  EXPECT_FALSE(IsRetryTopic("%DLQ%G1"));
  EXPECT_TRUE(IsDlqTopic("%DLQ%G1"));
  EXPECT_FALSE(IsDlqTopic("TopicTest"));
  EXPECT_FALSE(IsRetryTopic("RETRY%G1"));
}

TEST(MixAllTest, ReplyTopicAndMaster) {
  EXPECT_EQ(ReplyTopic("DefaultCluster"), "DefaultCluster_REPLY_TOPIC");
  EXPECT_EQ(kMasterId, 0);
  EXPECT_EQ(kDlqNumsPerGroup, 1);
  EXPECT_EQ(kOrderTopicConfigNamespace, "ORDER_TOPIC_CONFIG");
}

}  // namespace
}  // namespace apogee::protocol
