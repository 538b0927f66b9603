#include "apogee/producer.h"

#include <gtest/gtest.h>

#include <future>
#include <set>

#include "fake_servers.h"
#include "message/compression.h"
#include "message/message_format.h"
#include "message/properties.h"
#include "protocol/send_headers.h"
#include "testutil/test_util.h"

namespace apogee {
namespace {

using client::test::FakeServer;
using protocol::RemotingCommand;
namespace rc = protocol::request_code;
namespace rs = protocol::response_code;

TEST(SelectMessageQueueByHashTest, MatchesJavaHashCodeModulo) {
  std::vector<MessageQueue> mqs = {{"T", "b", 0}, {"T", "b", 1}, {"T", "b", 2}};
  // Java: "abc".hashCode() = 96354, "order-1" = -1207111310, "key-13" = -1134722992,
  // "polygenelubricants" = Integer.MIN_VALUE.
  EXPECT_EQ(SelectMessageQueueByHash(mqs, "abc").queue_id(), 0);
  EXPECT_EQ(SelectMessageQueueByHash(mqs, "order-1").queue_id(), 2);
  EXPECT_EQ(SelectMessageQueueByHash(mqs, "key-13").queue_id(), 1);
  EXPECT_EQ(SelectMessageQueueByHash(mqs, "polygenelubricants").queue_id(), 2);
}

// A NameServer and two broker sets, every broker answering sends with SUCCESS unless a
// test says otherwise.
class ProducerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ns_.Start());
    ASSERT_TRUE(broker_a_.Start());
    ASSERT_TRUE(broker_b_.Start());
    routes_ = std::make_shared<std::map<std::string, protocol::TopicRouteData>>();
    (*routes_)["T"] = client::test::MakeRoute({{"broker-a", broker_a_.addr()}, {"broker-b", broker_b_.addr()}}, 2);
    client::test::ServeRoutes(ns_, routes_);
    for (FakeServer* broker : {&broker_a_, &broker_b_}) {
      for (int32_t code : {rc::kSendMessageV2, rc::kSendBatchMessage}) {
        broker->On(code, [](const RemotingCommand& r) { return client::test::SendAnswer(r); });
      }
    }
  }

  ProducerConfig Config(const std::string& group = "PG") {
    ProducerConfig config;
    config.namesrv_addr = ns_.addr();
    config.group_name = group;
    config.instance_name = "producer_test";
    config.send_msg_timeout_ms = 3000;
    return config;
  }

  size_t Sends(const FakeServer& broker) const {
    return broker.Count(rc::kSendMessageV2) + broker.Count(rc::kSendBatchMessage);
  }

  FakeServer ns_, broker_a_, broker_b_;
  std::shared_ptr<std::map<std::string, protocol::TopicRouteData>> routes_;
};

TEST_F(ProducerTest, StartRejectsDefaultGroupAndDuplicates) {
  ProducerConfig config = Config("DEFAULT_PRODUCER");
  Producer bad(config);
  EXPECT_TRUE(bad.Start().Is(StatusCode::kInvalidArgument));
  Producer first(Config("DUP"));
  ASSERT_TRUE(first.Start().ok());
  Producer second(Config("DUP"));
  EXPECT_TRUE(second.Start().Is(StatusCode::kAlreadyExists));
  Producer not_started(Config("X"));
  EXPECT_TRUE(not_started.Send(Message("T", "x")).status().Is(StatusCode::kUnavailable));
}

TEST_F(ProducerTest, SyncSendsSpreadOverEveryQueue) {
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  std::set<MessageQueue> used;
  for (int i = 0; i < 8; ++i) {
    auto result = producer.Send(Message("T", "tag", "body"));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->send_status, SendStatus::kSendOk);
    EXPECT_EQ(result->msg_id.size(), 32u);
    used.insert(result->message_queue);
  }
  EXPECT_EQ(used.size(), 4u);
  EXPECT_EQ(Sends(broker_a_), 4u);
  EXPECT_EQ(Sends(broker_b_), 4u);
}

TEST_F(ProducerTest, RetriableErrorRetriesOnTheOtherBrokerSet) {
  broker_a_.On(rc::kSendMessageV2, [](const RemotingCommand& r) {
    return RemotingCommand::MakeResponse(r, rs::kSystemBusy, "busy");
  });
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  for (int i = 0; i < 6; ++i) {
    auto result = producer.Send(Message("T", "x"));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->message_queue.broker_name(), "broker-b");
  }
  EXPECT_GE(broker_a_.Count(rc::kSendMessageV2), 1u);
}

