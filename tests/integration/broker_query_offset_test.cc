// Message query, offset reset and DLQ redrive through a real mqbroker process with raw
// remoting clients: QUERY_MESSAGE by key and by UNIQ_KEY within a time range across several
// IndexFiles (tiny index settings), VIEW_MESSAGE_BY_ID from an offset msgId,
// INVOKE_BROKER_TO_RESET_OFFSET to a time for an online group (RESET_CONSUMER_CLIENT_OFFSET
// pushed, stored offset rewritten, a pull re-reads from there) and for an offline group
// (stored offset rewritten, kept across a restart), and APOGEE_REDRIVE_DLQ_MESSAGE moving
// %DLQ% messages back once.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "broker_process.h"
#include "message/message.h"
#include "message/message_id.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/admin_bodies.h"
#include "protocol/admin_headers.h"
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

struct Sent {
  std::string uniq_key;
  std::string offset_msg_id;
  int64_t queue_offset = 0;
};

class BrokerQueryOffsetTest : public ::testing::Test {
 protected:
  // About 2 index entries per message (UNIQ_KEY and one KEYS value) and 16 per IndexFile:
  // 40 messages need several files.
  BrokerQueryOffsetTest() : broker_(Props{{"maxHashSlotNum", "8"}, {"maxIndexNum", "16"}}) {}

  void SetUp() override {
    ASSERT_TRUE(broker_.Start(""));
    client_ = std::make_unique<remoting::RemotingClient>();
    client_->RegisterProcessor(
        req::kResetConsumerClientOffset,
        remoting::MakeProcessor([this](RemotingCommand request, remoting::Responder) {
          std::lock_guard<std::mutex> lock(mu_);
          resets_.push_back(std::move(request));
          cv_.notify_all();
        }));
    client_->Start();
  }
  void TearDown() override { client_->Shutdown(); }

  Result<RemotingCommand> Call(RemotingCommand request) {
    return client_->InvokeSync(broker_.addr(), std::move(request), 10s);
  }

  void CreateTopic(const std::string& topic, int32_t queues) {
    protocol::CreateTopicRequestHeader h;
    h.topic = topic;
    h.default_topic = "TBW102";
    h.read_queue_nums = queues;
    h.write_queue_nums = queues;
    h.perm = 6;
    h.topic_filter_type = "SINGLE_TAG";
    RemotingCommand request = RemotingCommand::MakeRequest(req::kUpdateAndCreateTopic);
    protocol::EncodeCustomHeader(h, &request);
    auto r = Call(std::move(request));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
  }

  Sent Send(const std::string& topic, const std::string& uniq_key, const std::string& keys,
            message::MessageProperties props = {}, std::optional<int32_t> reconsume = {}) {
    protocol::SendMessageRequestHeaderV2 h;
    h.producer_group = "qo_producer";
    h.topic = topic;
    h.default_topic = "TBW102";
    h.default_topic_queue_nums = 4;
    h.queue_id = 0;
    h.born_timestamp = apogee::NowMillis();
    h.reconsume_times = reconsume;
    h.max_reconsume_times = reconsume;
    (void)props.Set("UNIQ_KEY", uniq_key);
    if (!keys.empty()) (void)props.Set("KEYS", keys);
    h.properties = props.Encode();
    RemotingCommand request = RemotingCommand::MakeRequest(req::kSendMessageV2);
    request.version = 401;
    protocol::EncodeCustomHeader(h, &request);
    request.body = "body-" + uniq_key;
    auto r = Call(std::move(request));
    Sent s;
    s.uniq_key = uniq_key;
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return s;
    EXPECT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
    s.offset_msg_id = std::string(r->ext_fields.Get("msgId").value_or(""));
    s.queue_offset = std::stoll(std::string(r->ext_fields.Get("queueOffset").value_or("-1")));
    return s;
  }

