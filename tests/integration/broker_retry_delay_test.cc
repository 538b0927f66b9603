// Retry, DLQ, delayed and timer messages through a real mqbroker process, with a raw
// remoting client standing in for the consumer: a failed message handed back with
// CONSUMER_SEND_MSG_BACK comes back through %RETRY%<group> the configured number of times
// and then lands in %DLQ%<group>; delayed (DELAY level) and timer (TIMER_DELAY_MS,
// TIMER_DELIVER_MS, __STARTDELIVERTIME) messages arrive after their time and never before,
// also across a SIGTERM restart (exactly once) and a SIGKILL (at least once).
//
// "Never before" is checked on the broker's own clock: the delivered copy's store
// timestamp is compared with the time the send left the client (delay levels) or with the
// requested delivery time (timer messages).
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "broker_process.h"
#include "message/message.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "raw_requests.h"
#include "remoting/remoting_client.h"

namespace apogee::testing {
namespace {

namespace resp = protocol::response_code;
namespace req = protocol::request_code;
using namespace std::chrono_literals;

// Short levels: 1 s each for the first ten, so retries come back quickly.
constexpr char kLevels[] = "1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 2s 3s 4s 5s 6s 7s 8s 9s";

protocol::RemotingCommand Send(const std::string& topic, int32_t queue_id, std::string body,
                               const std::map<std::string, std::string>& properties = {}) {
  return RawSendRequest("rd_producer", topic, queue_id, std::move(body), properties);
}

protocol::RemotingCommand Pull(const std::string& topic, int32_t queue_id, int64_t offset) {
  return RawPullRequest("rd_consumer", topic, queue_id, offset);
}

protocol::RemotingCommand SendBack(int64_t commit_log_offset, int32_t max_reconsume_times) {
  protocol::ConsumerSendMsgBackRequestHeader h;
  h.offset = commit_log_offset;
  h.group = "rd_consumer";
  h.delay_level = 0;
  h.max_reconsume_times = max_reconsume_times;
  auto request = protocol::RemotingCommand::MakeRequest(req::kConsumerSendMsgBack);
  request.version = 401;  // >= V3_4_9: the header's maxReconsumeTimes counts
  protocol::EncodeCustomHeader(h, &request);
  return request;
}

class BrokerRetryDelayTest : public ::testing::Test {
 protected:
  BrokerRetryDelayTest()
      : broker_(Props{{"messageDelayLevel", kLevels}, {"flushDelayOffsetInterval", "200"}}) {}
  void SetUp() override {
    ASSERT_TRUE(broker_.Start(""));
    client_.Start();
  }
  void TearDown() override { client_.Shutdown(); }

  Result<protocol::RemotingCommand> Call(protocol::RemotingCommand request) {
    return client_.InvokeSync(broker_.addr(), std::move(request), 10s);
  }
  void MustSend(protocol::RemotingCommand request) {
    auto r = Call(std::move(request));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
  }
  std::vector<message::MessageExt> PullAll(const std::string& topic, int32_t queue_id,
                                           int64_t offset = 0) {
    std::vector<message::MessageExt> all;
    while (true) {
      auto r = Call(Pull(topic, queue_id, offset));
      if (!r.ok() || r->code != resp::kSuccess) return all;
      auto msgs = message::DecodeMessages(r->body);
      if (!msgs.ok() || msgs->empty()) return all;
      offset = msgs->back().queue_offset + 1;
      all.insert(all.end(), msgs->begin(), msgs->end());
    }
  }
  int64_t MaxOffset(const std::string& topic, int32_t queue_id) {
    protocol::GetMaxOffsetRequestHeader h;
    h.topic = topic;
    h.queue_id = queue_id;
    auto request = protocol::RemotingCommand::MakeRequest(req::kGetMaxOffset);
    protocol::EncodeCustomHeader(h, &request);
    auto r = Call(std::move(request));
    if (!r.ok() || r->code != resp::kSuccess) return -1;
    return std::stoll(std::string(r->ext_fields.Get("offset").value_or("-1")));
  }

