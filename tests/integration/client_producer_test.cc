// The C++ client's producers against real processes: a NameServer and two broker sets
// (broker-a, broker-b) on loopback. Every send mode, orderly and batch sends, compression
// (checked by pulling the stored bytes back raw), retry to the other broker set when one
// is killed, NameServer failover, and transactional sends (commit, rollback, check-back).
#include <gtest/gtest.h>

#include <csignal>
#include <future>
#include <map>
#include <set>

#include "apogee/producer.h"
#include "apogee/transaction_producer.h"
#include "broker_process.h"
#include "client/mq_client_api.h"
#include "message/compression.h"
#include "message/message_format.h"
#include "message/message_record.h"
#include "namesrv_process.h"
#include "protocol/admin_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/pull_sys_flag.h"
#include "protocol/send_headers.h"

namespace apogee::testing {
namespace {

using namespace std::chrono_literals;
namespace req = protocol::request_code;
namespace rc = protocol::response_code;
using protocol::RemotingCommand;

constexpr char kTopic[] = "ClientProducerTopic";
constexpr int32_t kQueues = 2;
// PullSysFlag.FLAG_SUBSCRIPTION: the pull carries its own subscription expression.

class ClientProducerTest : public ::testing::Test {
 protected:
  static Props BrokerProps() {
    // Fast transaction check-backs for the check-back test.
    return {{"transactionCheckInterval", "1000"}, {"transactionTimeOut", "1000"}};
  }

  void SetUp() override {
    ASSERT_TRUE(namesrv_.Start());
    ASSERT_TRUE(broker_a_.Start(namesrv_.addr()));
    ASSERT_TRUE(broker_b_.Start(namesrv_.addr()));
    api_.Start();
    ASSERT_TRUE(api_.UpdateNameServerAddressList(namesrv_.addr()).ok());
    for (BrokerProcess* broker : {&broker_a_, &broker_b_}) {
      ASSERT_EQ(CreateTopic(broker->addr(), kTopic), rc::kSuccess);
    }
    ASSERT_TRUE(WaitUntil(
        [&] {
          auto route = api_.GetTopicRouteInfoFromNameServer(kTopic, 3s);
          return route.ok() && route->broker_datas.size() == 2;
        },
        15s))
        << "topic route with both broker sets never appeared";
  }

  void TearDown() override { api_.Shutdown(); }

  int32_t CreateTopic(const std::string& addr, const std::string& topic) {
    protocol::CreateTopicRequestHeader h;
    h.topic = topic;
    h.default_topic = "TBW102";
    h.read_queue_nums = kQueues;
    h.write_queue_nums = kQueues;
    h.perm = 6;
    h.topic_filter_type = "SINGLE_TAG";
    RemotingCommand request = RemotingCommand::MakeRequest(req::kUpdateAndCreateTopic);
    protocol::EncodeCustomHeader(h, &request);
    auto res = api_.InvokeSync(addr, std::move(request), 5s);
    return res.ok() ? res->code : -1;
  }

  ProducerConfig Config(const std::string& group) {
    ProducerConfig config;
    config.namesrv_addr = namesrv_.addr();
    config.group_name = group;
    config.instance_name = "it_" + group;
    return config;
  }

  std::string BrokerAddr(const std::string& name) {
    return name == "broker-a" ? broker_a_.addr() : broker_b_.addr();
  }

  // The messages stored in one queue from `offset` on, as stored (bodies not inflated).
  std::vector<message::MessageExt> PullRaw(const MessageQueue& mq, int64_t offset = 0,
                                           int32_t max = 32) {
    protocol::PullMessageRequestHeader h;
    h.consumer_group = "ClientProducerCheckGroup";
    h.topic = mq.topic();
    h.queue_id = mq.queue_id();
    h.queue_offset = offset;
    h.max_msg_nums = max;
    h.sys_flag = protocol::kPullFlagSubscription;
    h.subscription = "*";
    h.expression_type = "TAG";
    auto pulled = api_.PullMessageSync(BrokerAddr(mq.broker_name()), h, 5s);
    if (!pulled.ok()) {
      ADD_FAILURE() << "pull " << mq.ToString() << ": " << pulled.status().ToString();
      return {};
    }
    if (pulled->code != rc::kSuccess) return {};
    auto messages = message::DecodeMessages(pulled->body, /*decompress=*/false);
    if (!messages.ok()) {
      ADD_FAILURE() << messages.status().ToString();
      return {};
    }
    return std::move(messages).value();
  }

