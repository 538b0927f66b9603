#include "broker/schedule/message_redirect.h"

#include <gtest/gtest.h>

#include "message/message.h"
#include "message/message_format.h"
#include "store/delay_level_table.h"

namespace apogee::broker {
namespace {

using message::MessageExt;

MessageExt Msg(std::initializer_list<message::MessageProperties::Entry> props,
               int32_t sys_flag = 0) {
  MessageExt m;
  m.topic = "TopicA";
  m.queue_id = 3;
  m.sys_flag = sys_flag;
  for (const auto& e : props) EXPECT_TRUE(m.properties.Set(e.first, e.second).ok());
  return m;
}

store::DelayLevelTable Levels() { return store::DelayLevelTable::Parse("1s 2s 3s").value(); }

TEST(MessageRedirectTest, DelayedMessageGoesToTheLevelQueue) {
  MessageExt m = Msg({{"DELAY", "2"}, {"TAGS", "t"}});
  EXPECT_TRUE(RedirectDelayed(Levels(), RouteOf(&m)));
  EXPECT_EQ(m.topic, "SCHEDULE_TOPIC_XXXX");
  EXPECT_EQ(m.queue_id, 1);
  EXPECT_EQ(m.properties.Get("REAL_TOPIC"), "TopicA");
  EXPECT_EQ(m.properties.Get("REAL_QID"), "3");
  EXPECT_EQ(m.properties.Get("DELAY"), "2");
}

TEST(MessageRedirectTest, LevelAboveTheMaximumIsClamped) {
  MessageExt m = Msg({{"DELAY", "40"}});
  EXPECT_TRUE(RedirectDelayed(Levels(), RouteOf(&m)));
  EXPECT_EQ(m.queue_id, 2);
  EXPECT_EQ(m.properties.Get("DELAY"), "3");
}

TEST(MessageRedirectTest, NotDelayedOrPreparedStaysPut) {
  for (const char* level : {"0", "-1", "x"}) {
    MessageExt m = Msg({{"DELAY", level}});
    EXPECT_FALSE(RedirectDelayed(Levels(), RouteOf(&m))) << level;
    EXPECT_EQ(m.topic, "TopicA");
  }
  MessageExt none = Msg({});
  EXPECT_FALSE(RedirectDelayed(Levels(), RouteOf(&none)));
  MessageExt prepared = Msg({{"DELAY", "1"}}, message::kTransactionPreparedType);
  EXPECT_FALSE(RedirectDelayed(Levels(), RouteOf(&prepared)));
  MessageExt commit = Msg({{"DELAY", "1"}}, message::kTransactionCommitType);
  EXPECT_TRUE(RedirectDelayed(Levels(), RouteOf(&commit)));
}

TEST(MessageRedirectTest, PreparedMessageGoesToTheHalfTopicAsNotType) {
  MessageExt m = Msg({{"TRAN_MSG", "true"}}, message::kTransactionPreparedType | 0x1);
  RedirectToHalf(RouteOf(&m));
  EXPECT_EQ(m.topic, "RMQ_SYS_TRANS_HALF_TOPIC");
  EXPECT_EQ(m.queue_id, 0);
  EXPECT_EQ(m.sys_flag, 0x1);  // compression bit kept, transaction bits cleared
  EXPECT_EQ(m.properties.Get("REAL_TOPIC"), "TopicA");
  EXPECT_EQ(m.properties.Get("REAL_QID"), "3");
}

TEST(MessageRedirectTest, TimerPropertiesGiveTheExactDeliveryTime) {
  const int64_t now = 1700000000000;
  const int64_t max = 3600 * 1000;
  struct Case {
    const char* key;
    const char* value;
    int64_t expected;
  };
  for (const Case& c :
       {Case{"TIMER_DELIVER_MS", "1700000001500", now + 1500},
        Case{"TIMER_DELAY_SEC", "7", now + 7000}, Case{"TIMER_DELAY_MS", "2345", now + 2345},
        Case{"__STARTDELIVERTIME", "1700000009999", now + 9999}}) {
    MessageExt m = Msg({{c.key, c.value}});
    auto r = RedirectTimer(now, max, true, RouteOf(&m));
    ASSERT_TRUE(r.ok()) << c.key << ": " << r.status().ToString();
    EXPECT_TRUE(*r) << c.key;
    EXPECT_EQ(m.topic, "rmq_sys_wheel_timer");
    EXPECT_EQ(m.queue_id, 0);
    EXPECT_EQ(m.properties.Get("TIMER_OUT_MS"), std::to_string(c.expected)) << c.key;
    EXPECT_EQ(m.properties.Get("REAL_TOPIC"), "TopicA");
  }
}

TEST(MessageRedirectTest, TimerDueAlreadyOrDelayLevelWinsOrAlreadyTimed) {
  const int64_t now = 1700000000000;
  MessageExt past = Msg({{"TIMER_DELIVER_MS", "1699999999999"}});
  EXPECT_FALSE(RedirectTimer(now, 1000000, true, RouteOf(&past)).value());
  EXPECT_EQ(past.topic, "TopicA");

  MessageExt both = Msg({{"DELAY", "1"}, {"TIMER_DELAY_SEC", "5"}, {"__STARTDELIVERTIME", "1"}});
  EXPECT_FALSE(RedirectTimer(now, 1000000, true, RouteOf(&both)).value());
  EXPECT_FALSE(both.properties.Has("TIMER_DELAY_SEC"));
  EXPECT_FALSE(both.properties.Has("__STARTDELIVERTIME"));

  MessageExt delivered = Msg({{"TIMER_OUT_MS", "1"}, {"TIMER_DELAY_SEC", "5"}});
  EXPECT_FALSE(RedirectTimer(now, 1000000, true, RouteOf(&delivered)).value());
}

TEST(MessageRedirectTest, TimerRefusals) {
  const int64_t now = 1700000000000;
  MessageExt bad = Msg({{"TIMER_DELAY_SEC", "soon"}});
  auto r = RedirectTimer(now, 1000000, true, RouteOf(&bad));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("TIMER_DELAY_SEC='soon'"), std::string::npos);