TEST_F(ProducerTest, DeadBrokerIsRetriedElsewhere) {
  broker_a_.Stop();
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  for (int i = 0; i < 4; ++i) {
    auto result = producer.Send(Message("T", "x"));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->message_queue.broker_name(), "broker-b");
  }
}

// A failover moved the set's master (Apogee's etcd failover registers the new one within a
// registration): the fenced old master answers SERVICE_NOT_AVAILABLE, and the retry goes to
// the new master within the same Send instead of after the next 30 s route poll.
TEST_F(ProducerTest, FencedMasterMakesTheProducerReadTheNewRouteAtOnce) {
  auto before = std::make_shared<std::map<std::string, protocol::TopicRouteData>>();
  (*before)["F"] = client::test::MakeRoute({{"broker-f", broker_a_.addr()}}, 2);
  client::test::ServeRoutes(ns_, before);
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  ASSERT_TRUE(producer.Send(Message("F", "x")).ok());
  broker_a_.On(rc::kSendMessageV2, [](const RemotingCommand& r) {
    return RemotingCommand::MakeResponse(r, rs::kServiceNotAvailable, "fenced");
  });
  auto after = std::make_shared<std::map<std::string, protocol::TopicRouteData>>();
  (*after)["F"] = client::test::MakeRoute({{"broker-f", broker_b_.addr()}}, 2);
  client::test::ServeRoutes(ns_, after);
  auto result = producer.Send(Message("F", "y"));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->message_queue.broker_name(), "broker-f");
  EXPECT_EQ(Sends(broker_b_), 1u);
}

TEST_F(ProducerTest, NonRetriableErrorIsReturnedAtOnce) {
  for (FakeServer* broker : {&broker_a_, &broker_b_}) {
    broker->On(rc::kSendMessageV2, [](const RemotingCommand& r) {
      return RemotingCommand::MakeResponse(r, rs::kMessageIllegal, "too big");
    });
  }
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  auto result = producer.Send(Message("T", "x"));
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().Is(StatusCode::kInvalidArgument));
  EXPECT_NE(result.status().message().find("too big"), std::string::npos);
  EXPECT_EQ(Sends(broker_a_) + Sends(broker_b_), 1u);
}

TEST_F(ProducerTest, AllAttemptsFailingSaysHowManyAndWhere) {
  for (FakeServer* broker : {&broker_a_, &broker_b_}) {
    broker->On(rc::kSendMessageV2, [](const RemotingCommand& r) {
      return RemotingCommand::MakeResponse(r, rs::kSystemError, "disk gone");
    });
  }
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  auto result = producer.Send(Message("T", "x"));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("Send [3] times, still failed"), std::string::npos)
      << result.status().message();
  EXPECT_NE(result.status().message().find("broker-a"), std::string::npos);
  EXPECT_NE(result.status().message().find("broker-b"), std::string::npos);
  EXPECT_EQ(Sends(broker_a_) + Sends(broker_b_), 3u);
}

TEST_F(ProducerTest, TimeoutBudgetCoversEveryAttempt) {
  for (FakeServer* broker : {&broker_a_, &broker_b_}) {
    broker->On(rc::kSendMessageV2, [](const RemotingCommand& r) {
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
      return RemotingCommand::MakeResponse(r, rs::kSystemBusy, "slow");
    });
  }
  ProducerConfig config = Config();
  config.send_msg_timeout_ms = 600;
  config.retry_times_when_send_failed = 5;
  Producer producer(config);
  ASSERT_TRUE(producer.Start().ok());
  auto begin = std::chrono::steady_clock::now();
  auto result = producer.Send(Message("T", "x"));
  auto took = std::chrono::steady_clock::now() - begin;
  ASSERT_FALSE(result.ok());
  EXPECT_LT(took, std::chrono::milliseconds(1500));
  EXPECT_LT(Sends(broker_a_) + Sends(broker_b_), 6u);
}