  // Every message of the topic on both brokers, as stored.
  std::vector<message::MessageExt> PullAll(const std::string& topic = kTopic) {
    std::vector<message::MessageExt> all;
    for (const char* broker : {"broker-a", "broker-b"}) {
      for (int32_t q = 0; q < kQueues; ++q) {
        for (auto& m : PullRaw(MessageQueue(topic, broker, q))) all.push_back(std::move(m));
      }
    }
    return all;
  }

  NamesrvProcess namesrv_;
  BrokerProcess broker_a_{BrokerProps(), "broker-a"};
  BrokerProcess broker_b_{BrokerProps(), "broker-b"};
  client::MQClientAPI api_;
};

TEST_F(ClientProducerTest, EverySendModeStoresTheMessage) {
  Producer producer(Config("PG_modes"));
  ASSERT_TRUE(producer.Start().ok());

  std::set<std::string> brokers_used;
  std::set<std::string> ids;
  for (int i = 0; i < 6; ++i) {
    auto result = producer.Send(Message(kTopic, "sync", "key-" + std::to_string(i), "sync-" + std::to_string(i)));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->send_status, SendStatus::kSendOk);
    brokers_used.insert(result->message_queue.broker_name());
    ids.insert(result->msg_id);
  }
  EXPECT_EQ(brokers_used.size(), 2u) << "round-robin should reach both broker sets";

  std::vector<std::future<Result<SendResult>>> futures;
  for (int i = 0; i < 4; ++i) {
    auto promise = std::make_shared<std::promise<Result<SendResult>>>();
    futures.push_back(promise->get_future());
    producer.SendAsync(Message(kTopic, "async", "async-" + std::to_string(i)),
                       [promise](Result<SendResult> r) { promise->set_value(std::move(r)); });
  }
  for (auto& f : futures) {
    ASSERT_EQ(f.wait_for(10s), std::future_status::ready);
    auto result = f.get();
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    ids.insert(result->msg_id);
  }
  ASSERT_TRUE(producer.SendOneway(Message(kTopic, "oneway", "oneway-0")).ok());

  std::vector<message::MessageExt> stored;
  ASSERT_TRUE(WaitUntil([&] { stored = PullAll(); return stored.size() == 11; }, 10s))
      << "stored " << stored.size();
  std::map<std::string, int> by_tag;
  for (const auto& m : stored) {
    by_tag[std::string(m.tags().value_or(""))]++;
    ASSERT_TRUE(m.uniq_key());
    if (*m.tags() != "oneway") {
      EXPECT_TRUE(ids.contains(std::string(*m.uniq_key()))) << *m.uniq_key();
    }
  }
  EXPECT_EQ(by_tag["sync"], 6);
  EXPECT_EQ(by_tag["async"], 4);
  EXPECT_EQ(by_tag["oneway"], 1);
}

TEST_F(ClientProducerTest, CompressedBodyIsStoredCompressedAndInflatesBack) {
  Producer producer(Config("PG_zip"));
  ASSERT_TRUE(producer.Start().ok());
  std::string body;
  for (int i = 0; i < 2000; ++i) body += "line " + std::to_string(i) + "\n";
  ASSERT_GE(body.size(), 4096u);
  MessageQueue mq(kTopic, "broker-a", 0);
  auto result = producer.Send(Message(kTopic, "zip", body), mq);
  ASSERT_TRUE(result.ok()) << result.status().ToString();

  std::vector<message::MessageExt> raw;
  ASSERT_TRUE(WaitUntil([&] { raw = PullRaw(mq); return raw.size() == 1; }, 10s));
  EXPECT_NE(raw[0].sys_flag & message::kCompressedFlag, 0);
  EXPECT_LT(raw[0].body.size(), body.size());
  auto inflated = message::DecompressBody(raw[0].body, raw[0].sys_flag);
  ASSERT_TRUE(inflated.ok()) << inflated.status().ToString();
  EXPECT_EQ(*inflated, body);

  // A small body is stored as is.
  ASSERT_TRUE(producer.Send(Message(kTopic, "plain", "small"), mq).ok());
  std::vector<message::MessageExt> second;
  ASSERT_TRUE(WaitUntil([&] { second = PullRaw(mq, 1); return second.size() == 1; }, 10s));
  EXPECT_EQ(second[0].sys_flag & message::kCompressedFlag, 0);
  EXPECT_EQ(second[0].body, "small");
}

TEST_F(ClientProducerTest, OrderlySendsKeepPerKeyOrderInOneQueue) {
  Producer producer(Config("PG_order"));
  ASSERT_TRUE(producer.Start().ok());
  std::map<std::string, std::set<MessageQueue>> queue_of;
  for (int i = 0; i < 30; ++i) {
    std::string key = "order-" + std::to_string(i % 5);
    auto result = producer.SendOrderly(Message(kTopic, key, std::to_string(i)), key);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    queue_of[key].insert(result->message_queue);
  }
  for (const auto& [key, queues] : queue_of) {
    ASSERT_EQ(queues.size(), 1u) << key;
    std::vector<int> seen;
    ASSERT_TRUE(WaitUntil(
        [&] {
          seen.clear();
          for (const auto& m : PullRaw(*queues.begin())) {
            if (m.tags() == key) seen.push_back(std::stoi(m.body));
          }
          return seen.size() == 6;
        },
        10s))
        << key << ": " << seen.size();
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end())) << key;
  }
}

