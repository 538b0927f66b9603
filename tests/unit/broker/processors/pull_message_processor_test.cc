#include "broker/processors/pull_message_processor.h"

#include <gtest/gtest.h>

#include <future>
#include <mutex>

#include "broker/client/consumer_manager.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/longpolling/pull_request_hold_service.h"
#include "broker/processors/send_message_processor.h"
#include "message/message_record.h"
#include "protocol/consumer_headers.h"
#include "protocol/pull_sys_flag.h"
#include "protocol/response_code.h"
#include "remoting/executor.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
using protocol::kPullFlagCommitOffset;
using protocol::kPullFlagSubscription;
using protocol::kPullFlagSuspend;
using testing::BrokerHarness;
using testing::Call;
using testing::Ext;
using testing::FakeChannel;
using testing::SendRequest;
using testing::TestSettings;

protocol::RemotingCommand PullRequest(const std::string& topic, int32_t queue_id, int64_t offset,
                                      int32_t sys_flag, std::optional<std::string> sub = "*",
                                      int64_t suspend_ms = 15000) {
  protocol::PullMessageRequestHeader h;
  h.consumer_group = "CG";
  h.topic = topic;
  h.queue_id = queue_id;
  h.queue_offset = offset;
  h.max_msg_nums = 32;
  h.sys_flag = sys_flag;
  h.commit_offset = 0;
  h.suspend_timeout_millis = suspend_ms;
  h.subscription = std::move(sub);
  h.sub_version = 100;
  protocol::RemotingCommand request = protocol::RemotingCommand::MakeRequest(11);
  protocol::EncodeCustomHeader(h, &request);
  request.opaque = 9;
  return request;
}

std::vector<message::MessageExt> Messages(const protocol::RemotingCommand& r) {
  std::string body = r.body;
  for (std::string_view s : r.body_segments.segments) body.append(s);
  auto decoded = message::DecodeMessages(body);
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return decoded.ok() ? *decoded : std::vector<message::MessageExt>{};
}

class PullMessageProcessorTest : public ::testing::Test {
 protected:
  explicit PullMessageProcessorTest(BrokerSettings settings = TestSettings())
      : harness_(settings), sender_(harness_.SendDeps()) {
    hold_ = std::make_shared<PullRequestHoldService>(
        Clock::Real(),
        [this](std::string_view t, int32_t q) { return harness_.store->GetMaxOffsetInQueue(t, q); },
        nullptr);
    // Whatever hold_ is at the time (a test swaps in one with a full pool).
    harness_.context.arrival_observers.Add(
        "PullRequestHoldService", [this](std::string_view t, int32_t q, int64_t n) {
          if (std::shared_ptr<PullRequestHoldService> h = CurrentHold()) {
            h->NotifyMessageArriving(t, q, n);
          }
        });
    offsets_ =
        std::make_shared<ConsumerOffsetManager>(harness_.env.get(), "/store/config/co.json");
    processor_ = std::make_shared<PullMessageProcessor>(harness_.PullDeps(offsets_.get()), hold_);
    harness_.AddTopic("T", 2);
  }
  ~PullMessageProcessorTest() override { SetHold(nullptr)->Shutdown(); }

  std::shared_ptr<PullRequestHoldService> CurrentHold() {
    std::lock_guard<std::mutex> lock(hold_mu_);
    return hold_;
  }
  // Returns the previous one.
  std::shared_ptr<PullRequestHoldService> SetHold(std::shared_ptr<PullRequestHoldService> hold) {
    std::lock_guard<std::mutex> lock(hold_mu_);
    std::swap(hold, hold_);
    return hold;
  }