TEST_F(ProducerTest, NotStoredOkIsAResultOrARetryWhenAsked) {
  broker_a_.On(rc::kSendMessageV2, [](const RemotingCommand& r) {
    return client::test::SendAnswer(r, rs::kFlushDiskTimeout);
  });
  broker_b_.On(rc::kSendMessageV2, [](const RemotingCommand& r) {
    return client::test::SendAnswer(r, rs::kFlushDiskTimeout);
  });
  Producer plain(Config("P1"));
  ASSERT_TRUE(plain.Start().ok());
  auto result = plain.Send(Message("T", "x"));
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->send_status, SendStatus::kFlushDiskTimeout);
  EXPECT_EQ(Sends(broker_a_) + Sends(broker_b_), 1u);

  ProducerConfig config = Config("P2");
  config.retry_another_broker_when_not_store_ok = true;
  Producer retrying(config);
  ASSERT_TRUE(retrying.Start().ok());
  auto again = retrying.Send(Message("T", "x"));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->send_status, SendStatus::kFlushDiskTimeout);
  EXPECT_EQ(Sends(broker_a_) + Sends(broker_b_), 4u);  // 1 + three attempts
}

TEST_F(ProducerTest, OrderlySendsKeepAKeyOnOneQueue) {
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  std::map<std::string, std::set<MessageQueue>> queues_by_key;
  for (int i = 0; i < 12; ++i) {
    std::string key = "order-" + std::to_string(i % 3);
    auto result = producer.SendOrderly(Message("T", "x"), key);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    queues_by_key[key].insert(result->message_queue);
  }
  for (const auto& [key, queues] : queues_by_key) EXPECT_EQ(queues.size(), 1u) << key;

  auto chosen = producer.Send(Message("T", "x"),
                              [](const std::vector<MessageQueue>& mqs, const Message&) { return mqs.back(); });
  ASSERT_TRUE(chosen.ok());
  EXPECT_EQ(chosen->message_queue, MessageQueue("T", "broker-b", 1));

  auto bogus = producer.Send(Message("T", "x"), [](const std::vector<MessageQueue>&, const Message&) {
    return MessageQueue("T", "broker-z", 0);
  });
  EXPECT_TRUE(bogus.status().Is(StatusCode::kInvalidArgument));
  EXPECT_NE(bogus.status().message().find("broker-z"), std::string::npos);
}

TEST_F(ProducerTest, BatchGoesAsOneSendBatchMessage) {
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  std::vector<Message> batch = {Message("T", "a", "1"), Message("T", "b", "2")};
  auto result = producer.Send(batch, MessageQueue("T", "broker-a", 1));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(std::count(result->msg_id.begin(), result->msg_id.end(), ','), 1);
  auto requests = broker_a_.Requests(rc::kSendBatchMessage);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].ext_fields.Get("m"), "true");
  EXPECT_EQ(requests[0].ext_fields.Get("e"), "1");
}

