// Transactional messages through a real mqbroker process, with a raw remoting client in the
// role of a transactional producer: it sends prepared messages (sysFlag PREPARED, TRAN_MSG,
// PGROUP), ends them with END_TRANSACTION (as a request, like ali-ons and the C++ client,
// and one-way, like Java), and answers the broker's CHECK_TRANSACTION_STATE. Checked:
// committed messages arrive, rolled-back ones never do, an undecided one is settled by the
// check-back, decisions and check progress survive a restart, and checks stop after
// transactionCheckMax with the message set aside in TRANS_CHECK_MAX_TIME_TOPIC.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "broker_process.h"
#include "message/message.h"
#include "message/message_id.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/client_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/heartbeat_data.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "remoting/remoting_client.h"
#include "remoting/request_processor.h"

namespace apogee::testing {
namespace {

namespace resp = protocol::response_code;
namespace req = protocol::request_code;
using namespace std::chrono_literals;
using protocol::RemotingCommand;

constexpr char kGroup[] = "tx_producer";
constexpr char kTopic[] = "TxTopic";
constexpr int32_t kPrepared = 0x4;
constexpr int32_t kCommit = 0x8;
constexpr int32_t kRollback = 0xC;

struct Prepared {
  std::string uniq_key;
  int64_t queue_offset = 0;       // in the half queue
  int64_t commit_log_offset = 0;  // of the half message
};

// CHECK_TRANSACTION_STATE requests as the client received them.
class CheckInbox {
 public:
  void Push(RemotingCommand request) {
    std::lock_guard<std::mutex> lock(mu_);
    checks_.push_back(std::move(request));
    cv_.notify_all();
  }
  std::optional<RemotingCommand> Pop(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, timeout, [&] { return !checks_.empty(); })) return std::nullopt;
    RemotingCommand c = std::move(checks_.front());
    checks_.pop_front();
    return c;
  }
  size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return checks_.size();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<RemotingCommand> checks_;
};

class BrokerTransactionTest : public ::testing::Test {
 protected:
  BrokerTransactionTest()
      : broker_(Props{{"transactionTimeOut", "2000"},
                 {"transactionCheckInterval", "1000"},
                 {"transactionCheckMax", "15"}}) {}

  void SetUp() override {
    ASSERT_TRUE(broker_.Start(""));
    StartClient();
  }
  void TearDown() override { client_->Shutdown(); }

  void StartClient() {
    client_ = std::make_unique<remoting::RemotingClient>();
    client_->RegisterProcessor(
        req::kCheckTransactionState,
        remoting::MakeProcessor(
            [this](RemotingCommand request, remoting::Responder) { inbox_.Push(std::move(request)); }));
    client_->Start();
  }

  Result<RemotingCommand> Call(RemotingCommand request) {
    return client_->InvokeSync(broker_.addr(), std::move(request), 10s);
  }