  MessageExt far = Msg({{"TIMER_DELAY_SEC", "9223372036854775807"}});
  r = RedirectTimer(now, 10000, true, RouteOf(&far));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("timerMaxDelaySec"), std::string::npos);

  MessageExt off = Msg({{"TIMER_DELAY_MS", "100"}});
  r = RedirectTimer(now, 10000, false, RouteOf(&off));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("timerWheelEnable"), std::string::npos);
}

TEST(MessageRedirectTest, RestoreGivesTheRealTopicBack) {
  MessageExt m = Msg({{"DELAY", "2"}, {"TAGS", "t"}});
  ASSERT_TRUE(RedirectDelayed(Levels(), RouteOf(&m)));
  ASSERT_TRUE(RestoreRealTopic(RouteOf(&m)).ok());
  EXPECT_EQ(m.topic, "TopicA");
  EXPECT_EQ(m.queue_id, 3);
  EXPECT_FALSE(m.properties.Has("DELAY"));
  EXPECT_EQ(m.properties.Get("WAIT"), "false");
  EXPECT_EQ(m.properties.Get("REAL_TOPIC"), "TopicA");  // Java leaves REAL_* in place
  EXPECT_EQ(m.properties.Get("TAGS"), "t");

  MessageExt t = Msg({{"TIMER_DELAY_SEC", "5"}});
  ASSERT_TRUE(RedirectTimer(1000, 100000, true, RouteOf(&t)).value());
  ASSERT_TRUE(RestoreRealTopic(RouteOf(&t)).ok());
  EXPECT_FALSE(t.properties.Has("TIMER_DELAY_SEC"));
  EXPECT_EQ(t.properties.Get("TIMER_OUT_MS"), "6000");
  // Delivered again through the put path, it is not timed a second time.
  EXPECT_FALSE(RedirectTimer(2000, 100000, true, RouteOf(&t)).value());
}

TEST(MessageRedirectTest, RestoreNamesAMissingProperty) {
  MessageExt m = Msg({});
  m.topic = "SCHEDULE_TOPIC_XXXX";
  Status s = RestoreRealTopic(RouteOf(&m));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("REAL_TOPIC"), std::string::npos);
  (void)m.properties.Set("REAL_TOPIC", "T");
  (void)m.properties.Set("REAL_QID", "x");
  s = RestoreRealTopic(RouteOf(&m));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("REAL_QID 'x'"), std::string::npos);
}

// REAL_TOPIC / REAL_QID read back from disk are checked as the broker writes them: a value
// no send could have produced is Corruption (the caller drops the message), never a topic
// the store cannot hold or a parking topic that would loop.
TEST(MessageRedirectTest, RestoreRefusesWhatTheBrokerNeverWrites) {
  const std::pair<const char*, const char*> bad[] = {
      {"a/b", "0"},                  // not a topic name (no ConsumeQueue directory)
      {"TBW102", "0"},               // reserved
      {"SCHEDULE_TOPIC_XXXX", "0"},  // a parking topic: would loop
      {"rmq_sys_wheel_timer", "0"},
      {"RMQ_SYS_TRANS_HALF_TOPIC", "0"},
      {"T", "-1"},
      {"T", "65535"},
      {"T", "2147483647"},
      {"T", "1e3"},
  };
  for (const auto& [topic, qid] : bad) {
    MessageExt m = Msg({{"REAL_TOPIC", topic}, {"REAL_QID", qid}});
    m.topic = "rmq_sys_wheel_timer";
    Status s = RestoreRealTopic(RouteOf(&m));
    EXPECT_TRUE(s.Is(StatusCode::kCorruption)) << topic << " " << qid << ": " << s.ToString();
    EXPECT_EQ(m.topic, "rmq_sys_wheel_timer");  // left as it was
  }
  std::string long_topic(300, 'x');
  MessageExt m = Msg({{"REAL_TOPIC", long_topic}, {"REAL_QID", "0"}});
  EXPECT_FALSE(RestoreRealTopic(RouteOf(&m)).ok());
  // Retry topics carry a group name and may be longer than a topic.
  std::string retry = "%RETRY%" + std::string(200, 'g');
  MessageExt r = Msg({{"REAL_TOPIC", retry}, {"REAL_QID", "0"}});
  ASSERT_TRUE(RestoreRealTopic(RouteOf(&r)).ok());
  EXPECT_EQ(r.topic, retry);
  MessageExt ok = Msg({{"REAL_TOPIC", "T"}, {"REAL_QID", "65534"}});
  ASSERT_TRUE(RestoreRealTopic(RouteOf(&ok)).ok());
  EXPECT_EQ(ok.queue_id, 65534);
}

}  // namespace
}  // namespace apogee::broker