  BrokerProcess broker_;
  remoting::RemotingClient client_;
};

TEST_F(BrokerRetryDelayTest, FailedMessageIsRetriedThenDeadLettered) {
  constexpr int32_t kMaxReconsume = 3;
  MustSend(Send("RdRetry", 0, "poison", {{"TAGS", "TagP"}}));
  std::vector<message::MessageExt> first;
  ASSERT_TRUE(WaitUntil([&] { return (first = PullAll("RdRetry", 0)).size() == 1; }, 10s));
  message::MessageExt current = first[0];

  // Each failure hands the message back; it reappears in %RETRY% one level (1 s) later.
  for (int32_t attempt = 1; attempt <= kMaxReconsume; ++attempt) {
    const int64_t handed_back_at = NowMillis();
    auto r = Call(SendBack(current.commit_log_offset, kMaxReconsume));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
    std::vector<message::MessageExt> retries;
    ASSERT_TRUE(WaitUntil(
        [&] { return (retries = PullAll("%RETRY%rd_consumer", 0)).size() == size_t(attempt); },
        15s))
        << "retry " << attempt << " never arrived\n"
        << broker_.ReadLog();
    const message::MessageExt& retry = retries.back();
    EXPECT_EQ(retry.body, "poison");
    EXPECT_EQ(retry.reconsume_times, attempt);
    EXPECT_EQ(retry.properties.Get("RETRY_TOPIC"), "RdRetry");
    EXPECT_EQ(retry.properties.Get("TAGS"), "TagP");
    EXPECT_EQ(retry.properties.Get("ORIGIN_MESSAGE_ID"), first[0].offset_msg_id);
    EXPECT_GE(retry.store_timestamp, handed_back_at + 1000) << "retry " << attempt << " early";
    current = retry;
  }
  // reconsumeTimes has reached the max: the next failure goes to the DLQ, at once.
  auto r = Call(SendBack(current.commit_log_offset, kMaxReconsume));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
  ASSERT_TRUE(WaitUntil([&] { return MaxOffset("%DLQ%rd_consumer", 0) == 1; }, 5s));
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(PullAll("%RETRY%rd_consumer", 0).size(), size_t(kMaxReconsume));  // no 4th retry
  // The DLQ is write-only: nobody consumes it by accident.
  auto pull = Call(Pull("%DLQ%rd_consumer", 0, 0));
  ASSERT_TRUE(pull.ok());
  EXPECT_EQ(pull->code, resp::kNoPermission);
}

TEST_F(BrokerRetryDelayTest, DelayedMessagesSurviveACleanRestartExactlyOnce) {
  // Level 12 = 3 s: the broker is restarted while they wait.
  const int64_t sent_at = NowMillis();
  for (int i = 0; i < 20; ++i)
    MustSend(Send("RdDelay", 0, "m" + std::to_string(i), {{"DELAY", "12"}}));
  EXPECT_EQ(MaxOffset("RdDelay", 0), 0);
  ASSERT_EQ(broker_.Stop(), 0) << broker_.ReadLog();
  ASSERT_TRUE(broker_.Start(""));
  std::vector<message::MessageExt> got;
  ASSERT_TRUE(WaitUntil([&] { return (got = PullAll("RdDelay", 0)).size() >= 20; }, 20s))
      << broker_.ReadLog();
  std::this_thread::sleep_for(1s);
  got = PullAll("RdDelay", 0);
  ASSERT_EQ(got.size(), 20u);  // exactly once across a clean restart
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].body, "m" + std::to_string(i));  // in order
    EXPECT_GE(got[i].store_timestamp, sent_at + 3000) << got[i].body << " early";
    EXPECT_FALSE(got[i].properties.Has("DELAY"));
  }
}