TEST_F(ClientProducerTest, BatchIsStoredAsConsecutiveMessages) {
  Producer producer(Config("PG_batch"));
  ASSERT_TRUE(producer.Start().ok());
  std::vector<Message> batch;
  for (int i = 0; i < 10; ++i) batch.emplace_back(kTopic, "batch", "b-" + std::to_string(i));
  MessageQueue mq(kTopic, "broker-b", 1);
  auto result = producer.Send(batch, mq);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->queue_offset, 0);
  std::vector<message::MessageExt> stored;
  ASSERT_TRUE(WaitUntil([&] { stored = PullRaw(mq); return stored.size() == 10; }, 10s))
      << "stored " << stored.size();
  std::set<std::string> uniq;
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(stored[i].body, "b-" + std::to_string(i));
    EXPECT_EQ(stored[i].queue_offset, i);
    uniq.insert(std::string(stored[i].uniq_key().value_or("")));
  }
  EXPECT_EQ(uniq.size(), 10u);
  std::string joined;
  for (const auto& m : stored) joined += (joined.empty() ? "" : ",") + std::string(*m.uniq_key());
  EXPECT_EQ(result->msg_id, joined);
}

TEST_F(ClientProducerTest, KilledBrokerSetIsAvoidedByRetries) {
  Producer producer(Config("PG_kill"));
  ASSERT_TRUE(producer.Start().ok());
  ASSERT_TRUE(producer.Send(Message(kTopic, "warm", "warm")).ok());  // route cached
  ASSERT_TRUE(broker_b_.process().Signal(SIGKILL));
  broker_b_.process().Wait(5s);
  for (int i = 0; i < 10; ++i) {
    auto result = producer.Send(Message(kTopic, "after-kill", std::to_string(i)));
    ASSERT_TRUE(result.ok()) << "send " << i << ": " << result.status().ToString();
    EXPECT_EQ(result->message_queue.broker_name(), "broker-a");
  }
}

TEST_F(ClientProducerTest, FirstNameServerDownFailsOverToTheNext) {
  ProducerConfig config = Config("PG_nsfail");
  config.namesrv_addr = "127.0.0.1:" + std::to_string(PickFreePort()) + ";" + namesrv_.addr();
  Producer producer(config);
  ASSERT_TRUE(producer.Start().ok());
  for (int i = 0; i < 3; ++i) {
    auto result = producer.Send(Message(kTopic, "ns", std::to_string(i)));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
  }

  ProducerConfig none = Config("PG_nsnone");
  std::string dead1 = "127.0.0.1:" + std::to_string(PickFreePort());
  none.namesrv_addr = dead1;
  Producer lost(none);
  ASSERT_TRUE(lost.Start().ok());
  auto result = lost.Send(Message(kTopic, "ns", "x"));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("No route info of this topic: " + std::string(kTopic) +
                                           ", NameServers asked: " + dead1),
            std::string::npos)
      << result.status().message();
}

// ---------------------------------------------------------------- transactions

class ScriptedListener : public TransactionListener {
 public:
  explicit ScriptedListener(LocalTransactionState execute, LocalTransactionState check)
      : execute_(execute), check_(check) {}
  LocalTransactionState ExecuteLocalTransaction(const Message& msg, void*) override {
    executed_++;
    EXPECT_FALSE(msg.transaction_id().empty());
    return execute_;
  }
  LocalTransactionState CheckLocalTransaction(const MessageExt& msg) override {
    checked_++;
    return check_;
  }
  std::atomic<int> executed_{0};
  std::atomic<int> checked_{0};