  Result<std::vector<message::MessageExt>> Query(const std::string& topic, const std::string& key,
                                                 int64_t begin, int64_t end, bool uniq = false) {
    protocol::QueryMessageRequestHeader h;
    h.topic = topic;
    h.key = key;
    h.max_num = 32;
    h.begin_timestamp = begin;
    h.end_timestamp = end;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kQueryMessage);
    protocol::EncodeCustomHeader(h, &request);
    if (uniq) request.ext_fields.Set("_UNIQUE_KEY_QUERY", "true");
    APOGEE_ASSIGN_OR_RETURN(RemotingCommand r, Call(std::move(request)));
    if (r.code == resp::kQueryNotFound) return std::vector<message::MessageExt>{};
    if (r.code != resp::kSuccess) {
      return Status::Internal("QUERY_MESSAGE code " + std::to_string(r.code) + " " +
                              r.remark.value_or(""));
    }
    return message::DecodeMessages(r.body);
  }

  std::vector<message::MessageExt> Pull(const std::string& topic, int64_t offset,
                                        const std::string& group = "reader") {
    protocol::PullMessageRequestHeader h;
    h.consumer_group = group;
    h.topic = topic;
    h.queue_id = 0;
    h.queue_offset = offset;
    h.max_msg_nums = 64;
    h.sys_flag = 0x4;
    h.subscription = "*";
    h.sub_version = 1;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kPullMessage);
    protocol::EncodeCustomHeader(h, &request);
    auto r = Call(std::move(request));
    if (!r.ok() || r->code != resp::kSuccess) return {};
    auto msgs = message::DecodeMessages(r->body);
    return msgs.ok() ? *msgs : std::vector<message::MessageExt>{};
  }

  void CommitOffset(const std::string& group, const std::string& topic, int64_t offset) {
    protocol::UpdateConsumerOffsetRequestHeader h;
    h.consumer_group = group;
    h.topic = topic;
    h.queue_id = 0;
    h.commit_offset = offset;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kUpdateConsumerOffset);
    protocol::EncodeCustomHeader(h, &request);
    auto r = Call(std::move(request));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->code, resp::kSuccess);
  }

  int64_t QueryOffset(const std::string& group, const std::string& topic) {
    protocol::QueryConsumerOffsetRequestHeader h;
    h.consumer_group = group;
    h.topic = topic;
    h.queue_id = 0;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kQueryConsumerOffset);
    protocol::EncodeCustomHeader(h, &request);
    auto r = Call(std::move(request));
    if (!r.ok() || r->code != resp::kSuccess) return -1;
    return std::stoll(std::string(r->ext_fields.Get("offset").value_or("-1")));
  }

  void ConsumerHeartbeat(const std::string& group, const std::string& topic) {
    protocol::HeartbeatData hb;
    hb.client_id = "127.0.0.1@qo-test";
    protocol::ConsumerData c;
    c.group_name = group;
    c.consume_type = protocol::ConsumeType::kConsumePassively;
    protocol::SubscriptionData sub;
    sub.topic = topic;
    sub.sub_string = "*";
    sub.sub_version = 1;
    c.subscription_data_set.push_back(sub);
    hb.consumer_data_set.push_back(c);
    RemotingCommand request = RemotingCommand::MakeRequest(req::kHeartBeat);
    request.body = protocol::EncodeHeartbeatData(hb);
    auto r = Call(std::move(request));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
  }

  RemotingCommand ResetToTime(const std::string& group, const std::string& topic, int64_t ts) {
    protocol::ResetOffsetRequestHeader h;
    h.group = group;
    h.topic = topic;
    h.timestamp = ts;
    h.is_force = true;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kInvokeBrokerToResetOffset);
    protocol::EncodeCustomHeader(h, &request);
    auto r = Call(std::move(request));
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : RemotingCommand{};
  }

  RemotingCommand Redrive(const std::string& group) {
    protocol::RedriveDlqMessageRequestHeader h;
    h.consumer_group = group;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kApogeeRedriveDlqMessage);
    protocol::EncodeCustomHeader(h, &request);
    auto r = Call(std::move(request));
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : RemotingCommand{};
  }

  BrokerProcess broker_;
  std::unique_ptr<remoting::RemotingClient> client_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<RemotingCommand> resets_;
};