  void Send(int32_t queue_id, const std::string& body, const std::string& tags = "") {
    auto r = Call(sender_, SendRequest("T", queue_id, body, tags));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->code, rc::kSuccess);
  }
  // Every pull outcome must carry the four offsets as strings.
  static void ExpectPullHeader(const protocol::RemotingCommand& r, int64_t next, int64_t min,
                               int64_t max) {
    EXPECT_EQ(Ext(r, "suggestWhichBrokerId"), "0");
    EXPECT_EQ(Ext(r, "nextBeginOffset"), std::to_string(next));
    EXPECT_EQ(Ext(r, "minOffset"), std::to_string(min));
    EXPECT_EQ(Ext(r, "maxOffset"), std::to_string(max));
  }

  BrokerHarness harness_;
  SendMessageProcessor sender_;
  std::mutex hold_mu_;  // guards hold_ against the reput thread's reads while a test swaps it
  std::shared_ptr<PullRequestHoldService> hold_;
  std::shared_ptr<ConsumerOffsetManager> offsets_;
  std::shared_ptr<PullMessageProcessor> processor_;
};

TEST_F(PullMessageProcessorTest, FoundAnswersRecordsFromMappedMemory) {
  for (int i = 0; i < 3; ++i) Send(1, "m" + std::to_string(i));
  harness_.WaitDispatched();
  auto r = Call(*processor_, PullRequest("T", 1, 0, kPullFlagSubscription));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  EXPECT_EQ(r->opaque, 9);
  ExpectPullHeader(*r, 3, 0, 3);
  // Not copied: the records are borrowed segments kept alive by the response.
  EXPECT_TRUE(r->body.empty());
  EXPECT_EQ(r->body_segments.segments.size(), 3u);
  EXPECT_NE(r->body_segments.keepalive, nullptr);
  auto msgs = Messages(*r);
  ASSERT_EQ(msgs.size(), 3u);
  EXPECT_EQ(msgs[2].body, "m2");
  EXPECT_EQ(msgs[2].queue_offset, 2);

  auto from_two = Call(*processor_, PullRequest("T", 1, 2, kPullFlagSubscription));
  ASSERT_TRUE(from_two);
  ASSERT_EQ(Messages(*from_two).size(), 1u);
}

TEST_F(PullMessageProcessorTest, TagFilterUsesTheSubscriptionFromTheHeader) {
  Send(0, "a1", "TagA");
  Send(0, "b1", "TagB");
  Send(0, "a2", "TagA");
  Send(0, "none");
  harness_.WaitDispatched();
  auto r = Call(*processor_, PullRequest("T", 0, 0, kPullFlagSubscription, "TagA"));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess);
  auto msgs = Messages(*r);
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0].body, "a1");
  EXPECT_EQ(msgs[1].body, "a2");
  // Only non-matching entries left: retry immediately from past them.
  auto none = Call(*processor_, PullRequest("T", 0, 3, kPullFlagSubscription, "TagA"));
  ASSERT_TRUE(none);
  EXPECT_EQ(none->code, rc::kPullRetryImmediately);
  ExpectPullHeader(*none, 4, 0, 4);
}

TEST_F(PullMessageProcessorTest, NothingNewWithoutSuspendAnswersNotFoundAtOnce) {
  Send(1, "x");
  harness_.WaitDispatched();
  auto r = Call(*processor_, PullRequest("T", 1, 1, kPullFlagSubscription));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kPullNotFound);
  EXPECT_EQ(r->remark, "OFFSET_OVERFLOW_ONE");
  ExpectPullHeader(*r, 1, 0, 1);
  EXPECT_EQ(hold_->HeldCount(), 0u);
}

TEST_F(PullMessageProcessorTest, OffsetsOutsideTheQueueHaveMoved) {
  Send(1, "x");
  harness_.WaitDispatched();
  auto r = Call(*processor_, PullRequest("T", 1, 5, kPullFlagSubscription));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kPullOffsetMoved);
  // Java's nextOffsetCorrection: past the end of a queue that starts at 0, back to 0.
  ExpectPullHeader(*r, 0, 0, 1);
  // An empty queue: offset 0 is "nothing yet", anything else has moved.
  auto empty0 = Call(*processor_, PullRequest("T", 0, 0, kPullFlagSubscription));
  ASSERT_TRUE(empty0);
  EXPECT_EQ(empty0->code, rc::kPullNotFound);
  ExpectPullHeader(*empty0, 0, 0, 0);
  auto empty7 = Call(*processor_, PullRequest("T", 0, 7, kPullFlagSubscription));
  ASSERT_TRUE(empty7);
  EXPECT_EQ(empty7->code, rc::kPullOffsetMoved);
  ExpectPullHeader(*empty7, 0, 0, 0);
}