TEST_F(ProducerTest, AsyncSendAndAsyncRetry) {
  broker_a_.On(rc::kSendMessageV2, [](const RemotingCommand& r) {
    return RemotingCommand::MakeResponse(r, rs::kSystemBusy, "busy");
  });
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  // The second producer has successes delivered on the IO thread (failures never are).
  ProducerConfig on_io_config = Config("P-io");
  on_io_config.async_send_callback_on_io_thread = true;
  Producer on_io(on_io_config);
  ASSERT_TRUE(on_io.Start().ok());
  for (Producer* p : {&producer, &on_io}) {
    for (int i = 0; i < 4; ++i) {
      std::promise<Result<SendResult>> done;
      p->SendAsync(Message("T", "x"), [&](Result<SendResult> r) { done.set_value(std::move(r)); });
      auto future = done.get_future();
      ASSERT_EQ(future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
      auto result = future.get();
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      EXPECT_EQ(result->message_queue.broker_name(), "broker-b");
      // The UNIQ_KEY the retry carried is the msg_id reported, after a failed attempt too.
      auto sent = broker_b_.Requests(rc::kSendMessageV2).back();
      ASSERT_EQ(result->msg_id.size(), 32u) << result->msg_id;
      EXPECT_NE(std::string(sent.ext_fields.Get("i").value_or("")).find(result->msg_id),
                std::string::npos);
    }
  }
  std::promise<Result<SendResult>> bad;
  producer.SendAsync(Message("", "x"), [&](Result<SendResult> r) { bad.set_value(std::move(r)); });
  EXPECT_TRUE(bad.get_future().get().status().Is(StatusCode::kInvalidArgument));
}

// A finished async send's call object is kept and reused by the next send (ProducerImpl's
// pool, strings with their capacity): each send must carry its own message and nothing of the
// one before it, in both callback modes.
TEST_F(ProducerTest, AsyncSendsCarryNothingOfTheSendBefore) {
  std::vector<Message> msgs;
  msgs.emplace_back("T", std::string(10000, 'q'));  // compressed
  msgs.emplace_back("T", "tag", "small");
  msgs.back().set_keys("k1");
  msgs.emplace_back("T", "x");
  msgs.back().PutProperty("u", "1");
  msgs.emplace_back("T", "tag2", std::string(3000, 'w'));
  for (bool on_io : {false, true}) {
    ProducerConfig config = Config(on_io ? "P-io" : "PG");
    config.async_send_callback_on_io_thread = on_io;
    Producer producer(config);
    ASSERT_TRUE(producer.Start().ok());
    for (int round = 0; round < 3; ++round) {
      for (const Message& msg : msgs) {
        std::promise<Result<SendResult>> done;
        producer.SendAsync(msg, MessageQueue("T", "broker-a", round % 2),
                           [&](Result<SendResult> r) { done.set_value(std::move(r)); });
        auto future = done.get_future();
        ASSERT_EQ(future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
        Result<SendResult> result = future.get();
        ASSERT_TRUE(result.ok()) << result.status().ToString();
        RemotingCommand sent = broker_a_.Requests(rc::kSendMessageV2).back();
        auto header = protocol::DecodeSendMessageRequestHeader(sent);
        ASSERT_TRUE(header.ok());
        EXPECT_EQ(header->queue_id, round % 2);
        EXPECT_EQ(header->producer_group, config.group_name);
        auto props = message::MessageProperties::Decode(header->properties.value_or(""));
        EXPECT_EQ(props.Get("UNIQ_KEY"), result->msg_id);
        EXPECT_EQ(props.Get("TAGS"), msg.properties().count("TAGS") != 0
                                         ? std::optional<std::string_view>(msg.properties().at("TAGS"))
                                         : std::nullopt);
        EXPECT_EQ(props.Has("KEYS"), msg.properties().count("KEYS") != 0);
        EXPECT_EQ(props.Has("u"), msg.properties().count("u") != 0);
        const bool compressed = (header->sys_flag & message::kCompressedFlag) != 0;
        EXPECT_EQ(compressed, msg.body().size() >= 4096);
        if (compressed) {
          auto body = message::DecompressBody(sent.body, header->sys_flag);
          ASSERT_TRUE(body.ok());
          EXPECT_EQ(*body, msg.body()) << "round " << round;
        } else {
          EXPECT_EQ(sent.body, msg.body()) << "round " << round;
        }
      }
    }
  }
}

// A kept send that had retries left (a send over the route) must not lend them to the next
// one: a send to a fixed queue is tried once, as a new one is.
TEST_F(ProducerTest, AKeptAsyncSendLendsNoRetriesToTheNext) {
  ProducerConfig config = Config();
  config.retry_times_when_send_async_failed = 2;
  Producer producer(config);
  ASSERT_TRUE(producer.Start().ok());
  for (int i = 0; i < 4; ++i) {
    std::promise<Result<SendResult>> done;
    producer.SendAsync(Message("T", "x"), [&](Result<SendResult> r) { done.set_value(std::move(r)); });
    ASSERT_TRUE(done.get_future().get().ok());
  }
  broker_a_.On(rc::kSendMessageV2, [](const RemotingCommand& r) {
    return RemotingCommand::MakeResponse(r, rs::kSystemBusy, "busy");
  });
  const size_t before = Sends(broker_a_);
  std::promise<Result<SendResult>> failed;
  producer.SendAsync(Message("T", "x"), MessageQueue("T", "broker-a", 0),
                     [&](Result<SendResult> r) { failed.set_value(std::move(r)); });
  auto future = failed.get_future();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_FALSE(future.get().ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(Sends(broker_a_) - before, 1u);
}

// A kept async send reuses the route and broker address of its last send while no route
// changed (ClientInstance::RouteVersion). Once the route moved the set to another broker,
// every kept send must notice: after the one send that failed on the old master and read the
// new route, no send goes to the old master again.
TEST_F(ProducerTest, KeptAsyncSendsFollowARouteChange) {
  auto before = std::make_shared<std::map<std::string, protocol::TopicRouteData>>();
  (*before)["M"] = client::test::MakeRoute({{"broker-m", broker_a_.addr()}}, 2);
  client::test::ServeRoutes(ns_, before);
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  auto send_all = [&](int count) {
    std::vector<std::promise<Result<SendResult>>> done(count);
    for (int i = 0; i < count; ++i) {
      producer.SendAsync(Message("M", "x"),
                         [&done, i](Result<SendResult> r) { done[i].set_value(std::move(r)); });
    }
    for (auto& d : done) {
      auto future = d.get_future();
      ASSERT_EQ(future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
      auto result = future.get();
      ASSERT_TRUE(result.ok()) << result.status().ToString();
    }
  };
  send_all(16);  // several kept sends, each with broker-m at broker_a's address
  ASSERT_EQ(Sends(broker_a_), 16u);
  ASSERT_EQ(Sends(broker_b_), 0u);
  broker_a_.On(rc::kSendMessageV2, [](const RemotingCommand& r) {
    return RemotingCommand::MakeResponse(r, rs::kServiceNotAvailable, "fenced");
  });
  auto after = std::make_shared<std::map<std::string, protocol::TopicRouteData>>();
  (*after)["M"] = client::test::MakeRoute({{"broker-m", broker_b_.addr()}}, 2);
  client::test::ServeRoutes(ns_, after);
  send_all(1);  // fails on broker_a, reads the new route, retried on broker_b
  EXPECT_EQ(Sends(broker_a_), 17u);
  EXPECT_EQ(Sends(broker_b_), 1u);
  send_all(16);
  EXPECT_EQ(Sends(broker_a_), 17u);
  EXPECT_EQ(Sends(broker_b_), 17u);
}

TEST_F(ProducerTest, AsyncAttemptsAllFailingNameEveryBrokerTried) {
  for (FakeServer* broker : {&broker_a_, &broker_b_}) {
    broker->On(rc::kSendMessageV2, [](const RemotingCommand& r) {
      return RemotingCommand::MakeResponse(r, rs::kSystemError, "disk gone");
    });
  }
  ProducerConfig config = Config();
  config.retry_times_when_send_async_failed = 2;
  Producer producer(config);
  ASSERT_TRUE(producer.Start().ok());
  std::promise<Result<SendResult>> done;
  producer.SendAsync(Message("T", "x"),
                     [&](Result<SendResult> r) { done.set_value(std::move(r)); });
  auto future = done.get_future();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  Result<SendResult> result = future.get();
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().Is(StatusCode::kInternal)) << result.status().ToString();
  // Three attempts, alternating between the two brokers, listed in order.
  const std::string& message = result.status().message();
  EXPECT_TRUE(message.find("BrokersSent: [broker-a, broker-b, broker-a]") != std::string::npos ||
              message.find("BrokersSent: [broker-b, broker-a, broker-b]") != std::string::npos)
      << message;
  EXPECT_EQ(Sends(broker_a_) + Sends(broker_b_), 3u);
}

TEST_F(ProducerTest, OnewayReachesTheBroker) {
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  ASSERT_TRUE(producer.SendOneway(Message("T", "x"), MessageQueue("T", "broker-b", 0)).ok());
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return Sends(broker_b_) == 1; }, std::chrono::seconds(5)));
  auto request = broker_b_.Requests(rc::kSendMessageV2).at(0);
  EXPECT_TRUE(request.IsOneway());
}

TEST_F(ProducerTest, LargeBodyIsSentCompressed) {
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  std::string body(10000, 'q');
  ASSERT_TRUE(producer.Send(Message("T", body), MessageQueue("T", "broker-a", 0)).ok());
  auto request = broker_a_.Requests(rc::kSendMessageV2).at(0);
  auto header = protocol::DecodeSendMessageRequestHeader(request);
  ASSERT_TRUE(header.ok());
  EXPECT_NE(header->sys_flag & message::kCompressedFlag, 0);
  EXPECT_LT(request.body.size(), body.size());
}

TEST_F(ProducerTest, UnknownTopicErrorNamesNameServers) {
  Producer producer(Config());
  ASSERT_TRUE(producer.Start().ok());
  auto result = producer.Send(Message("Nope", "x"));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("No route info of this topic: Nope, NameServers asked: " +
                                           ns_.addr()),
            std::string::npos)
      << result.status().message();
}

}  // namespace
}  // namespace apogee
