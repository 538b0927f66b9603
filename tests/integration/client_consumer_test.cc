// PushConsumer (and LitePullConsumer) against real mqnamesrv + mqbroker processes:
// clustering split, broadcasting with the local offsets file, orderly consumption with
// broker queue locks, tag filtering, reconsume-later through %RETRY%<group>,
// consumeFromWhere, and committed offsets surviving a consumer restart.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "apogee/lite_pull_consumer.h"
#include "apogee/producer.h"
#include "apogee/push_consumer.h"
#include "broker_process.h"
#include "protocol/admin_headers.h"
#include "protocol/lock_batch_body.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "testutil/test_util.h"

namespace apogee::testing {
namespace {

using namespace std::chrono_literals;
namespace rc = protocol::response_code;

struct Consumed {
  std::string body;
  std::string topic;
  std::string tags;
  int32_t queue_id = 0;
  int64_t queue_offset = 0;
  int32_t reconsume_times = 0;
};

// What a listener saw, safe to read from the test thread.
class Collector {
 public:
  void Add(const MessageExt& msg) {
    std::lock_guard lock(mu_);
    all_.push_back({msg.body(), msg.topic(), msg.tags(), msg.queue_id(), msg.queue_offset(),
                    msg.reconsume_times()});
  }
  std::vector<Consumed> All() const {
    std::lock_guard lock(mu_);
    return all_;
  }
  std::multiset<std::string> Bodies() const {
    std::multiset<std::string> out;
    for (const auto& c : All()) out.insert(c.body);
    return out;
  }
  size_t size() const {
    std::lock_guard lock(mu_);
    return all_.size();
  }

 private:
  mutable std::mutex mu_;
  std::vector<Consumed> all_;
};

class ClientConsumerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cluster_.Start());
    admin_.Start();
  }
  void TearDown() override { admin_.Shutdown(); }

  void CreateTopic(const std::string& topic, int32_t queues) {
    protocol::CreateTopicRequestHeader h;
    h.topic = topic;
    h.default_topic = "TBW102";
    h.read_queue_nums = queues;
    h.write_queue_nums = queues;
    h.perm = 6;
    h.topic_filter_type = "SINGLE_TAG";
    auto request =
        protocol::RemotingCommand::MakeRequest(protocol::request_code::kUpdateAndCreateTopic);
    protocol::EncodeCustomHeader(h, &request);
    auto response = admin_.InvokeSync(cluster_.broker().addr(), std::move(request), 5s);
    ASSERT_TRUE(response.ok()) << response.status().ToString();
    ASSERT_EQ(response->code, rc::kSuccess);
    ASSERT_TRUE(
        WaitUntil([&] { return QueryRoute(admin_, cluster_.namesrv().addr(), topic).ok(); }, 10s));
  }

  PushConsumerConfig ConsumerConfig(const std::string& group, const std::string& instance) {
    PushConsumerConfig c;
    c.client.namesrv_addr = cluster_.namesrv().addr();
    c.client.client_ip = "127.0.0.1";
    c.client.instance_name = instance;
    c.client.persist_consumer_offset_interval_ms = 1000;
    c.group = group;
    c.consume_thread_min = 4;
    c.consume_thread_max = 4;
    return c;
  }

  std::unique_ptr<Producer> StartProducer(const std::string& instance = "producer") {
    ProducerConfig c;
    c.namesrv_addr = cluster_.namesrv().addr();
    c.client_ip = "127.0.0.1";
    c.instance_name = instance;
    c.group_name = "P_" + instance;
    auto producer = std::make_unique<Producer>(c);
    Status s = producer->Start();
    EXPECT_TRUE(s.ok()) << s.ToString();
    return producer;
  }

  void SendN(Producer& producer, const std::string& topic, int n, const std::string& prefix,
             const std::string& tags = "") {
    for (int i = 0; i < n; ++i) {
      auto r = producer.Send(Message(topic, tags, prefix + std::to_string(i)));
      ASSERT_TRUE(r.ok()) << r.status().ToString();
    }
  }

  static MessageListenerConcurrently Collect(Collector* out) {
    return [out](const std::vector<MessageExt>& msgs, ConsumeConcurrentlyContext&) {
      for (const auto& m : msgs) out->Add(m);
      return ConsumeConcurrentlyStatus::kConsumeSuccess;
    };
  }

  SingleBrokerCluster cluster_;
  remoting::RemotingClient admin_;
};