TEST_F(PullMessageProcessorTest, LongPollingAnswersWhenAMessageArrives) {
  auto channel = std::make_shared<FakeChannel>();
  protocol::RemotingCommand request =
      PullRequest("T", 1, 0, kPullFlagSubscription | kPullFlagSuspend, "*", 10000);
  remoting::Responder responder(channel, request);
  processor_->ProcessRequest(std::move(request), responder);
  EXPECT_EQ(hold_->HeldCount(), 1u);
  EXPECT_FALSE(channel->WaitResponse(1, std::chrono::milliseconds(200)));
  const int64_t sent_at = SteadyMillis();
  Send(1, "wake up");
  auto r = channel->WaitResponse(1, std::chrono::seconds(5));
  ASSERT_TRUE(r);
  EXPECT_LT(SteadyMillis() - sent_at, 3000);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  ASSERT_EQ(Messages(*r).size(), 1u);
  EXPECT_EQ(Messages(*r)[0].body, "wake up");
  EXPECT_EQ(hold_->HeldCount(), 0u);
}

TEST_F(PullMessageProcessorTest, WokenPullWithTheFullPullPoolIsAnsweredSystemBusy) {
  // The pull pool: its one thread busy and its queue (of one) full, so a woken pull can be
  // neither run nor queued. It must get SYSTEM_BUSY (clients pull again after their
  // back-off), never run on the thread that noticed the message (the store's reput thread).
  auto executor = std::make_shared<remoting::ThreadPoolExecutor>("pull", 1, 1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> started;
  ASSERT_TRUE(executor->TryExecute([&started, released] {
    started.set_value();
    released.wait();
  }));
  started.get_future().wait();
  ASSERT_TRUE(executor->TryExecute([] {}));
  SetHold(std::make_shared<PullRequestHoldService>(
              Clock::Real(),
              [this](std::string_view t, int32_t q) {
                return harness_.store->GetMaxOffsetInQueue(t, q);
              },
              executor))
      ->Shutdown();
  processor_ = std::make_shared<PullMessageProcessor>(harness_.PullDeps(offsets_.get()), hold_);

  auto channel = std::make_shared<FakeChannel>();
  protocol::RemotingCommand request =
      PullRequest("T", 1, 0, kPullFlagSubscription | kPullFlagSuspend, "*", 10000);
  remoting::Responder responder(channel, request);
  processor_->ProcessRequest(std::move(request), responder);
  ASSERT_EQ(hold_->HeldCount(), 1u);
  Send(1, "wake up");
  auto r = channel->WaitResponse(1, std::chrono::seconds(5));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSystemBusy) << r->remark.value_or("");
  EXPECT_EQ(r->opaque, 9);
  EXPECT_EQ(hold_->HeldCount(), 0u);
  release.set_value();
  executor->Shutdown();
}

TEST_F(PullMessageProcessorTest, LongPollingKeepsWaitingThroughMessagesTheFilterRejects) {
  auto channel = std::make_shared<FakeChannel>();
  protocol::RemotingCommand request =
      PullRequest("T", 1, 0, kPullFlagSubscription | kPullFlagSuspend, "TagA", 10000);
  remoting::Responder responder(channel, request);
  processor_->ProcessRequest(std::move(request), responder);
  Send(1, "other tag", "TagB");
  EXPECT_FALSE(channel->WaitResponse(1, std::chrono::milliseconds(300)));
  EXPECT_EQ(hold_->HeldCount(), 1u);
  Send(1, "wanted", "TagA");
  auto r = channel->WaitResponse(1, std::chrono::seconds(5));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  auto msgs = Messages(*r);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(msgs[0].body, "wanted");
  ExpectPullHeader(*r, 2, 0, 2);
}

