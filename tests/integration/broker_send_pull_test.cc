// Send and pull through a real mqbroker process: single and batch sends, pulls with the
// subscription in the header (as C++ and ali-ons send them), long polling answered by an
// arriving message and by its timeout, consumer offsets surviving a restart in
// consumerOffset.json, queue offset queries, and Java's error codes for bad pulls.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <vector>

#include "broker_process.h"
#include "message/batch.h"
#include "message/message.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "remoting/remoting_client.h"

namespace apogee::testing {
namespace {

namespace resp = protocol::response_code;
namespace req = protocol::request_code;
using namespace std::chrono_literals;

// PullSysFlag bits.
constexpr int32_t kCommitOffset = 0x1;
constexpr int32_t kSuspend = 0x2;
constexpr int32_t kSubscription = 0x4;

protocol::RemotingCommand Send(const std::string& topic, int32_t queue_id, std::string body,
                               const std::string& tags = "") {
  protocol::SendMessageRequestHeaderV2 h;
  h.producer_group = "sp_producer";
  h.topic = topic;
  h.default_topic = "TBW102";
  h.default_topic_queue_nums = 4;
  h.queue_id = queue_id;
  h.born_timestamp = 1700000000000;
  message::MessageProperties props;
  if (!tags.empty()) (void)props.Set("TAGS", tags);
  h.properties = props.Encode();
  auto request = protocol::RemotingCommand::MakeRequest(req::kSendMessageV2);
  protocol::EncodeCustomHeader(h, &request);
  request.body = std::move(body);
  return request;
}

protocol::RemotingCommand Pull(const std::string& topic, int32_t queue_id, int64_t offset,
                               int32_t sys_flag, int64_t suspend_ms = 0,
                               const std::string& sub = "*") {
  protocol::PullMessageRequestHeader h;
  h.consumer_group = "sp_consumer";
  h.topic = topic;
  h.queue_id = queue_id;
  h.queue_offset = offset;
  h.max_msg_nums = 32;
  h.sys_flag = sys_flag;
  h.suspend_timeout_millis = suspend_ms;
  h.subscription = sub;
  h.sub_version = 1;
  auto request = protocol::RemotingCommand::MakeRequest(req::kPullMessage);
  protocol::EncodeCustomHeader(h, &request);
  return request;
}

std::string Ext(const protocol::RemotingCommand& c, std::string_view key) {
  return std::string(c.ext_fields.Get(key).value_or("<absent>"));
}

class BrokerSendPullTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(broker_.Start(""));
    client_.Start();
  }
  void TearDown() override { client_.Shutdown(); }

  Result<protocol::RemotingCommand> Call(protocol::RemotingCommand request,
                                         std::chrono::milliseconds timeout = 10s) {
    return client_.InvokeSync(broker_.addr(), std::move(request), timeout);
  }
  std::vector<message::MessageExt> PullAll(const std::string& topic, int32_t queue_id,
                                           int64_t offset, const std::string& sub = "*") {
    auto r = Call(Pull(topic, queue_id, offset, kSubscription, 0, sub));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok() || r->code != resp::kSuccess) return {};
    auto msgs = message::DecodeMessages(r->body);
    EXPECT_TRUE(msgs.ok()) << msgs.status().ToString();
    return msgs.ok() ? *msgs : std::vector<message::MessageExt>{};
  }

  BrokerProcess broker_;
  remoting::RemotingClient client_;
};