  // HEART_BEAT as a producer of kGroup: the broker checks transactions on this connection.
  void Heartbeat() {
    protocol::HeartbeatData hb;
    hb.client_id = "127.0.0.1@tx-test";
    hb.producer_data_set.push_back({kGroup});
    RemotingCommand request = RemotingCommand::MakeRequest(req::kHeartBeat);
    request.body = protocol::EncodeHeartbeatData(hb);
    auto r = Call(std::move(request));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->code, resp::kSuccess);
  }

  Prepared SendPrepared(const std::string& uniq_key, int32_t queue_id = 0) {
    protocol::SendMessageRequestHeaderV2 h;
    h.producer_group = kGroup;
    h.topic = kTopic;
    h.default_topic = "TBW102";
    h.default_topic_queue_nums = 4;
    h.queue_id = queue_id;
    h.sys_flag = kPrepared;
    h.born_timestamp = apogee::NowMillis();
    message::MessageProperties props;
    (void)props.Set("TRAN_MSG", "true");
    (void)props.Set("PGROUP", kGroup);
    (void)props.Set("UNIQ_KEY", uniq_key);
    (void)props.Set("KEYS", "key-" + uniq_key);
    h.properties = props.Encode();
    RemotingCommand request = RemotingCommand::MakeRequest(req::kSendMessageV2);
    protocol::EncodeCustomHeader(h, &request);
    request.body = "body-" + uniq_key;
    auto r = Call(std::move(request));
    Prepared p;
    p.uniq_key = uniq_key;
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return p;
    EXPECT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
    p.queue_offset = std::stoll(std::string(r->ext_fields.Get("queueOffset").value_or("-1")));
    auto id = message::ParseOffsetMsgId(r->ext_fields.Get("msgId").value_or(""));
    EXPECT_TRUE(id.ok());
    if (id.ok()) p.commit_log_offset = id->physical_offset;
    return p;
  }

  RemotingCommand EndRequest(const Prepared& p, int32_t decision, bool from_check = false) {
    protocol::EndTransactionRequestHeader h;
    h.producer_group = kGroup;
    h.tran_state_table_offset = p.queue_offset;
    h.commit_log_offset = p.commit_log_offset;
    h.commit_or_rollback = decision;
    h.from_transaction_check = from_check;
    h.msg_id = p.uniq_key;
    h.transaction_id = p.uniq_key;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kEndTransaction);
    protocol::EncodeCustomHeader(h, &request);
    return request;
  }

  // As ali-ons and the C++ client: a request that is answered.
  void End(const Prepared& p, int32_t decision, bool from_check = false) {
    auto r = Call(EndRequest(p, decision, from_check));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
  }
  // As the Java producer: one-way.
  void EndOneway(const Prepared& p, int32_t decision) {
    ASSERT_TRUE(client_->InvokeOneway(broker_.addr(), EndRequest(p, decision), 5s).ok());
  }

  std::vector<message::MessageExt> PullAll(const std::string& topic, int32_t queue_id) {
    protocol::PullMessageRequestHeader h;
    h.consumer_group = "tx_reader";
    h.topic = topic;
    h.queue_id = queue_id;
    h.queue_offset = 0;
    h.max_msg_nums = 64;
    h.sys_flag = 0x4;  // subscription in the header
    h.subscription = "*";
    h.sub_version = 1;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kPullMessage);
    protocol::EncodeCustomHeader(h, &request);
    auto r = Call(std::move(request));
    if (!r.ok() || r->code != resp::kSuccess) return {};
    auto msgs = message::DecodeMessages(r->body);
    EXPECT_TRUE(msgs.ok()) << msgs.status().ToString();
    return msgs.ok() ? *msgs : std::vector<message::MessageExt>{};
  }
  std::vector<std::string> Delivered(int32_t queue_id = 0) {
    std::vector<std::string> ids;
    for (const auto& m : PullAll(kTopic, queue_id)) ids.emplace_back(m.msg_id());
    return ids;
  }

  BrokerProcess broker_;
  std::unique_ptr<remoting::RemotingClient> client_;
  CheckInbox inbox_;
};

TEST_F(BrokerTransactionTest, CommittedMessagesArriveRolledBackOnesNever) {
  Heartbeat();
  Prepared a = SendPrepared("TXA00000000000000000000000000001");
  Prepared b = SendPrepared("TXB00000000000000000000000000002");
  Prepared c = SendPrepared("TXC00000000000000000000000000003");
  EXPECT_TRUE(Delivered().empty()) << "prepared messages must stay invisible";

  End(a, kCommit);
  EndOneway(b, kRollback);
  EndOneway(c, kCommit);
  std::vector<std::string> ids;
  ASSERT_TRUE(WaitUntil([&] { return (ids = Delivered()).size() >= 2; }, 10s));
  EXPECT_EQ(ids, (std::vector<std::string>{a.uniq_key, c.uniq_key}));
  auto msgs = PullAll(kTopic, 0);
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0].body, "body-" + a.uniq_key);
  EXPECT_EQ(msgs[0].sys_flag & 0xC, kCommit);
  EXPECT_EQ(msgs[0].prepared_transaction_offset, a.commit_log_offset);
  EXPECT_FALSE(msgs[0].properties.Has("TRAN_MSG"));

  // Decided: no check-back for any of them, even well past the timeout.
  std::this_thread::sleep_for(3500ms);
  EXPECT_EQ(inbox_.size(), 0u);
  EXPECT_EQ(Delivered().size(), 2u);

  // A commit naming the wrong group or offset is refused and changes nothing.
  Prepared d = SendPrepared("TXD00000000000000000000000000004");
  Prepared wrong = d;
  wrong.queue_offset += 100;
  auto r = Call(EndRequest(wrong, kCommit));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->code, resp::kSystemError);
  EXPECT_NE(r->remark.value_or("").find("transaction state table offset wrong"),
            std::string::npos);
}