TEST_F(ClientConsumerTest, ClusteringSplitsQueuesAndConsumesEveryMessageOnce) {
  CreateTopic("ClusterTopic", 4);
  Collector a_seen, b_seen;
  PushConsumer a(ConsumerConfig("G_cluster", "a"));
  PushConsumer b(ConsumerConfig("G_cluster", "b"));
  ASSERT_TRUE(a.Subscribe("ClusterTopic", "*").ok());
  ASSERT_TRUE(b.Subscribe("ClusterTopic", "*").ok());
  a.RegisterMessageListener(Collect(&a_seen));
  b.RegisterMessageListener(Collect(&b_seen));
  ASSERT_TRUE(a.Start().ok());
  ASSERT_TRUE(b.Start().ok());
  // NOTIFY_CONSUMER_IDS_CHANGED makes both rebalance at once: 2 + 2 queues, disjoint.
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto qa = a.AssignedQueues();
        auto qb = b.AssignedQueues();
        if (qa.size() != 2 || qb.size() != 2) return false;
        for (const auto& q : qa) {
          if (qb.count(q)) return false;
        }
        return true;
      },
      30s))
      << "a holds " << a.AssignedQueues().size() << ", b holds " << b.AssignedQueues().size();

  auto producer = StartProducer();
  SendN(*producer, "ClusterTopic", 40, "m");
  ASSERT_TRUE(WaitUntil([&] { return a_seen.size() + b_seen.size() >= 40; }, 30s))
      << a_seen.size() << " + " << b_seen.size();
  std::this_thread::sleep_for(500ms);  // a duplicate would show up now
  std::multiset<std::string> all = a_seen.Bodies();
  auto more = b_seen.Bodies();
  all.insert(more.begin(), more.end());
  EXPECT_EQ(all.size(), 40u);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(all.count("m" + std::to_string(i)), 1u) << i;
  EXPECT_GT(a_seen.size(), 0u);
  EXPECT_GT(b_seen.size(), 0u);
  // Each side only consumed its own queues.
  for (const auto& c : a_seen.All()) {
    EXPECT_EQ(a.AssignedQueues().count(MessageQueue("ClusterTopic", "broker-a", c.queue_id)), 1u);
  }
}

TEST_F(ClientConsumerTest, BroadcastingDeliversAllToEachAndKeepsLocalOffsets) {
  CreateTopic("BroadcastTopic", 2);
  TempDir offsets;
  Collector a_seen, b_seen;
  auto ca = ConsumerConfig("G_broadcast", "a");
  auto cb = ConsumerConfig("G_broadcast", "b");
  for (auto* c : {&ca, &cb}) {
    c->message_model = MessageModel::kBroadcasting;
    c->consume_from_where = ConsumeFromWhere::kFirstOffset;
    c->local_offset_store_dir = offsets.path();
  }
  std::string a_id;
  {
    PushConsumer a(ca);
    PushConsumer b(cb);
    ASSERT_TRUE(a.Subscribe("BroadcastTopic", "*").ok());
    ASSERT_TRUE(b.Subscribe("BroadcastTopic", "*").ok());
    a.RegisterMessageListener(Collect(&a_seen));
    b.RegisterMessageListener(Collect(&b_seen));
    ASSERT_TRUE(a.Start().ok());
    ASSERT_TRUE(b.Start().ok());
    a_id = a.client_id();
    EXPECT_NE(a_id, b.client_id());
    auto producer = StartProducer();
    SendN(*producer, "BroadcastTopic", 20, "b");
    ASSERT_TRUE(WaitUntil([&] { return a_seen.size() >= 20 && b_seen.size() >= 20; }, 30s))
        << a_seen.size() << ", " << b_seen.size();
  }
  EXPECT_EQ(a_seen.Bodies().size(), 20u);
  EXPECT_EQ(b_seen.Bodies().size(), 20u);
  const std::string file = offsets.path() + "/" + a_id + "/G_broadcast/offsets.json";
  ASSERT_TRUE(std::filesystem::exists(file)) << file;
  std::ifstream in(file);
  std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(json.find("\"topic\":\"BroadcastTopic\""), std::string::npos) << json;
}