 private:
  LocalTransactionState execute_;
  LocalTransactionState check_;
};

class ClientTransactionTest : public ClientProducerTest {
 protected:
  // END_TRANSACTION is oneway, so ask the broker directly once whether it serves the code.
  bool BrokerServesTransactions() {
    protocol::EndTransactionRequestHeader h;
    h.producer_group = "probe";
    h.msg_id = "probe";
    h.commit_or_rollback = message::kTransactionNotType;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kEndTransaction);
    protocol::EncodeCustomHeader(h, &request);
    auto res = api_.InvokeSync(broker_a_.addr(), std::move(request), 5s);
    return !(res.ok() && res->code == rc::kRequestCodeNotSupported);
  }

  // Messages of `tag` visible to consumers on broker-a.
  size_t Visible(const std::string& tag) {
    size_t n = 0;
    for (int32_t q = 0; q < kQueues; ++q) {
      for (const auto& m : PullRaw(MessageQueue(kTopic, "broker-a", q))) {
        if (m.tags() == tag) n++;
      }
    }
    return n;
  }
};

TEST_F(ClientTransactionTest, CommitRollbackAndCheckBack) {
  if (!BrokerServesTransactions()) {
    GTEST_SKIP() << "the broker answers END_TRANSACTION with REQUEST_CODE_NOT_SUPPORTED "
                    "(transactions not built yet)";
  }
  ProducerConfig config = Config("PG_txn");
  auto commit_listener = std::make_shared<ScriptedListener>(LocalTransactionState::kCommitMessage,
                                                            LocalTransactionState::kCommitMessage);
  // Sends spread over both broker sets; the counts below look at broker-a's share.
  TransactionProducer committer(config, commit_listener);
  ASSERT_TRUE(committer.Start().ok());
  int committed = 0;
  for (int i = 0; i < 4; ++i) {
    auto result = committer.SendMessageInTransaction(Message(kTopic, "txn-commit", std::to_string(i)), nullptr);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->local_transaction_state, LocalTransactionState::kCommitMessage);
    if (result->message_queue.broker_name() == "broker-a") committed++;
  }
  EXPECT_EQ(commit_listener->executed_, 4);
  ASSERT_TRUE(WaitUntil([&] { return Visible("txn-commit") == static_cast<size_t>(committed); }, 10s))
      << "committed " << committed << ", visible " << Visible("txn-commit");
  committer.Shutdown();

  auto rollback_listener = std::make_shared<ScriptedListener>(LocalTransactionState::kRollbackMessage,
                                                              LocalTransactionState::kRollbackMessage);
  TransactionProducer roller(Config("PG_txn_rb"), rollback_listener);
  ASSERT_TRUE(roller.Start().ok());
  for (int i = 0; i < 4; ++i) {
    auto result = roller.SendMessageInTransaction(Message(kTopic, "txn-rollback", std::to_string(i)), nullptr);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->local_transaction_state, LocalTransactionState::kRollbackMessage);
  }

  auto unknown_listener = std::make_shared<ScriptedListener>(LocalTransactionState::kUnknow,
                                                             LocalTransactionState::kCommitMessage);
  TransactionProducer checker(Config("PG_txn_check"), unknown_listener);
  ASSERT_TRUE(checker.Start().ok());
  int on_a = 0;
  for (int i = 0; i < 2; ++i) {
    auto result = checker.SendMessageInTransaction(Message(kTopic, "txn-check", std::to_string(i)), nullptr);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->local_transaction_state, LocalTransactionState::kUnknow);
    if (result->message_queue.broker_name() == "broker-a") on_a++;
  }
  // The broker checks back (transactionCheckInterval 1 s, transactionTimeOut 1 s); the
  // listener answers COMMIT and the messages become visible.
  ASSERT_TRUE(WaitUntil([&] { return unknown_listener->checked_ >= 2; }, 30s))
      << "checked " << unknown_listener->checked_;
  ASSERT_TRUE(WaitUntil([&] { return Visible("txn-check") == static_cast<size_t>(on_a); }, 15s));
  EXPECT_EQ(Visible("txn-rollback"), 0u);
}

}  // namespace
}  // namespace apogee::testing