std::string Uniq(int i) {
  std::string n = std::to_string(i);
  return "AB" + std::string(30 - n.size(), '0') + n;
}

TEST_F(BrokerQueryOffsetTest, QueryByKeyAndUniqKeyAcrossIndexFiles) {
  const int64_t before = apogee::NowMillis();
  std::vector<Sent> sent;
  for (int i = 0; i < 40; ++i) {
    sent.push_back(Send("QoTopic", Uniq(i), "order-" + std::to_string(i % 20)));
  }
  const int64_t after = apogee::NowMillis() + 1;
  namespace fs = std::filesystem;
  size_t index_files = 0;
  ASSERT_TRUE(WaitUntil(
      [&] {
        index_files = 0;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(broker_.store_dir() + "/index", ec)) {
          (void)e;
          ++index_files;
        }
        return index_files >= 3;
      },
      10s))
      << index_files << " index files";

  // By key: "order-3" is on messages 3 and 23, in different IndexFiles.
  std::vector<message::MessageExt> found;
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto r = Query("QoTopic", "order-3", before, after);
        if (r.ok()) found = *r;
        return found.size() == 2;
      },
      10s));
  std::set<std::string> ids;
  for (const auto& m : found) ids.insert(std::string(m.msg_id()));
  EXPECT_EQ(ids, (std::set<std::string>{Uniq(3), Uniq(23)}));

  // By UNIQ_KEY, first and last message.
  // The send is acknowledged before the reput service indexes the message, so the last
  // one may need a moment to become searchable.
  for (int i : {0, 39}) {
    std::vector<message::MessageExt> by_uniq;
    ASSERT_TRUE(WaitUntil(
        [&] {
          auto r = Query("QoTopic", Uniq(i), before, after, /*uniq=*/true);
          if (r.ok()) by_uniq = *r;
          return by_uniq.size() == 1;
        },
        10s))
        << "message " << i << " found " << by_uniq.size() << " times";
    EXPECT_EQ(by_uniq[0].body, "body-" + Uniq(i));
  }
  // Outside the time range: nothing.
  auto none = Query("QoTopic", "order-3", before - 100000, before - 50000);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  // Unknown key: nothing.
  none = Query("QoTopic", "no-such-key", before, after);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());

  // By offset msgId.
  for (int i : {0, 17, 39}) {
    auto id = message::ParseOffsetMsgId(sent[i].offset_msg_id);
    ASSERT_TRUE(id.ok());
    protocol::ViewMessageRequestHeader h;
    h.offset = id->physical_offset;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kViewMessageById);
    protocol::EncodeCustomHeader(h, &request);
    auto r = Call(std::move(request));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->code, resp::kSuccess) << r->remark.value_or("");
    auto msgs = message::DecodeMessages(r->body);
    ASSERT_TRUE(msgs.ok());
    ASSERT_EQ(msgs->size(), 1u);
    EXPECT_EQ((*msgs)[0].offset_msg_id, sent[i].offset_msg_id);
    EXPECT_EQ((*msgs)[0].msg_id(), Uniq(i));
  }
}