TEST_F(BrokerRetryDelayTest, DelayedMessagesSurviveSigkill) {
  const int64_t sent_at = NowMillis();
  for (int i = 0; i < 10; ++i)
    MustSend(Send("RdKill", 1, "early" + std::to_string(i), {{"DELAY", "1"}}));
  for (int i = 0; i < 10; ++i)
    MustSend(Send("RdKill", 1, "late" + std::to_string(i), {{"DELAY", "13"}}));
  // The 1 s ones are delivered, then the broker dies before the 4 s ones are due.
  ASSERT_TRUE(WaitUntil([&] { return PullAll("RdKill", 1).size() == 10; }, 10s));
  ASSERT_TRUE(broker_.process().Signal(SIGKILL));
  broker_.process().Wait(10s);
  ASSERT_TRUE(broker_.Start(""));
  // At least once: the 1 s ones may come again (their offsets were not yet written).
  std::map<std::string, int> seen;
  std::vector<message::MessageExt> got;
  ASSERT_TRUE(WaitUntil(
      [&] {
        got = PullAll("RdKill", 1);
        seen.clear();
        for (const message::MessageExt& m : got) ++seen[m.body];
        return seen.size() == 20;
      },
      20s))
      << broker_.ReadLog();
  for (const message::MessageExt& m : got) {
    const int64_t delay = m.body.rfind("late", 0) == 0 ? 4000 : 1000;
    EXPECT_GE(m.store_timestamp, sent_at + delay) << m.body << " early";
  }
  for (const auto& [body, count] : seen) {
    if (body.rfind("late", 0) == 0) {
      EXPECT_EQ(count, 1) << body;  // due after the restart
    }
  }
  EXPECT_EQ(seen.size(), 20u);  // every message at least once
}

TEST_F(BrokerRetryDelayTest, TimerMessagesArriveOnTimeAcrossARestart) {
  const int64_t now = NowMillis();
  // Out of order on purpose: the timer topic is not sorted by delivery time.
  MustSend(Send("RdTimer", 2, "t3", {{"TIMER_DELIVER_MS", std::to_string(now + 3500)}}));
  MustSend(Send("RdTimer", 2, "t1", {{"TIMER_DELAY_MS", "800"}}));
  MustSend(Send("RdTimer", 2, "t2", {{"__STARTDELIVERTIME", std::to_string(now + 2000)}}));
  MustSend(Send("RdTimer", 2, "t4", {{"TIMER_DELAY_SEC", "5"}}));
  std::vector<message::MessageExt> got;
  ASSERT_TRUE(WaitUntil([&] { return (got = PullAll("RdTimer", 2)).size() >= 1; }, 10s));
  ASSERT_EQ(broker_.Stop(), 0);
  ASSERT_TRUE(broker_.Start(""));
  ASSERT_TRUE(WaitUntil([&] { return (got = PullAll("RdTimer", 2)).size() >= 4; }, 20s))
      << broker_.ReadLog();
  std::this_thread::sleep_for(500ms);
  got = PullAll("RdTimer", 2);
  ASSERT_EQ(got.size(), 4u);
  std::vector<std::string> order;
  for (const message::MessageExt& m : got) {
    order.push_back(m.body);
    const int64_t due = std::stoll(std::string(m.properties.Get("TIMER_OUT_MS").value_or("0")));
    EXPECT_GT(due, now);
    EXPECT_GE(m.store_timestamp, due) << m.body << " early";
  }
  EXPECT_EQ(order, (std::vector<std::string>{"t1", "t2", "t3", "t4"}));
}

TEST_F(BrokerRetryDelayTest, DelayOffsetsAreWrittenInJavasForm) {
  MustSend(Send("RdOffsets", 0, "x", {{"DELAY", "2"}}));
  ASSERT_TRUE(WaitUntil([&] { return PullAll("RdOffsets", 0).size() == 1; }, 10s));
  ASSERT_EQ(broker_.Stop(), 0);
  std::ifstream in(broker_.config_dir() + "/delayOffset.json");
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(content.find("\"offsetTable\":{"), std::string::npos) << content;
  EXPECT_NE(content.find("2:1"), std::string::npos) << content;
}

}  // namespace
}  // namespace apogee::testing