TEST_F(BrokerSendPullTest, SendThenPullWithTagFilter) {
  auto a = Call(Send("SpTopic", 1, "first", "TagA"));
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_EQ(a->code, resp::kSuccess) << a->remark.value_or("");
  EXPECT_EQ(Ext(*a, "queueId"), "1");
  EXPECT_EQ(Ext(*a, "queueOffset"), "0");
  EXPECT_EQ(Ext(*a, "MSG_REGION"), "DefaultRegion");
  EXPECT_EQ(Ext(*a, "TRACE_ON"), "true");
  EXPECT_EQ(Ext(*a, "transactionId").size(), 32u);
  auto b = Call(Send("SpTopic", 1, "second", "TagB"));
  ASSERT_TRUE(b.ok());
  ASSERT_EQ(b->code, resp::kSuccess);

  std::vector<message::MessageExt> all;
  ASSERT_TRUE(WaitUntil([&] { return (all = PullAll("SpTopic", 1, 0)).size() == 2; }, 10s));
  EXPECT_EQ(all[0].body, "first");
  EXPECT_EQ(all[0].offset_msg_id, Ext(*a, "msgId"));
  EXPECT_EQ(all[1].offset_msg_id, Ext(*b, "msgId"));
  EXPECT_EQ(all[0].properties.Get("CLUSTER"), "DefaultCluster");

  auto only_b = PullAll("SpTopic", 1, 0, "TagB");
  ASSERT_EQ(only_b.size(), 1u);
  EXPECT_EQ(only_b[0].body, "second");
}

TEST_F(BrokerSendPullTest, BatchSendIsStoredAsConsecutiveMessages) {
  std::vector<message::Message> msgs(3);
  for (int i = 0; i < 3; ++i) {
    msgs[i].topic = "SpBatch";
    msgs[i].body = "batch-" + std::to_string(i);
    (void)msgs[i].properties.Set("UNIQ_KEY", "AC1100010000000000000000000" + std::to_string(100 + i));
  }
  auto body = message::EncodeBatchBody(msgs);
  ASSERT_TRUE(body.ok());
  auto request = Send("SpBatch", 0, *body);
  request.code = req::kSendBatchMessage;
  request.ext_fields.Set("m", "true");
  auto r = Call(std::move(request));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
  const std::string ids = Ext(*r, "msgId");
  std::vector<message::MessageExt> stored;
  ASSERT_TRUE(WaitUntil([&] { return (stored = PullAll("SpBatch", 0, 0)).size() == 3; }, 10s));
  EXPECT_EQ(ids, stored[0].offset_msg_id + "," + stored[1].offset_msg_id + "," +
                     stored[2].offset_msg_id);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(stored[i].queue_offset, i);
    EXPECT_EQ(stored[i].body, "batch-" + std::to_string(i));
  }
}

TEST_F(BrokerSendPullTest, LongPollIsAnsweredByAnArrivingMessage) {
  auto first = Call(Send("SpPoll", 0, "seed"));
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->code, resp::kSuccess);
  // The ack precedes the ConsumeQueue dispatch: pulling offset 1 of a queue the reput service
  // has not created yet is answered OFFSET_MOVED (as Java), so wait for the seed first.
  ASSERT_TRUE(WaitUntil([&] { return PullAll("SpPoll", 0, 0).size() == 1; }, 10s));
  std::promise<Result<protocol::RemotingCommand>> promise;
  const auto start = std::chrono::steady_clock::now();
  client_.InvokeAsync(broker_.addr(), Pull("SpPoll", 0, 1, kSubscription | kSuspend, 15000), 30s,
                      [&](Result<protocol::RemotingCommand> r) { promise.set_value(std::move(r)); });
  auto future = promise.get_future();
  EXPECT_EQ(future.wait_for(500ms), std::future_status::timeout);  // held
  auto sent = Call(Send("SpPoll", 0, "wake"));
  ASSERT_TRUE(sent.ok());
  ASSERT_EQ(future.wait_for(5s), std::future_status::ready);
  auto r = future.get();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 6s);
  auto msgs = message::DecodeMessages(r->body);
  ASSERT_TRUE(msgs.ok());
  ASSERT_EQ(msgs->size(), 1u);
  EXPECT_EQ((*msgs)[0].body, "wake");
  EXPECT_EQ(Ext(*r, "nextBeginOffset"), "2");
}

TEST_F(BrokerSendPullTest, LongPollTimesOutWithPullNotFound) {
  const auto start = std::chrono::steady_clock::now();
  auto r = Call(Pull("TBW102", 0, 0, kSubscription | kSuspend, 1000), 10s);
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->code, resp::kPullNotFound);
  EXPECT_GE(waited, 900ms);
  EXPECT_LT(waited, 4s);
  EXPECT_EQ(Ext(*r, "nextBeginOffset"), "0");
  EXPECT_EQ(Ext(*r, "minOffset"), "0");
  EXPECT_EQ(Ext(*r, "maxOffset"), "0");
  EXPECT_EQ(Ext(*r, "suggestWhichBrokerId"), "0");
}