TEST_F(BrokerQueryOffsetTest, ResetToATimeMakesOnlineAndOfflineGroupsReread) {
  CreateTopic("RsTopic", 1);
  for (int i = 0; i < 5; ++i) Send("RsTopic", Uniq(100 + i), "");
  std::this_thread::sleep_for(50ms);
  const int64_t middle = apogee::NowMillis();
  std::this_thread::sleep_for(50ms);
  for (int i = 5; i < 10; ++i) Send("RsTopic", Uniq(100 + i), "");
  ASSERT_TRUE(WaitUntil([&] { return Pull("RsTopic", 0).size() == 10; }, 10s));

  CommitOffset("rs_online", "RsTopic", 10);
  CommitOffset("rs_offline", "RsTopic", 10);
  ConsumerHeartbeat("rs_online", "RsTopic");

  RemotingCommand online = ResetToTime("rs_online", "RsTopic", middle);
  ASSERT_EQ(online.code, resp::kSuccess) << online.remark.value_or("");
  {
    std::unique_lock<std::mutex> lock(mu_);
    ASSERT_TRUE(cv_.wait_for(lock, 10s, [&] { return !resets_.empty(); }));
    auto h = protocol::DecodeCustomHeader<protocol::ResetOffsetRequestHeader>(resets_[0]);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->group, "rs_online");
    EXPECT_EQ(h->timestamp, middle);
    auto body = protocol::DecodeResetOffsetBody(resets_[0].body);
    ASSERT_TRUE(body.ok()) << body.status().ToString();
    ASSERT_EQ(body->offset_table.size(), 1u);
    EXPECT_EQ(body->offset_table.begin()->second, 5);
  }
  EXPECT_EQ(QueryOffset("rs_online", "RsTopic"), 5);
  std::vector<message::MessageExt> reread = Pull("RsTopic", QueryOffset("rs_online", "RsTopic"));
  ASSERT_EQ(reread.size(), 5u);
  EXPECT_EQ(reread[0].msg_id(), Uniq(105));

  // Nobody of rs_offline is connected: the stored offset is rewritten anyway.
  RemotingCommand offline = ResetToTime("rs_offline", "RsTopic", middle);
  ASSERT_EQ(offline.code, resp::kSuccess) << offline.remark.value_or("");
  EXPECT_EQ(QueryOffset("rs_offline", "RsTopic"), 5);
  client_->Shutdown();
  ASSERT_EQ(broker_.Stop(), 0);
  ASSERT_TRUE(broker_.Start(""));
  client_ = std::make_unique<remoting::RemotingClient>();
  client_->Start();
  EXPECT_EQ(QueryOffset("rs_offline", "RsTopic"), 5);

  // Back to the beginning.
  ASSERT_EQ(ResetToTime("rs_offline", "RsTopic", 1).code, resp::kSuccess);
  EXPECT_EQ(QueryOffset("rs_offline", "RsTopic"), 0);
}

TEST_F(BrokerQueryOffsetTest, RedriveMovesDlqMessagesBackOnce) {
  CreateTopic("RdTopic", 1);
  ConsumerHeartbeat("rd_group", "RdTopic");  // creates the group and %RETRY%rd_group
  // Failed 16 times: the send path puts them into %DLQ%rd_group.
  for (int i = 0; i < 3; ++i) {
    message::MessageProperties props;
    (void)props.Set("RETRY_TOPIC", "RdTopic");
    Send("%RETRY%rd_group", Uniq(200 + i), "", props, 16);
  }
  // The DLQ is write-only (Java's perm for %DLQ% topics): look for them by id instead.
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto r = Query("%DLQ%rd_group", Uniq(202), 0, apogee::NowMillis() + 1000, true);
        return r.ok() && r->size() == 1;
      },
      10s))
      << broker_.ReadLog();
  EXPECT_TRUE(Pull("RdTopic", 0).empty());

  RemotingCommand first = Redrive("rd_group");
  ASSERT_EQ(first.code, resp::kSuccess) << first.remark.value_or("");
  EXPECT_EQ(first.ext_fields.Get("redriven"), "3");
  EXPECT_EQ(first.ext_fields.Get("failed"), "0");
  EXPECT_EQ(first.ext_fields.Get("nextOffset"), "3");
  std::vector<message::MessageExt> back;
  ASSERT_TRUE(WaitUntil([&] { return (back = Pull("RdTopic", 0)).size() == 3; }, 10s));
  EXPECT_EQ(back[0].msg_id(), Uniq(200));
  EXPECT_EQ(back[0].reconsume_times, 0);
  EXPECT_EQ(back[0].body, "body-" + Uniq(200));

  RemotingCommand second = Redrive("rd_group");
  ASSERT_EQ(second.code, resp::kSuccess);
  EXPECT_EQ(second.ext_fields.Get("redriven"), "0");
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(Pull("RdTopic", 0).size(), 3u);

  RemotingCommand unknown = Redrive("no_such_group");
  EXPECT_EQ(unknown.code, resp::kSubscriptionGroupNotExist);
}

}  // namespace
}  // namespace apogee::testing