TEST_F(BrokerTransactionTest, UnknownTransactionIsSettledByCheckBack) {
  Heartbeat();
  Prepared p = SendPrepared("TXU00000000000000000000000000005", 2);
  End(p, 0);  // UNKNOW: the producer does not know yet
  std::optional<RemotingCommand> check = inbox_.Pop(10s);
  ASSERT_TRUE(check) << broker_.ReadLog();
  EXPECT_TRUE(check->IsOneway());
  auto header = protocol::DecodeCustomHeader<protocol::CheckTransactionStateRequestHeader>(*check);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(header->msg_id, p.uniq_key);
  EXPECT_EQ(header->transaction_id, p.uniq_key);
  EXPECT_GT(header->commit_log_offset, p.commit_log_offset);  // a re-appended copy
  auto body = message::DecodeMessages(check->body);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  ASSERT_EQ(body->size(), 1u);
  EXPECT_EQ((*body)[0].topic, kTopic);
  EXPECT_EQ((*body)[0].queue_id, 2);
  EXPECT_EQ((*body)[0].body, "body-" + p.uniq_key);
  EXPECT_EQ((*body)[0].properties.Get("TRANSACTION_CHECK_TIMES"), "1");

  // The producer answers the check as Java does: the header's offsets, fromTransactionCheck.
  Prepared answer = p;
  answer.queue_offset = header->tran_state_table_offset;
  answer.commit_log_offset = header->commit_log_offset;
  End(answer, kCommit, true);
  std::vector<std::string> ids;
  ASSERT_TRUE(WaitUntil([&] { return !(ids = Delivered(2)).empty(); }, 10s));
  EXPECT_EQ(ids, std::vector<std::string>{p.uniq_key});
  // Settled: no further checks.
  while (inbox_.Pop(0ms)) {
  }
  std::this_thread::sleep_for(2500ms);
  EXPECT_EQ(inbox_.size(), 0u);
  EXPECT_EQ(Delivered(2).size(), 1u);
}

TEST_F(BrokerTransactionTest, DecisionsAndProgressSurviveARestart) {
  Heartbeat();
  Prepared committed = SendPrepared("TXR00000000000000000000000000006");
  Prepared rolled_back = SendPrepared("TXR00000000000000000000000000007");
  Prepared open = SendPrepared("TXR00000000000000000000000000008");
  End(committed, kCommit);
  End(rolled_back, kRollback);
  client_->Shutdown();
  ASSERT_EQ(broker_.Stop(), 0);
  ASSERT_TRUE(broker_.Start(""));
  StartClient();
  // Only the undecided one is asked about once a producer of the group is back.
  Heartbeat();
  ASSERT_TRUE(WaitUntil([&] { return Delivered().size() == 1; }, 10s));
  std::optional<RemotingCommand> check = inbox_.Pop(10s);
  ASSERT_TRUE(check) << broker_.ReadLog();
  auto header = protocol::DecodeCustomHeader<protocol::CheckTransactionStateRequestHeader>(*check);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->msg_id, open.uniq_key);
  Prepared answer = open;
  answer.queue_offset = header->tran_state_table_offset;
  answer.commit_log_offset = header->commit_log_offset;
  End(answer, kRollback, true);
  std::this_thread::sleep_for(1500ms);
  while (auto more = inbox_.Pop(0ms)) {
    auto h = protocol::DecodeCustomHeader<protocol::CheckTransactionStateRequestHeader>(*more);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->msg_id, open.uniq_key) << "decided transactions are never checked";
  }
  EXPECT_EQ(Delivered(), std::vector<std::string>{committed.uniq_key});
}

TEST_F(BrokerTransactionTest, ChecksStopAfterTransactionCheckMax) {
  client_->Shutdown();
  ASSERT_EQ(broker_.Stop(), 0);
  broker_.SetExtra("transactionCheckMax", "3");
  ASSERT_TRUE(broker_.Start(""));
  StartClient();
  Heartbeat();
  Prepared p = SendPrepared("TXM00000000000000000000000000009", 1);
  // Never answered: exactly transactionCheckMax (3) checks, then it is set aside.
  std::vector<std::string> times;
  for (int i = 0; i < 3; ++i) {
    std::optional<RemotingCommand> check = inbox_.Pop(10s);
    ASSERT_TRUE(check) << "check " << i + 1 << " missing\n" << broker_.ReadLog();
    auto body = message::DecodeMessages(check->body);
    ASSERT_TRUE(body.ok());
    times.emplace_back((*body)[0].properties.Get("TRANSACTION_CHECK_TIMES").value_or(""));
  }
  EXPECT_EQ(times, (std::vector<std::string>{"1", "2", "3"}));
  std::vector<message::MessageExt> discarded;
  ASSERT_TRUE(WaitUntil(
      [&] { return !(discarded = PullAll("TRANS_CHECK_MAX_TIME_TOPIC", 0)).empty(); }, 10s));
  EXPECT_EQ(discarded[0].msg_id(), p.uniq_key);
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(inbox_.size(), 0u);
  EXPECT_TRUE(Delivered(1).empty());
}

}  // namespace
}  // namespace apogee::testing