TEST_F(BrokerSendPullTest, ConsumerOffsetsSurviveARestart) {
  auto sent = Call(Send("SpOffsets", 2, "x"));
  ASSERT_TRUE(sent.ok());
  ASSERT_EQ(sent->code, resp::kSuccess);
  protocol::UpdateConsumerOffsetRequestHeader update;
  update.consumer_group = "sp_consumer";
  update.topic = "SpOffsets";
  update.queue_id = 2;
  update.commit_offset = 1;
  auto request = protocol::RemotingCommand::MakeRequest(req::kUpdateConsumerOffset);
  protocol::EncodeCustomHeader(update, &request);
  ASSERT_TRUE(client_.InvokeOneway(broker_.addr(), std::move(request), 5s).ok());

  protocol::QueryConsumerOffsetRequestHeader query;
  query.consumer_group = "sp_consumer";
  query.topic = "SpOffsets";
  query.queue_id = 2;
  auto query_request = [&] {
    auto q = protocol::RemotingCommand::MakeRequest(req::kQueryConsumerOffset);
    protocol::EncodeCustomHeader(query, &q);
    return q;
  };
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto r = Call(query_request());
        return r.ok() && r->code == resp::kSuccess && Ext(*r, "offset") == "1";
      },
      5s));

  ASSERT_EQ(broker_.Stop(), 0);
  const std::string json = ReadFileOrEmpty(broker_.config_dir() + "/consumerOffset.json");
  EXPECT_NE(json.find(R"("SpOffsets@sp_consumer":{2:1})"), std::string::npos) << json;
  ASSERT_TRUE(broker_.Start(""));
  client_.CloseChannel(broker_.addr());
  auto r = Call(query_request());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->code, resp::kSuccess);
  EXPECT_EQ(Ext(*r, "offset"), "1");

  // A pull with the commit flag stores the consumer's offset as well.
  auto pull = Pull("SpOffsets", 2, 0, kSubscription | kCommitOffset);
  pull.ext_fields.Set("commitOffset", "0");
  auto pulled = Call(std::move(pull));
  ASSERT_TRUE(pulled.ok());
  r = Call(query_request());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Ext(*r, "offset"), "0");
}

TEST_F(BrokerSendPullTest, QueueOffsetQueriesAndPullErrors) {
  for (int i = 0; i < 3; ++i) {
    auto r = Call(Send("SpQueries", 0, "m"));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->code, resp::kSuccess);
  }
  protocol::GetMaxOffsetRequestHeader max;
  max.topic = "SpQueries";
  max.queue_id = 0;
  auto max_request = protocol::RemotingCommand::MakeRequest(req::kGetMaxOffset);
  protocol::EncodeCustomHeader(max, &max_request);
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto r = Call(max_request);
        return r.ok() && r->code == resp::kSuccess && Ext(*r, "offset") == "3";
      },
      5s));

  auto unknown = Call(Pull("NoSuchTopic", 0, 0, kSubscription));
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(unknown->code, resp::kTopicNotExist);
  EXPECT_NE(unknown->remark.value_or("").find("NoSuchTopic"), std::string::npos);

  auto bad_queue = Call(Pull("SpQueries", 99, 0, kSubscription));
  ASSERT_TRUE(bad_queue.ok());
  EXPECT_EQ(bad_queue->code, resp::kInvalidParameter);
  EXPECT_NE(bad_queue->remark.value_or("").find("queueId[99]"), std::string::npos);

  auto moved = Call(Pull("SpQueries", 0, 10, kSubscription));
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(moved->code, resp::kPullOffsetMoved);
  EXPECT_EQ(Ext(*moved, "maxOffset"), "3");

  auto too_big = Call(Send("SpQueries", 0, std::string(4 * 1024 * 1024 + 1, 'x')), 20s);
  ASSERT_TRUE(too_big.ok()) << too_big.status().ToString();
  EXPECT_EQ(too_big->code, resp::kMessageIllegal);
}

}  // namespace
}  // namespace apogee::testing