TEST_F(PullMessageProcessorTest, LongPollingTimesOutWithNotFound) {
  hold_->Start();
  auto channel = std::make_shared<FakeChannel>();
  protocol::RemotingCommand request =
      PullRequest("T", 0, 0, kPullFlagSubscription | kPullFlagSuspend, "*", 300);
  const int64_t start = SteadyMillis();
  remoting::Responder responder(channel, request);
  processor_->ProcessRequest(std::move(request), responder);
  auto r = channel->WaitResponse(1, std::chrono::seconds(4));
  ASSERT_TRUE(r);
  const int64_t waited = SteadyMillis() - start;
  EXPECT_GE(waited, 290);
  EXPECT_LT(waited, 2000);
  EXPECT_EQ(r->code, rc::kPullNotFound);
  ExpectPullHeader(*r, 0, 0, 0);
  EXPECT_EQ(channel->ResponseCount(), 1u);
}

TEST_F(PullMessageProcessorTest, CommitOffsetFlagStoresTheConsumerOffset) {
  Send(0, "x");
  harness_.WaitDispatched();
  protocol::RemotingCommand request = PullRequest("T", 0, 0, kPullFlagSubscription | kPullFlagCommitOffset);
  request.ext_fields.Set("commitOffset", "17");
  auto r = Call(*processor_, std::move(request));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(offsets_->QueryOffset("CG", "T", 0), 17);
}

TEST_F(PullMessageProcessorTest, ErrorPathsAnswerJavasCodesWithARemark) {
  auto unknown_topic = Call(*processor_, PullRequest("Nope", 0, 0, kPullFlagSubscription));
  ASSERT_TRUE(unknown_topic);
  EXPECT_EQ(unknown_topic->code, rc::kTopicNotExist);
  EXPECT_NE(unknown_topic->remark->find("Nope"), std::string::npos);

  auto bad_queue = Call(*processor_, PullRequest("T", 2, 0, kPullFlagSubscription));
  ASSERT_TRUE(bad_queue);
  EXPECT_EQ(bad_queue->code, rc::kInvalidParameter);
  EXPECT_NE(bad_queue->remark->find("queueId[2]"), std::string::npos);
  auto negative_queue = Call(*processor_, PullRequest("T", -1, 0, kPullFlagSubscription));
  ASSERT_TRUE(negative_queue);
  EXPECT_EQ(negative_queue->code, rc::kInvalidParameter);

  auto parse = Call(*processor_, PullRequest("T", 0, 0, kPullFlagSubscription, "||"));
  ASSERT_TRUE(parse);
  EXPECT_EQ(parse->code, rc::kSubscriptionParseFailed);

  protocol::RemotingCommand sql = PullRequest("T", 0, 0, kPullFlagSubscription, "a > 1");
  sql.ext_fields.Set("expressionType", "SQL92");
  auto sql_r = Call(*processor_, std::move(sql));
  ASSERT_TRUE(sql_r);
  EXPECT_EQ(sql_r->code, rc::kSystemError);
  EXPECT_NE(sql_r->remark->find("SQL92"), std::string::npos);

  protocol::RemotingCommand malformed = PullRequest("T", 0, 0, kPullFlagSubscription);
  malformed.ext_fields.Erase("queueOffset");
  auto malformed_r = Call(*processor_, std::move(malformed));
  ASSERT_TRUE(malformed_r);
  EXPECT_EQ(malformed_r->code, rc::kSystemError);
  EXPECT_NE(malformed_r->remark->find("queueOffset"), std::string::npos);

  harness_.AddTopic("WO", 1, protocol::kPermWrite);
  auto write_only = Call(*processor_, PullRequest("WO", 0, 0, kPullFlagSubscription));
  ASSERT_TRUE(write_only);
  EXPECT_EQ(write_only->code, rc::kNoPermission);

  SubscriptionGroupConfig disabled;
  disabled.group_name = "CG";
  disabled.consume_enable = false;
  ASSERT_TRUE(harness_.groups->UpdateSubscriptionGroupConfig(disabled).ok());
  auto group_off = Call(*processor_, PullRequest("T", 0, 0, kPullFlagSubscription));
  ASSERT_TRUE(group_off);
  EXPECT_EQ(group_off->code, rc::kNoPermission);
  EXPECT_NE(group_off->remark->find("CG"), std::string::npos);
}

