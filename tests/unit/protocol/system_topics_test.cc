// The system topic list: Java's TopicValidator sets, plus the timer topic Apogee also keeps
// clients from writing to.
#include "protocol/system_topics.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(SystemTopicsTest, JavaSystemTopics) {
  for (std::string_view t :
       {"TBW102", "SCHEDULE_TOPIC_XXXX", "BenchmarkTest", "RMQ_SYS_TRANS_HALF_TOPIC",
        "RMQ_SYS_TRACE_TOPIC", "RMQ_SYS_TRANS_OP_HALF_TOPIC", "TRANS_CHECK_MAX_TIME_TOPIC",
        "SELF_TEST_TOPIC", "OFFSET_MOVED_EVENT", "rmq_sys_wheel_timer", "rmq_sys_anything"}) {
    EXPECT_TRUE(IsSystemTopic(t)) << t;
  }
  for (std::string_view t :
       {"TopicTest", "%RETRY%G", "%DLQ%G", "RMQ_SYS_OTHER", "rmq_sys", "", "tbw102"}) {
    EXPECT_FALSE(IsSystemTopic(t)) << t;
  }
}

TEST(SystemTopicsTest, ClientsMayNotSendToInternalTopics) {
  for (std::string_view t : {"SCHEDULE_TOPIC_XXXX", "RMQ_SYS_TRANS_HALF_TOPIC",
                             "RMQ_SYS_TRANS_OP_HALF_TOPIC", "TRANS_CHECK_MAX_TIME_TOPIC",
                             "SELF_TEST_TOPIC", "OFFSET_MOVED_EVENT", "rmq_sys_wheel_timer",
                             "SCHEDULE_TOPIC_XXXX_V2", "rmq_sys_anything"}) {
    EXPECT_TRUE(IsNotAllowedSendTopic(t)) << t;
  }
  // System topics a client may name: the auto-create template, traces, the benchmark topic.
  for (std::string_view t :
       {"TBW102", "RMQ_SYS_TRACE_TOPIC", "BenchmarkTest", "TopicTest", "%RETRY%G"}) {
    EXPECT_FALSE(IsNotAllowedSendTopic(t)) << t;
  }
}

TEST(SystemTopicsTest, ParkingTopics) {
  for (std::string_view t : {"SCHEDULE_TOPIC_XXXX", "SCHEDULE_TOPIC_XXXX_V2",
                             "RMQ_SYS_TRANS_HALF_TOPIC", "RMQ_SYS_TRANS_OP_HALF_TOPIC",
                             "rmq_sys_wheel_timer"}) {
    EXPECT_TRUE(IsParkingTopic(t)) << t;
  }
  for (std::string_view t : {"TopicTest", "%RETRY%G", "RMQ_SYS_TRACE_TOPIC", "TBW102"}) {
    EXPECT_FALSE(IsParkingTopic(t)) << t;
  }
}

TEST(SystemTopicsTest, StoreDispatchNamesAreTheListedOnes) {
  EXPECT_EQ(kScheduleTopic, message::kScheduleTopic);
  EXPECT_EQ(kTimerTopic, message::kTimerTopic);
}

TEST(SystemTopicsTest, Limits) {
  EXPECT_EQ(kTopicMaxLength, 127u);
  EXPECT_EQ(kGroupTopicMaxLength, 255u);
}

}  // namespace
}  // namespace apogee::protocol