TEST_F(ClientConsumerTest, OrderlyConsumesEachQueueInOrderWhileHoldingItsLock) {
  CreateTopic("OrderTopic", 2);
  Collector seen;
  auto config = ConsumerConfig("G_order", "o");
  config.consume_message_batch_max_size = 3;
  PushConsumer consumer(config);
  ASSERT_TRUE(consumer.Subscribe("OrderTopic", "*").ok());
  consumer.RegisterMessageListener(
      [&](const std::vector<MessageExt>& msgs, ConsumeOrderlyContext&) {
        for (const auto& m : msgs) seen.Add(m);
        return ConsumeOrderlyStatus::kSuccess;
      });
  ASSERT_TRUE(consumer.Start().ok());
  ASSERT_TRUE(WaitUntil([&] { return consumer.AssignedQueues().size() == 2; }, 30s));

  auto producer = StartProducer();
  for (int i = 0; i < 30; ++i) {
    auto r = producer->Send(Message("OrderTopic", "", "o" + std::to_string(i)),
                            MessageQueue("OrderTopic", "broker-a", i % 2));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  ASSERT_TRUE(WaitUntil([&] { return seen.size() >= 30; }, 30s)) << seen.size();
  std::map<int32_t, int64_t> last;
  for (const auto& c : seen.All()) {
    auto it = last.find(c.queue_id);
    if (it != last.end()) {
      EXPECT_LT(it->second, c.queue_offset) << "queue " << c.queue_id;
    }
    last[c.queue_id] = c.queue_offset;
  }
  EXPECT_EQ(seen.Bodies().size(), 30u);

  // Another client cannot take the queues: the broker says they are locked by the consumer.
  protocol::LockBatchRequestBody body;
  body.consumer_group = "G_order";
  body.client_id = "127.0.0.1@intruder";
  body.mq_set = {{"OrderTopic", "broker-a", 0}, {"OrderTopic", "broker-a", 1}};
  auto lock = protocol::RemotingCommand::MakeRequest(protocol::request_code::kLockBatchMq);
  lock.body = protocol::EncodeLockBatchRequestBody(body);
  auto answer = admin_.InvokeSync(cluster_.broker().addr(), lock, 5s);
  ASSERT_TRUE(answer.ok());
  auto granted = protocol::DecodeLockBatchResponseBody(answer->body);
  ASSERT_TRUE(granted.ok());
  EXPECT_TRUE(granted->lock_ok_mq_set.empty());

  // Shutdown unlocks them, so the intruder now gets both.
  consumer.Shutdown();
  answer = admin_.InvokeSync(cluster_.broker().addr(), lock, 5s);
  ASSERT_TRUE(answer.ok());
  granted = protocol::DecodeLockBatchResponseBody(answer->body);
  ASSERT_TRUE(granted.ok());
  EXPECT_EQ(granted->lock_ok_mq_set.size(), 2u);
}

TEST_F(ClientConsumerTest, TagFilterDeliversOnlySubscribedTags) {
  CreateTopic("TagTopic", 2);
  Collector seen;
  PushConsumer consumer(ConsumerConfig("G_tags", "t"));
  ASSERT_TRUE(consumer.Subscribe("TagTopic", "TagA || TagC").ok());
  consumer.RegisterMessageListener(Collect(&seen));
  ASSERT_TRUE(consumer.Start().ok());
  ASSERT_TRUE(WaitUntil([&] { return consumer.AssignedQueues().size() == 2; }, 30s));
  auto producer = StartProducer();
  SendN(*producer, "TagTopic", 5, "a", "TagA");
  SendN(*producer, "TagTopic", 5, "b", "TagB");
  SendN(*producer, "TagTopic", 5, "c", "TagC");
  SendN(*producer, "TagTopic", 5, "n");
  ASSERT_TRUE(WaitUntil([&] { return seen.size() >= 10; }, 30s)) << seen.size();
  std::this_thread::sleep_for(1s);
  for (const auto& c : seen.All()) EXPECT_TRUE(c.tags == "TagA" || c.tags == "TagC") << c.tags;
  EXPECT_EQ(seen.size(), 10u);
}

TEST_F(ClientConsumerTest, ReconsumeLaterRedeliversThroughTheRetryTopic) {
  CreateTopic("RetryTopic", 1);
  Collector seen;
  PushConsumer consumer(ConsumerConfig("G_retry", "r"));
  ASSERT_TRUE(consumer.Subscribe("RetryTopic", "*").ok());
  consumer.RegisterMessageListener(
      [&](const std::vector<MessageExt>& msgs, ConsumeConcurrentlyContext& context) {
        for (const auto& m : msgs) seen.Add(m);
        context.delay_level_when_next_consume = 1;  // 1 s instead of 10 s
        return msgs[0].reconsume_times() == 0 ? ConsumeConcurrentlyStatus::kReconsumeLater
                                              : ConsumeConcurrentlyStatus::kConsumeSuccess;
      });
  ASSERT_TRUE(consumer.Start().ok());
  ASSERT_TRUE(WaitUntil([&] { return consumer.AssignedQueues().size() == 1; }, 30s));
  auto producer = StartProducer();
  SendN(*producer, "RetryTopic", 1, "again");
  ASSERT_TRUE(WaitUntil([&] { return seen.size() >= 2; }, 60s))
      << "delivered " << seen.size() << " time(s)";
  auto all = seen.All();
  EXPECT_EQ(all[0].body, "again0");
  EXPECT_EQ(all[0].reconsume_times, 0);
  EXPECT_EQ(all[1].body, "again0");
  EXPECT_EQ(all[1].reconsume_times, 1);
  // The listener sees the original topic, not %RETRY%G_retry.
  EXPECT_EQ(all[1].topic, "RetryTopic");
}

TEST_F(ClientConsumerTest, ConsumeFromFirstOffsetReadsOldMessages) {
  CreateTopic("FromTopic", 2);
  auto producer = StartProducer();
  SendN(*producer, "FromTopic", 10, "old");
  Collector seen;
  auto config = ConsumerConfig("G_first", "f");
  config.consume_from_where = ConsumeFromWhere::kFirstOffset;
  PushConsumer consumer(config);
  ASSERT_TRUE(consumer.Subscribe("FromTopic", "*").ok());
  consumer.RegisterMessageListener(Collect(&seen));
  ASSERT_TRUE(consumer.Start().ok());
  ASSERT_TRUE(WaitUntil([&] { return seen.size() >= 10; }, 30s)) << seen.size();
  EXPECT_EQ(seen.Bodies().size(), 10u);
}

// docs/protocol/store_ha.md §8.7: a new group's QUERY_CONSUMER_OFFSET on a young queue (offset 0
// still in memory) answers 0, so even CONSUME_FROM_LAST_OFFSET starts at the beginning, as
// with a Java consumer.
TEST_F(ClientConsumerTest, ConsumeFromLastOffsetOnAYoungQueueStartsAtZeroAsJava) {
  CreateTopic("YoungTopic", 1);
  auto producer = StartProducer();
  SendN(*producer, "YoungTopic", 5, "old");
  Collector seen;
  auto config = ConsumerConfig("G_young", "y");
  config.consume_from_where = ConsumeFromWhere::kLastOffset;
  PushConsumer consumer(config);
  ASSERT_TRUE(consumer.Subscribe("YoungTopic", "*").ok());
  consumer.RegisterMessageListener(Collect(&seen));
  ASSERT_TRUE(consumer.Start().ok());
  ASSERT_TRUE(WaitUntil([&] { return seen.size() >= 5; }, 30s)) << seen.size();
  EXPECT_EQ(seen.Bodies().size(), 5u);
}

TEST_F(ClientConsumerTest, CommittedOffsetsSurviveAConsumerRestart) {
  CreateTopic("RestartTopic", 2);
  auto producer = StartProducer();
  Collector first, second;
  {
    PushConsumer consumer(ConsumerConfig("G_restart", "r1"));
    ASSERT_TRUE(consumer.Subscribe("RestartTopic", "*").ok());
    consumer.RegisterMessageListener(Collect(&first));
    ASSERT_TRUE(consumer.Start().ok());
    ASSERT_TRUE(WaitUntil([&] { return consumer.AssignedQueues().size() == 2; }, 30s));
    SendN(*producer, "RestartTopic", 10, "one");
    ASSERT_TRUE(WaitUntil([&] { return first.size() >= 10; }, 30s)) << first.size();
  }  // Shutdown persists the offsets
  SendN(*producer, "RestartTopic", 10, "two");
  PushConsumer again(ConsumerConfig("G_restart", "r2"));
  ASSERT_TRUE(again.Subscribe("RestartTopic", "*").ok());
  again.RegisterMessageListener(Collect(&second));
  ASSERT_TRUE(again.Start().ok());
  ASSERT_TRUE(WaitUntil([&] { return second.size() >= 10; }, 30s)) << second.size();
  std::this_thread::sleep_for(1s);
  EXPECT_EQ(second.size(), 10u);
  for (const auto& c : second.All()) EXPECT_EQ(c.body.substr(0, 3), "two") << c.body;
}

TEST_F(ClientConsumerTest, LitePullAssignPollSeekCommit) {
  CreateTopic("LiteTopic", 2);
  auto producer = StartProducer();
  for (int i = 0; i < 10; ++i) {
    auto r = producer->Send(Message("LiteTopic", "", "l" + std::to_string(i)),
                            MessageQueue("LiteTopic", "broker-a", i % 2));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  LitePullConsumerConfig config;
  config.client.namesrv_addr = cluster_.namesrv().addr();
  config.client.client_ip = "127.0.0.1";
  config.client.instance_name = "lite";
  config.group = "G_lite";
  config.auto_commit = false;
  config.consume_from_where = ConsumeFromWhere::kFirstOffset;
  LitePullConsumer consumer(config);
  const MessageQueue q0("LiteTopic", "broker-a", 0);
  const MessageQueue q1("LiteTopic", "broker-a", 1);
  ASSERT_TRUE(consumer.Assign({q0, q1}).ok());
  ASSERT_TRUE(consumer.Start().ok());
  EXPECT_EQ(consumer.Assignment().size(), 2u);
  auto fetched = consumer.FetchMessageQueues("LiteTopic");
  ASSERT_TRUE(fetched.ok()) << fetched.status().ToString();
  EXPECT_EQ(fetched->size(), 2u);

  std::multiset<std::string> got;
  ASSERT_TRUE(WaitUntil(
      [&] {
        for (const auto& m : consumer.Poll(200)) got.insert(m.body());
        return got.size() >= 10;
      },
      30s))
      << got.size();
  EXPECT_EQ(got.size(), 10u);

  // Seek queue 0 back to its start: its 5 messages come again, queue 1's do not.
  ASSERT_TRUE(consumer.Seek(q0, 0).ok());
  std::vector<MessageExt> again;
  ASSERT_TRUE(WaitUntil(
      [&] {
        for (auto& m : consumer.Poll(200)) again.push_back(m);
        return again.size() >= 5;
      },
      30s))
      << again.size();
  for (const auto& m : again) EXPECT_EQ(m.queue_id(), 0);
  EXPECT_FALSE(consumer.Seek(q0, 1000).ok());  // beyond the max offset

  // Nothing committed yet (auto commit off); CommitSync stores 5 and 5.
  ASSERT_TRUE(consumer.CommitSync().ok());
  EXPECT_EQ(*consumer.Committed(q0), 5);
  EXPECT_EQ(*consumer.Committed(q1), 5);

  // Paused queues are not pulled. A pull already parked at the broker may still deliver
  // one message (as in Java); after it, the queue stays quiet until resumed.
  consumer.Pause({q1});
  ASSERT_TRUE(producer->Send(Message("LiteTopic", "", "first-after-pause"), q1).ok());
  for (int i = 0; i < 10; ++i) (void)consumer.Poll(200);
  ASSERT_TRUE(producer->Send(Message("LiteTopic", "", "paused"), q1).ok());
  bool seen_paused = false;
  for (int i = 0; i < 10; ++i) {
    for (const auto& m : consumer.Poll(200)) seen_paused |= m.body() == "paused";
  }
  EXPECT_FALSE(seen_paused) << "a paused queue was pulled";
  consumer.Resume({q1});
  ASSERT_TRUE(WaitUntil(
      [&] {
        for (const auto& m : consumer.Poll(200)) seen_paused |= m.body() == "paused";
        return seen_paused;
      },
      30s));
}

TEST_F(ClientConsumerTest, LitePullSubscribeGetsQueuesFromRebalance) {
  CreateTopic("LiteSubTopic", 2);
  LitePullConsumerConfig config;
  config.client.namesrv_addr = cluster_.namesrv().addr();
  config.client.client_ip = "127.0.0.1";
  config.client.instance_name = "lite-sub";
  config.group = "G_lite_sub";
  LitePullConsumer consumer(config);
  ASSERT_TRUE(consumer.Subscribe("LiteSubTopic", "*").ok());
  ASSERT_TRUE(consumer.Start().ok());
  ASSERT_TRUE(WaitUntil([&] { return consumer.Assignment().size() == 2; }, 30s));
  auto producer = StartProducer();
  SendN(*producer, "LiteSubTopic", 6, "s");
  std::multiset<std::string> got;
  ASSERT_TRUE(WaitUntil(
      [&] {
        for (const auto& m : consumer.Poll(200)) got.insert(m.body());
        return got.size() >= 6;
      },
      30s))
      << got.size();
  EXPECT_EQ(got.size(), 6u);
}

}  // namespace
}  // namespace apogee::testing