TEST_F(PullMessageProcessorTest, WithoutTheSubscriptionFlagTheHeartbeatDecides) {
  Send(0, "x", "TagA");
  harness_.WaitDispatched();
  // No ConsumerManager / group never sent a heartbeat.
  auto r = Call(*processor_, PullRequest("T", 0, 0, 0, std::nullopt));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSubscriptionNotExist);

  ManualClock clock;
  auto consumers = std::make_shared<ConsumerManager>(&clock, nullptr);
  processor_ = std::make_shared<PullMessageProcessor>(
      harness_.PullDeps(offsets_.get(), consumers.get()), hold_);
  r = Call(*processor_, PullRequest("T", 0, 0, 0, std::nullopt));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSubscriptionNotExist);
  EXPECT_NE(r->remark->find("CG"), std::string::npos);

  ClientChannelInfo info;
  info.channel = std::make_shared<FakeChannel>();
  info.client_id = "10.0.0.1@1";
  protocol::SubscriptionData other;
  other.topic = "Other";
  other.sub_string = "*";
  consumers->RegisterConsumer("CG", info, protocol::ConsumeType::kConsumePassively,
                              protocol::MessageModel::kClustering,
                              protocol::ConsumeFromWhere::kConsumeFromLastOffset, {other});
  r = Call(*processor_, PullRequest("T", 0, 0, 0, std::nullopt));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSubscriptionNotExist);
  EXPECT_NE(r->remark->find("T"), std::string::npos);

  protocol::SubscriptionData sub;
  sub.topic = "T";
  sub.sub_string = "TagA";
  sub.tags_set = {"TagA"};
  sub.code_set = {2598919};
  sub.sub_version = 50;  // older than the pull's 100
  consumers->RegisterConsumer("CG", info, protocol::ConsumeType::kConsumePassively,
                              protocol::MessageModel::kClustering,
                              protocol::ConsumeFromWhere::kConsumeFromLastOffset, {sub});
  r = Call(*processor_, PullRequest("T", 0, 0, 0, std::nullopt));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSubscriptionNotLatest);

  sub.sub_version = 100;
  consumers->RegisterConsumer("CG", info, protocol::ConsumeType::kConsumePassively,
                              protocol::MessageModel::kClustering,
                              protocol::ConsumeFromWhere::kConsumeFromLastOffset, {sub});
  r = Call(*processor_, PullRequest("T", 0, 0, 0, std::nullopt));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  EXPECT_EQ(Messages(*r).size(), 1u);
}

class PullWithoutReadPermissionTest : public PullMessageProcessorTest {
 protected:
  static BrokerSettings Settings() {
    BrokerSettings s = TestSettings();
    s.broker_permission = protocol::kPermWrite;
    s.auto_create_subscription_group = false;
    return s;
  }
  PullWithoutReadPermissionTest() : PullMessageProcessorTest(Settings()) {}
};

TEST_F(PullWithoutReadPermissionTest, BrokerNotReadableAndUnknownGroup) {
  auto r = Call(*processor_, PullRequest("T", 0, 0, kPullFlagSubscription));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kNoPermission);
  EXPECT_NE(r->remark->find("pulling message is forbidden"), std::string::npos);
}

class PullUnknownGroupTest : public PullMessageProcessorTest {
 protected:
  static BrokerSettings Settings() {
    BrokerSettings s = TestSettings();
    s.auto_create_subscription_group = false;
    return s;
  }
  PullUnknownGroupTest() : PullMessageProcessorTest(Settings()) {}
};

TEST_F(PullUnknownGroupTest, GroupMustExistWhenNotAutoCreated) {
  auto r = Call(*processor_, PullRequest("T", 0, 0, kPullFlagSubscription));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSubscriptionGroupNotExist);
  EXPECT_NE(r->remark->find("CG"), std::string::npos);
}

// ---- slave reads (suggestWhichBrokerId; Java's PullMessageProcessor + isInDisk) ----

BrokerSettings SlaveReadSettings(bool slave_read_enable, int32_t in_memory_ratio,
                                 const std::string& role = "ASYNC_MASTER") {
  BrokerSettings s = TestSettings();
  s.slave_read_enable = slave_read_enable;
  s.store.access_message_in_memory_max_ratio = in_memory_ratio;
  s.store.broker_role = role;
  return s;
}

class FarBehindPullTest : public PullMessageProcessorTest {
 protected:
  // A ratio of 0: no message counts as "in memory", so every read is far behind.
  FarBehindPullTest() : PullMessageProcessorTest(SlaveReadSettings(true, 0)) {}
};

TEST_F(FarBehindPullTest, MasterSendsAFarBehindConsumerToTheSlave) {
  for (int i = 0; i < 3; ++i) Send(1, "m" + std::to_string(i));
  harness_.WaitDispatched();
  auto r = Call(*processor_, PullRequest("T", 1, 0, kPullFlagSubscription));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess);
  // whichBrokerWhenConsumeSlowly of the group: 1 by default.
  EXPECT_EQ(Ext(*r, "suggestWhichBrokerId"), "1");
}

TEST_F(FarBehindPullTest, AFarBehindPullGoesToThePullPool) {
  for (int i = 0; i < 3; ++i) Send(1, "m" + std::to_string(i));
  harness_.WaitDispatched();
  ASSERT_TRUE(Call(*processor_, PullRequest("T", 1, 0, kPullFlagSubscription)));  // group "CG"
  EXPECT_FALSE(processor_->ServesInline(PullRequest("T", 1, 0, kPullFlagSubscription)));
  // At the queue's end there is nothing to read (an answer or a hold): served inline.
  EXPECT_TRUE(processor_->ServesInline(PullRequest("T", 1, 3, kPullFlagSubscription)));
}

class InMemoryPullTest : public PullMessageProcessorTest {
 protected:
  InMemoryPullTest() : PullMessageProcessorTest(SlaveReadSettings(true, 100)) {}
};

TEST_F(InMemoryPullTest, MasterKeepsAConsumerThatReadsFromMemory) {
  Send(1, "m");
  harness_.WaitDispatched();
  auto r = Call(*processor_, PullRequest("T", 1, 0, kPullFlagSubscription));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Ext(*r, "suggestWhichBrokerId"), "0");
}

TEST_F(InMemoryPullTest, APullFromMemoryIsServedInlineAndABadHeaderByThePool) {
  Send(1, "m");
  harness_.WaitDispatched();
  // Group "CG" is auto-created by its first pull, which writes the groups' file: the pool's.
  EXPECT_FALSE(processor_->ServesInline(PullRequest("T", 1, 0, kPullFlagSubscription)));
  ASSERT_TRUE(Call(*processor_, PullRequest("T", 1, 0, kPullFlagSubscription)));
  EXPECT_TRUE(processor_->ServesInline(PullRequest("T", 1, 0, kPullFlagSubscription)));
  // Unknown queue or topic: no entry, so not "in disk" (Java's answer); the pull itself
  // answers the error.
  EXPECT_TRUE(processor_->ServesInline(PullRequest("nope", 0, 0, kPullFlagSubscription)));
  // A header the inline test cannot read goes to the pool, whose decode words the error.
  protocol::RemotingCommand bad = PullRequest("T", 1, 0, kPullFlagSubscription);
  bad.ext_fields.Set("queueOffset", "zero");
  EXPECT_FALSE(processor_->ServesInline(bad));
  protocol::RemotingCommand missing = protocol::RemotingCommand::MakeRequest(11);
  EXPECT_FALSE(processor_->ServesInline(missing));
}

class NoSlaveReadPullTest : public PullMessageProcessorTest {
 protected:
  NoSlaveReadPullTest() : PullMessageProcessorTest(SlaveReadSettings(false, 0)) {}
};

TEST_F(NoSlaveReadPullTest, WithoutSlaveReadEnableTheMasterAlwaysSuggestsItself) {
  Send(1, "m");
  harness_.WaitDispatched();
  auto r = Call(*processor_, PullRequest("T", 1, 0, kPullFlagSubscription));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(Ext(*r, "suggestWhichBrokerId"), "0");
}

class SlavePullTest : public PullMessageProcessorTest {
 protected:
  // The default configuration: slaveReadEnable=false.
  SlavePullTest() : PullMessageProcessorTest(SlaveReadSettings(false, 40, "SLAVE")) {}

  // A slave's CommitLog grows by replication only: append the record as HA would.
  void Replicate(int32_t queue_id, int64_t queue_offset, const std::string& body) {
    message::RecordFields f;
    f.topic = "T";
    f.queue_id = queue_id;
    f.queue_offset = queue_offset;
    f.body = body;
    f.born_host = message::HostAddress::IPv4(127, 0, 0, 1, 1);
    f.store_host = message::HostAddress::IPv4(127, 0, 0, 1, 2);
    f.physical_offset = harness_.store->MaxPhyOffset();
    f.store_timestamp = NowMillis();
    auto record = message::EncodeRecordToString(f);
    ASSERT_TRUE(record.ok());
    ASSERT_TRUE(harness_.store->AppendRaw(f.physical_offset, *record).ok());
  }
};

TEST_F(SlavePullTest, SlaveServesReplicatedMessagesWithoutSlaveReadEnable) {
  for (int i = 0; i < 3; ++i) Replicate(1, i, "r" + std::to_string(i));
  harness_.WaitDispatched();
  auto r = Call(*processor_, PullRequest("T", 1, 0, kPullFlagSubscription, "*", 0));
  ASSERT_TRUE(r);
  // Java 4.x: the status switch overrides the role switch's PULL_RETRY_IMMEDIATELY.
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  ExpectPullHeader(*r, 3, 0, 3);  // suggestWhichBrokerId 0: back to the master when it is up
  auto msgs = Messages(*r);
  ASSERT_EQ(msgs.size(), 3u);
  EXPECT_EQ(msgs[0].body, "r0");
  EXPECT_EQ(msgs[2].body, "r2");
}

TEST_F(SlavePullTest, EmptyQueueOnASlaveIsNotFound) {
  auto r = Call(*processor_, PullRequest("T", 1, 0, kPullFlagSubscription, "*", 0));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kPullNotFound);
  EXPECT_EQ(Ext(*r, "suggestWhichBrokerId"), "0");
}

TEST_F(SlavePullTest, SlaveDoesNotCorrectOffsetsButRetriesAtTheGroupsBroker) {
  Replicate(1, 0, "r0");
  harness_.WaitDispatched();
  // Far past the end: OFFSET_OVERFLOW_BADLY, PULL_OFFSET_MOVED on a master.
  auto r = Call(*processor_, PullRequest("T", 1, 50, kPullFlagSubscription, "*", 0));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kPullRetryImmediately);
  EXPECT_EQ(Ext(*r, "suggestWhichBrokerId"), "0");  // the group's brokerId
}

TEST_F(SlavePullTest, SlaveNeverStoresTheCommitOffset) {
  Replicate(1, 0, "r0");
  harness_.WaitDispatched();
  protocol::RemotingCommand request =
      PullRequest("T", 1, 0, kPullFlagSubscription | kPullFlagCommitOffset, "*", 0);
  auto r = Call(*processor_, std::move(request));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kSuccess);
  EXPECT_EQ(offsets_->QueryOffset("CG", "T", 1), -1);
}

class SlaveReadEnabledPullTest : public PullMessageProcessorTest {
 protected:
  SlaveReadEnabledPullTest() : PullMessageProcessorTest(SlaveReadSettings(true, 40, "SLAVE")) {}
};

TEST_F(SlaveReadEnabledPullTest, EmptySlaveQueueSuggestsTheGroupsBroker) {
  auto r = Call(*processor_, PullRequest("T", 1, 0, kPullFlagSubscription, "*", 0));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code, rc::kPullNotFound);
  EXPECT_EQ(Ext(*r, "suggestWhichBrokerId"), "0");
}

}  // namespace
}  // namespace apogee::broker
